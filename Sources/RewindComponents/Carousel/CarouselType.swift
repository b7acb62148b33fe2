/// The built-in carousel layouts, numbered as upstream numbers them, plus `custom`.
public enum CarouselType: Int, CaseIterable, Sendable, Codable, Hashable {
  /// Items in a straight line.
  case linear = 0
  /// Items on a ring that always face the viewer.
  case rotary
  /// A rotary ring seen from the inside.
  case invertedRotary
  /// Items on the outside of a cylinder, each face turned with the surface.
  case cylinder
  /// A cylinder seen from the inside; back faces are hidden by default.
  case invertedCylinder
  /// Items on a wheel whose hub sits below (or, vertically, left of) the centre.
  case wheel
  /// A wheel turning the other way.
  case invertedWheel
  /// Cover Flow: side items tilted and stacked behind the centre one.
  case coverFlow
  /// Cover Flow that flips the centre item early while it moves.
  case coverFlow2
  /// Items receding into the distance behind the current one.
  case timeMachine
  /// Items receding into the distance in front of the current one.
  case invertedTimeMachine
  /// The transform comes from ``CarouselReducer/customTransform``.
  case custom

  /// Whether items sit on a circle, the types whose geometry depends on the circular `count`.
  public var isCircular: Bool {
    switch self {
    case .rotary, .invertedRotary, .cylinder, .invertedCylinder, .wheel, .invertedWheel: true
    default: false
    }
  }

  /// Whether the type mirrors its base type's radius and angle (or tilt and offset).
  var isInverted: Bool {
    switch self {
    case .invertedRotary, .invertedCylinder, .invertedWheel, .invertedTimeMachine: true
    default: false
    }
  }

  /// The name used in benchmark ids: `coverFlow2` → `cover-flow-2`.
  public var slug: String {
    switch self {
    case .linear: "linear"
    case .rotary: "rotary"
    case .invertedRotary: "inverted-rotary"
    case .cylinder: "cylinder"
    case .invertedCylinder: "inverted-cylinder"
    case .wheel: "wheel"
    case .invertedWheel: "inverted-wheel"
    case .coverFlow: "cover-flow"
    case .coverFlow2: "cover-flow-2"
    case .timeMachine: "time-machine"
    case .invertedTimeMachine: "inverted-time-machine"
    case .custom: "custom"
    }
  }
}
