import Foundation

/// A 4×4 transform in Core Animation's convention: points are row vectors, `p′ = p · M`, and the
/// translation sits in the fourth row (`m41`, `m42`, `m43`).
///
/// ``translated(x:y:z:)`` and ``rotated(by:x:y:z:)`` prepend their step, so the step applies to points
/// before the transform already built, exactly like `CATransform3DTranslate` and `CATransform3DRotate`.
public struct Matrix4x4: Equatable, Sendable, Codable, Hashable {
  // swift-format-ignore
  /// The entries, row by row.
  public var m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44: Double

  /// Creates a matrix from its sixteen entries, row by row.
  public init(
    _ m11: Double, _ m12: Double, _ m13: Double, _ m14: Double,
    _ m21: Double, _ m22: Double, _ m23: Double, _ m24: Double,
    _ m31: Double, _ m32: Double, _ m33: Double, _ m34: Double,
    _ m41: Double, _ m42: Double, _ m43: Double, _ m44: Double
  ) {
    (self.m11, self.m12, self.m13, self.m14) = (m11, m12, m13, m14)
    (self.m21, self.m22, self.m23, self.m24) = (m21, m22, m23, m24)
    (self.m31, self.m32, self.m33, self.m34) = (m31, m32, m33, m34)
    (self.m41, self.m42, self.m43, self.m44) = (m41, m42, m43, m44)
  }

  /// The identity transform.
  public static let identity = Matrix4x4(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)

  /// A translation by (x, y, z).
  public static func translation(x: Double, y: Double, z: Double) -> Matrix4x4 {
    Matrix4x4(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1)
  }

  /// A rotation by `angle` radians about the axis (x, y, z), right-handed; a zero axis gives the identity.
  public static func rotation(by angle: Double, x: Double, y: Double, z: Double) -> Matrix4x4 {
    let length = (x * x + y * y + z * z).squareRoot()
    guard length > 0, length.isFinite else { return .identity }
    let (x, y, z) = (x / length, y / length, z / length)
    let c = cos(angle)
    let s = sin(angle)
    let t = 1 - c
    return Matrix4x4(
      x * x * t + c, x * y * t + z * s, x * z * t - y * s, 0,
      x * y * t - z * s, y * y * t + c, y * z * t + x * s, 0,
      x * z * t + y * s, y * z * t - x * s, z * z * t + c, 0,
      0, 0, 0, 1)
  }

  /// `self` then `other`: a point goes through `self` first (`p · self · other`).
  public func concatenating(_ other: Matrix4x4) -> Matrix4x4 {
    let a = self
    let b = other
    func entry(_ r: (Double, Double, Double, Double), _ c: (Double, Double, Double, Double)) -> Double {
      r.0 * c.0 + r.1 * c.1 + r.2 * c.2 + r.3 * c.3
    }
    let r1 = (a.m11, a.m12, a.m13, a.m14)
    let r2 = (a.m21, a.m22, a.m23, a.m24)
    let r3 = (a.m31, a.m32, a.m33, a.m34)
    let r4 = (a.m41, a.m42, a.m43, a.m44)
    let c1 = (b.m11, b.m21, b.m31, b.m41)
    let c2 = (b.m12, b.m22, b.m32, b.m42)
    let c3 = (b.m13, b.m23, b.m33, b.m43)
    let c4 = (b.m14, b.m24, b.m34, b.m44)
    return Matrix4x4(
      entry(r1, c1), entry(r1, c2), entry(r1, c3), entry(r1, c4),
      entry(r2, c1), entry(r2, c2), entry(r2, c3), entry(r2, c4),
      entry(r3, c1), entry(r3, c2), entry(r3, c3), entry(r3, c4),
      entry(r4, c1), entry(r4, c2), entry(r4, c3), entry(r4, c4))
  }

  /// This transform with a translation applied to points first.
  public func translated(x: Double, y: Double, z: Double) -> Matrix4x4 {
    Matrix4x4.translation(x: x, y: y, z: z).concatenating(self)
  }

  /// This transform with a rotation applied to points first.
  public func rotated(by angle: Double, x: Double, y: Double, z: Double) -> Matrix4x4 {
    Matrix4x4.rotation(by: angle, x: x, y: y, z: z).concatenating(self)
  }

  /// Where the origin lands after the transform, divided by w; nil when w is zero or not finite.
  public var projectedOrigin: CarouselVector? {
    guard m44 != 0, m44.isFinite else { return nil }
    return CarouselVector(x: m41 / m44, y: m42 / m44)
  }

  /// The depth key upstream sorts layers by: the sum of the third column.
  public var depthKey: Double { m13 + m23 + m33 + m43 }
}
