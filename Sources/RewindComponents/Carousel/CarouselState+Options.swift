import Foundation

// Option resolution: the override when set, else the per-type default (spec 2.3).
extension CarouselState {
  /// Whether the carousel wraps: the `wrap` option, else on for the circular types.
  public var isWrapping: Bool { options.wrap ?? type.isCircular }

  /// The placeholders shown: none when wrapping.
  public var placeholdersShown: Int { isWrapping ? 0 : numberOfPlaceholders }

  /// Items moved per item width dragged.
  public var offsetMultiplier: Double {
    options.offsetMultiplier ?? ((type == .coverFlow || type == .coverFlow2) ? 2 : 1)
  }

  /// The spacing between items as a fraction of the item width.
  var spacing: Double { options.spacing ?? ((type == .coverFlow || type == .coverFlow2) ? 0.25 : 1) }

  /// The tilt of Cover Flow and Time Machine.
  var tilt: Double {
    if let tilt = options.tilt { return tilt }
    switch type {
    case .coverFlow, .coverFlow2: return 0.9
    case .timeMachine, .invertedTimeMachine: return 0.3
    default: return 0
    }
  }

  /// The arc of the circular types.
  var arc: Double { options.arc ?? 2 * Double.pi }

  /// Whether items facing away are drawn.
  var showsBackfaces: Bool { options.showBackfaces ?? (type != .invertedCylinder) }

  /// The bounds extent along the scroll axis.
  var scrollExtent: Double { properties.isVertical ? bounds.height : bounds.width }

  /// The number of slots on the circle of the circular types, at least 1 (spec 2.3 "count").
  ///
  /// For the other types it is the number of items and placeholders shown.
  public var circularCount: Int {
    let shown = numberOfItems + placeholdersShown
    guard type.isCircular else { return shown }
    var count: Int
    let raw = min(30, max(12, ceil(scrollExtent / (spacing * itemWidth)) * Double.pi))
    count = raw.isFinite ? Int(raw) : 12
    count = min(shown, count)
    if let option = options.count {
      count = option.isFinite ? Int(max(-1e9, min(1e9, option))) : count
    }
    return max(1, count)
  }

  /// The fade options: overrides, else ±∞ with the Time Machine exceptions, range 1 and minimum alpha 0.
  var fade: (min: Double, max: Double, range: Double, minAlpha: Double) {
    (
      options.fadeMin ?? (type == .invertedTimeMachine ? 0 : -Double.infinity),
      options.fadeMax ?? (type == .timeMachine ? 0 : Double.infinity),
      options.fadeRange ?? 1,
      options.fadeMinAlpha ?? 0
    )
  }

  /// The alpha of an item at `offset` under the fade options (spec 2.5).
  public func alpha(forOffset offset: Double) -> Double {
    let fade = fade
    let factor = offset > fade.max ? offset - fade.max : (offset < fade.min ? fade.min - offset : 0)
    let alpha = 1 - min(factor, fade.range) / fade.range * (1 - fade.minAlpha)
    // A zero or NaN fade range gives 0/0 upstream; treat it as an instant fade.
    return alpha.isNaN ? (factor > 0 ? fade.minAlpha : 1) : alpha
  }
}
