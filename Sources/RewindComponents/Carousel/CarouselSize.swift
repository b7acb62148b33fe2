/// A size in points.
public struct CarouselSize: Equatable, Sendable, Codable, Hashable {
  /// The horizontal extent.
  public var width: Double
  /// The vertical extent.
  public var height: Double

  /// Creates a size.
  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  /// Whether both extents are finite and not negative, the sizes the carousel accepts.
  public var isValid: Bool { width.isFinite && height.isFinite && width >= 0 && height >= 0 }
}
