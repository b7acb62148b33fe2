/// The direction of a swipe, named after the finger's movement.
public enum SwipeDirection: Int, Sendable, Codable, Hashable {
  /// The finger moves right: the offset is positive and the *left* buttons are revealed.
  case leftToRight = 0
  /// The finger moves left: the offset is negative and the *right* buttons are revealed.
  case rightToLeft = 1

  /// The side an offset reveals: positive is ``leftToRight``; zero and negative are ``rightToLeft``.
  public init(offset: Double) { self = offset > 0 ? .leftToRight : .rightToLeft }

  /// +1 for ``leftToRight``, −1 for ``rightToLeft``.
  public var sign: Double { self == .leftToRight ? 1 : -1 }
}

/// What a swipe cell is doing, as it reports it; raw values follow `MGSwipeState`.
public enum SwipePhase: Int, Sendable, Codable, Hashable {
  /// Closed.
  case none = 0
  /// Showing the left buttons.
  case swipingLeftToRight = 1
  /// Showing the right buttons.
  case swipingRightToLeft = 2
  /// Past the left expansion threshold.
  case expandingLeftToRight = 3
  /// Past the right expansion threshold.
  case expandingRightToLeft = 4

  /// The swiping phase for `direction`.
  public static func swiping(_ direction: SwipeDirection) -> SwipePhase {
    direction == .leftToRight ? .swipingLeftToRight : .swipingRightToLeft
  }

  /// The expanding phase for `direction`.
  public static func expanding(_ direction: SwipeDirection) -> SwipePhase {
    direction == .leftToRight ? .expandingLeftToRight : .expandingRightToLeft
  }
}
