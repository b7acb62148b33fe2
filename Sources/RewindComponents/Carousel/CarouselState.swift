/// The whole state of a headless carousel: data, geometry inputs, motion, the loaded window, and the
/// events produced by the latest action.
///
/// A motion (a scroll animation, a fling, autoscroll) is kept as what it is, not where it has got to:
/// geometry (offset, transforms, visibility, alpha, depth) at any display time is a pure function of this
/// state and that time; see ``layout(at:custom:)``. Fields change only through ``CarouselAction``s.
public struct CarouselState: Equatable, Sendable, Codable {
  /// The layout type.
  public internal(set) var type: CarouselType
  /// Overrides of the per-type option defaults.
  public internal(set) var options: CarouselOptions
  /// Behaviour switches and physics constants.
  public internal(set) var properties: CarouselProperties
  /// The carousel's view size.
  public internal(set) var bounds: CarouselSize
  /// The item width along the scroll axis, in points.
  public internal(set) var itemWidth: Double
  /// The number of items.
  public internal(set) var numberOfItems: Int
  /// The number of placeholder slots the data source offers (shown only when not wrapping).
  public internal(set) var numberOfPlaceholders: Int

  /// The scroll position in items at ``time``: 0 centres item 0. ``scrollOffset(at:)`` gives it at any
  /// later display time.
  public internal(set) var scrollOffset: Double = 0
  /// The offset at the end of the previous scroll pass; decides whether `didScroll` is reported.
  public internal(set) var previousScrollOffset: Double = 0
  /// The current index at the end of the previous scroll pass.
  public internal(set) var previousItemIndex: Int
  /// Whether a finger is dragging the carousel.
  public internal(set) var isDragging = false
  /// The drag translation already applied, in points.
  public internal(set) var previousTranslation: Double = 0
  /// Whether the last drag ended without a fling (Cover Flow 2 then keeps its toggle while settling).
  public internal(set) var didDrag = false
  /// The running programmatic scroll animation (paused while a finger drags).
  public internal(set) var scrollAnimation: CarouselScrollAnimation?
  /// The running fling.
  public internal(set) var deceleration: CarouselDeceleration?
  /// How many scroll animations and flings have started; the latest one's ``CarouselScrollAnimation/id``.
  public internal(set) var animationCount = 0
  /// The drag velocity in items per second, used at release.
  public internal(set) var startVelocity: Double = 0
  /// Cover Flow 2's flip progress in [−1, 1] at ``time``; ``toggle(at:)`` gives it at any later time.
  public internal(set) var toggle: Double = 0
  /// When the toggle's settle is measured from: the last change of the current item, or the end of a
  /// fling's toggle settle.
  public internal(set) var toggleTime: Double = 0
  /// Autoscroll speed in items per second; positive decreases the offset, as upstream.
  public internal(set) var autoscroll: Double = 0
  /// The display time the state describes: the latest action's `at`, or the end of the latest motion
  /// ended. ``scrollOffset`` and ``toggle`` are the values at this time.
  public internal(set) var time: Double = 0
  /// Names this carousel's animation timer among a store's effects; give each carousel of one store its own.
  public internal(set) var timerID: String

  /// The loaded indices, ascending: the visible window after the latest scroll pass.
  public internal(set) var loadedIndices: [Int] = []
  /// Whether the window has been loaded once; false until the first layout or scroll pass.
  public internal(set) var hasLoadedWindow = false
  /// Views parked for reuse by items.
  public internal(set) var itemPoolSize = 0
  /// Views parked for reuse by placeholders.
  public internal(set) var placeholderPoolSize = 0

  /// The delegate events and load changes of the latest action, in upstream order.
  public internal(set) var events: [CarouselEvent] = []

  /// Creates a carousel at offset 0 and time 0 with nothing loaded; send `.layout` or `.reload` to load the
  /// window.
  ///
  /// Invalid input is clamped: counts into `0...2⁴⁰`, and a non-positive or non-finite item width
  /// or an invalid size makes the geometry empty until a valid one is set.
  public init(
    numberOfItems: Int = 0, numberOfPlaceholders: Int = 0, itemWidth: Double = 100,
    bounds: CarouselSize = CarouselSize(width: 320, height: 480), type: CarouselType = .linear,
    options: CarouselOptions = CarouselOptions(), properties: CarouselProperties = CarouselProperties(),
    timerID: String = "carousel"
  ) {
    self.numberOfItems = Self.validCount(numberOfItems)
    self.numberOfPlaceholders = Self.validCount(numberOfPlaceholders)
    self.itemWidth = itemWidth
    self.bounds = bounds
    self.type = type
    self.options = options
    self.properties = properties
    self.timerID = timerID
    previousItemIndex = 0
    previousItemIndex = currentItemIndex
  }

  /// `count` clamped into `0...CarouselConstants.maxItemCount`.
  static func validCount(_ count: Int) -> Int { min(max(0, count), CarouselConstants.maxItemCount) }

  /// Whether the geometry inputs can produce a layout: a positive, finite item width and a valid size.
  public var hasValidGeometry: Bool { itemWidth > 0 && itemWidth.isFinite && bounds.isValid }
}
