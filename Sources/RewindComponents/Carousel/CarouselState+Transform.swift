import Foundation

/// A custom layout: the transform of an item at `offset`, given the base transform (perspective and
/// viewpoint). Upstream's `carousel:itemTransformForOffset:baseTransform:`.
public typealias CarouselCustomTransform = @Sendable (_ offset: Double, _ base: Matrix4x4) -> Matrix4x4

// Item transforms (spec 2.5), built in upstream's call order so floating point matches.
extension CarouselState {
  /// The base transform: perspective, with the viewpoint translation applied to points before it.
  public var baseTransform: Matrix4x4 {
    var base = Matrix4x4.identity
    base.m34 = properties.perspective
    return base.translated(x: -properties.viewpointOffset.x, y: -properties.viewpointOffset.y, z: 0)
  }

  /// The 3D transform of an item at `offset` from the centre, relative to the items' anchor.
  public func transform(forOffset offset: Double, custom: CarouselCustomTransform? = nil) -> Matrix4x4 {
    let base = baseTransform
    let vertical = properties.isVertical
    let width = itemWidth
    switch type {
    case .custom:
      return custom?(offset, base) ?? base

    case .linear:
      let along = offset * width * spacing
      return vertical ? base.translated(x: 0, y: along, z: 0) : base.translated(x: along, y: 0, z: 0)

    case .rotary, .invertedRotary:
      let count = Double(circularCount)
      let spacing = spacing
      let arc = arc
      var radius = options.radius ?? max(width * spacing / 2, width * spacing / 2 / tan(arc / 2 / count))
      var angle = options.angle ?? offset / count * arc
      if type == .invertedRotary {
        radius = -radius
        angle = -angle
      }
      let along = radius * sin(angle)
      let depth = radius * cos(angle) - radius
      return vertical ? base.translated(x: 0, y: along, z: depth) : base.translated(x: along, y: 0, z: depth)

    case .cylinder, .invertedCylinder:
      let count = Double(circularCount)
      let spacing = spacing
      let arc = arc
      var radius = options.radius ?? max(0.01, width * spacing / 2 / tan(arc / 2 / count))
      var angle = options.angle ?? offset / count * arc
      if type == .invertedCylinder {
        radius = -radius
        angle = -angle
      }
      var matrix = base.translated(x: 0, y: 0, z: -radius)
      matrix =
        vertical ? matrix.rotated(by: angle, x: -1, y: 0, z: 0) : matrix.rotated(by: angle, x: 0, y: 1, z: 0)
      return matrix.translated(x: 0, y: 0, z: radius + 0.01)

    case .wheel, .invertedWheel:
      let count = Double(circularCount)
      let spacing = spacing
      let arc = arc
      var radius = options.radius ?? width * spacing * count / arc
      var angle = options.angle ?? arc / count
      if type == .invertedWheel {
        radius = -radius
        angle = -angle
      }
      if vertical {
        let matrix = base.translated(x: -radius, y: 0, z: 0).rotated(by: angle * offset, x: 0, y: 0, z: 1)
        return matrix.translated(x: radius, y: 0, z: offset * 0.01)
      }
      let matrix = base.translated(x: 0, y: radius, z: 0).rotated(by: angle * offset, x: 0, y: 0, z: 1)
      return matrix.translated(x: 0, y: -radius, z: offset * 0.01)

    case .coverFlow, .coverFlow2:
      let tilt = tilt
      let spacing = spacing
      let clamped = type == .coverFlow2 ? coverFlow2Clamp(offset) : max(-1, min(1, offset))
      let along = (clamped * 0.5 * tilt + offset * spacing) * width
      let depth = abs(clamped) * -width * 0.5
      if vertical {
        return base.translated(x: 0, y: along, z: depth).rotated(
          by: -clamped * Double.pi / 2 * tilt, x: -1, y: 0, z: 0)
      }
      return base.translated(x: along, y: 0, z: depth).rotated(
        by: -clamped * Double.pi / 2 * tilt, x: 0, y: 1, z: 0)

    case .timeMachine, .invertedTimeMachine:
      var tilt = tilt
      var offset = offset
      if type == .invertedTimeMachine {
        tilt = -tilt
        offset = -offset
      }
      let across = offset * width * tilt
      let depth = offset * width * spacing
      return vertical
        ? base.translated(x: 0, y: across, z: depth) : base.translated(x: across, y: 0, z: depth)
    }
  }

  /// Cover Flow 2's clamp, which flips the centre item early depending on ``toggle``.
  func coverFlow2Clamp(_ offset: Double) -> Double {
    if toggle > 0 {
      if offset <= -0.5 { return -1 }
      if offset <= 0.5 { return -toggle }
      if offset <= 1.5 { return 1 - toggle }
    } else {
      if offset > 0.5 { return 1 }
      if offset > -0.5 { return -toggle }
      if offset > -1.5 { return -1 - toggle }
    }
    return max(-1, min(1, offset))
  }
}
