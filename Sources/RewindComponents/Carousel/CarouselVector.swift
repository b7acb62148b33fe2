/// A 2D vector or point in points, x to the right and y downward.
public struct CarouselVector: Equatable, Sendable, Codable, Hashable {
  /// The horizontal component.
  public var x: Double
  /// The vertical component.
  public var y: Double

  /// Creates a vector.
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
}
