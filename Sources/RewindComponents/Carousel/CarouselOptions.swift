/// Per-carousel overrides of the layout options; `nil` keeps the type's default (spec 2.3).
///
/// Upstream asks a delegate for each option; here the answers are plain values in state, so a layout is a
/// pure function of the state. Boolean options follow upstream: any non-zero value means true.
public struct CarouselOptions: Equatable, Sendable, Codable, Hashable {
  /// Whether the carousel wraps around; the default is on for the circular types.
  public var wrap: Bool?
  /// Whether items facing away are drawn; the default hides them only for `invertedCylinder`.
  public var showBackfaces: Bool?
  /// Items moved per item width dragged; the default is 2 for Cover Flow, else 1.
  public var offsetMultiplier: Double?
  /// The number of items in the visible window, overriding the computed value.
  public var visibleItems: Double?
  /// The number of item slots on the circle of the circular types (truncated; at least 1).
  public var count: Double?
  /// The arc the circular types spread their slots over, in radians (default 2π).
  public var arc: Double?
  /// A fixed angle (rotary, cylinder: the item's angle; wheel: the angle step), replacing the default.
  public var angle: Double?
  /// The radius of the circular types, replacing the computed one.
  public var radius: Double?
  /// The tilt of Cover Flow (default 0.9) and Time Machine (default 0.3).
  public var tilt: Double?
  /// Item spacing as a fraction of the item width (default 0.25 for Cover Flow, else 1).
  public var spacing: Double?
  /// Offsets below this fade out (default −∞; 0 for `invertedTimeMachine`).
  public var fadeMin: Double?
  /// Offsets above this fade out (default +∞; 0 for `timeMachine`).
  public var fadeMax: Double?
  /// The offset distance over which fading completes (default 1).
  public var fadeRange: Double?
  /// The alpha a fully faded item keeps (default 0).
  public var fadeMinAlpha: Double?

  /// Options that keep every default.
  public init(
    wrap: Bool? = nil, showBackfaces: Bool? = nil, offsetMultiplier: Double? = nil,
    visibleItems: Double? = nil,
    count: Double? = nil, arc: Double? = nil, angle: Double? = nil, radius: Double? = nil,
    tilt: Double? = nil,
    spacing: Double? = nil, fadeMin: Double? = nil, fadeMax: Double? = nil, fadeRange: Double? = nil,
    fadeMinAlpha: Double? = nil
  ) {
    self.wrap = wrap
    self.showBackfaces = showBackfaces
    self.offsetMultiplier = offsetMultiplier
    self.visibleItems = visibleItems
    self.count = count
    self.arc = arc
    self.angle = angle
    self.radius = radius
    self.tilt = tilt
    self.spacing = spacing
    self.fadeMin = fadeMin
    self.fadeMax = fadeMax
    self.fadeRange = fadeRange
    self.fadeMinAlpha = fadeMinAlpha
  }
}
