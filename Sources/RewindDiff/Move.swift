/// A move from a position before a stage to a position after it.
public struct Move<Position: Hashable & Sendable>: Hashable, Sendable {
  /// Where the item is before the stage.
  public var source: Position
  /// Where the item is after the stage.
  public var target: Position

  /// A move from `source` to `target`.
  @inlinable
  public init(source: Position, target: Position) {
    self.source = source
    self.target = target
  }
}

extension Move: CustomStringConvertible {
  /// `source -> target`.
  public var description: String { "\(source) -> \(target)" }
}
