/// The carousel's behaviour switches and physics constants, with upstream's defaults (spec 2.2).
public struct CarouselProperties: Equatable, Sendable, Codable, Hashable {
  /// The m34 entry of the base transform. Upstream's code value, −1/500 (its README says −0.005).
  public var perspective: Double = -1.0 / 500.0
  /// The fraction of velocity kept per unit of time; 1 means a fling never stops.
  public var decelerationRate: Double = 0.95
  /// Scales the release velocity.
  public var scrollSpeed: Double = 1
  /// How far past either end a non-wrapping carousel may be pulled, in items.
  public var bounceDistance: Double = 1
  /// Whether drags scroll the carousel.
  public var isScrollEnabled = true
  /// Whether momentum moves at most to the next item boundary.
  public var isPagingEnabled = false
  /// Whether a non-wrapping carousel may be pulled past its ends.
  public var bounces = true
  /// Whether the carousel scrolls along y instead of x.
  public var isVertical = false
  /// Whether a fling ends on an item boundary.
  public var stopAtItemBoundary = true
  /// Whether the carousel settles on an item after a drag, a fling or a layout.
  public var scrollToItemBoundary = true
  /// Whether a drag that starts across the scroll axis is refused.
  public var ignorePerpendicularSwipes = true
  /// Whether selecting an item scrolls it to the centre.
  public var centerItemWhenSelected = true
  /// Moves the centre of the items' container, in points.
  public var contentOffset = CarouselVector(x: 0, y: 0)
  /// Moves the viewpoint, in points, before perspective.
  public var viewpointOffset = CarouselVector(x: 0, y: 0)

  /// Upstream's defaults.
  public init() {}
}
