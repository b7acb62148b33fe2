/// Pure layout of a swipe cell: container widths, translations, button frames and the 3D hinge, computed
/// from ``SwipeCellState``. Coordinates follow UIKit (x right, y down); containers rest just off the cell.
public enum SwipeGeometry {
  /// The container width S: `n·max(w) + d·(n−1)`, or `Σw + d·(n−1)` with different widths; 0 for no buttons.
  public static func containerWidth(buttons: [SwipeButton], settings: SwipeSettings) -> Double {
    guard !buttons.isEmpty else { return 0 }
    let gaps = distance(settings) * Double(buttons.count - 1)
    if settings.allowsButtonsWithDifferentWidth {
      return buttons.reduce(0) { $0 + $1.layoutWidth } + gaps
    }
    let widest = buttons.reduce(0) { Swift.max($0, $1.layoutWidth) }
    return Double(buttons.count) * widest + gaps
  }

  /// The horizontal translation of `side`'s container: `sign·min(|o|, S) + sign·offset`, where the sign is
  /// the *current* swipe sign for both containers.
  public static func containerTranslation(_ state: SwipeCellState, side: SwipeDirection) -> Double {
    let sign: Double = state.offset > 0 ? 1 : -1
    let width = state.containerWidth(side)
    return sign * Swift.min(Swift.abs(state.offset), width) + sign * state.settings(side).offset
  }

  /// The resting x of `side`'s container in cell coordinates: −S on the left, W on the right.
  public static func containerRestingX(_ state: SwipeCellState, side: SwipeDirection) -> Double {
    side == .leftToRight ? -state.containerWidth(side) : state.cellWidth
  }

  /// The content's horizontal translation: 0 when only the buttons slide, otherwise the offset.
  public static func contentTranslation(_ state: SwipeCellState) -> Double {
    state.settings(SwipeDirection(offset: state.offset)).onlySwipeButtons ? 0 : state.offset
  }

  /// The frames of `side`'s buttons inside its container at transition progress `progress` (by default the
  /// progress last applied to that side), in container order (left to right).
  public static func buttonFrames(
    _ state: SwipeCellState, side: SwipeDirection, progress: Double? = nil
  ) -> [SwipeButtonFrame] {
    let buttons = state.buttons(side)
    guard !buttons.isEmpty else { return [] }
    let settings = state.settings(side)
    let t = clampProgress(progress ?? state.progress(side))
    let inset = state.safeAreaInset(side)
    let s = state.containerWidth(side)
    let widest = buttons.reduce(0) { Swift.max($0, $1.layoutWidth) }
    let order: [Int] = side == .leftToRight ? Array(buttons.indices) : buttons.indices.reversed()
    let masks = buttons.count > 1
    // The safe-area inset widens the outermost button (original index 0), or else stays an empty strip at
    // the cell's outer edge.
    let widensOutermost = settings.expandLastButtonBySafeAreaInsets
    var frames: [SwipeButtonFrame] = []
    frames.reserveCapacity(buttons.count)
    var cumulative = side == .leftToRight && !widensOutermost ? inset : 0
    for index in order {
      var w = settings.allowsButtonsWithDifferentWidth ? buttons[index].layoutWidth : widest
      if index == 0 && widensOutermost { w += inset }
      let o = cumulative
      var mask: SwipeButtonFrame.Mask?
      let x: Double
      switch (settings.transition, side) {
      case (.border, .leftToRight): x = (s - w - o) * (1 - t) + o
      case (.border, .rightToLeft): x = o * t
      case (.static, .leftToRight): x = o + s * (1 - t)
      case (.static, .rightToLeft): x = o - s * (1 - t)
      case (.drag, _), (.rotate3D, _): x = o
      case (.clipCenter, _):
        let c = (w * 0.5 * (1 - t)).rounded()
        x = side == .leftToRight ? (s - w - o) * (1 - t) + o + c : o * t - c
        if masks { mask = SwipeButtonFrame.Mask(x: c - 0.5, width: w - 2 * c + 1.5) }
      }
      frames.append(SwipeButtonFrame(index: index, x: x, width: w, mask: mask))
      cumulative = o + w + distance(settings)
    }
    return frames
  }

  /// The rotate3D door of `side` at `progress`, or `nil` when that side does not use rotate3D.
  public static func hinge(_ state: SwipeCellState, side: SwipeDirection, progress: Double? = nil)
    -> SwipeHinge?
  {
    guard state.settings(side).transition == .rotate3D else { return nil }
    let t = clampProgress(progress ?? state.progress(side))
    let inv: Double = side == .leftToRight ? 1 : -1
    return SwipeHinge(
      hingeX: side == .leftToRight ? 0 : state.cellWidth, angle: Double.pi / 2 * (1 - t) * inv,
      perspective: -1.0 / 400)
  }

  /// The expanded layout of `side` while it is expanding, or `nil`.
  public static func expansion(_ state: SwipeCellState, side: SwipeDirection) -> SwipeExpansionFrame? {
    guard state.activeExpansion == side else { return nil }
    let settings = state.expansion(side)
    let buttons = state.buttons(side)
    guard buttons.indices.contains(settings.buttonIndex) else { return nil }
    let s = state.containerWidth(side)
    let magnitude = Swift.abs(state.offset)
    let containerX = side == .leftToRight ? 0 : s - magnitude
    let frames = buttonFrames(state, side: side, progress: 1)
    let w = frames.first { $0.index == settings.buttonIndex }?.width ?? 0
    let original = frames.first { $0.index == settings.buttonIndex }?.x ?? 0
    let buttonX: Double
    let buttonWidth: Double
    switch settings.layout {
    case .border:
      buttonX = side == .leftToRight ? magnitude - w : 0
      buttonWidth = w
    case .center:
      buttonX = 0
      buttonWidth = magnitude
    case .none:
      buttonX = original
      buttonWidth = w
    }
    return SwipeExpansionFrame(
      containerX: containerX, containerWidth: magnitude, buttonIndex: settings.buttonIndex, buttonX: buttonX,
      buttonWidth: buttonWidth,
      color: settings.expansionColor ?? buttons[settings.buttonIndex].backgroundColor)
  }

  static func distance(_ settings: SwipeSettings) -> Double {
    settings.buttonsDistance.isFinite ? Swift.max(0, settings.buttonsDistance) : 0
  }

  static func clampProgress(_ t: Double) -> Double { t.isNaN ? 0 : Swift.min(1, Swift.max(0, t)) }
}

/// One button's horizontal frame inside its container.
public struct SwipeButtonFrame: Equatable, Sendable {
  /// The visible region of a clipCenter button, in the button's own coordinates.
  public struct Mask: Equatable, Sendable {
    /// Left edge of the visible region.
    public var x: Double
    /// Width of the visible region.
    public var width: Double

    /// Creates a mask.
    public init(x: Double, width: Double) {
      self.x = x
      self.width = width
    }
  }

  /// The button's original index on its side.
  public var index: Int
  /// Left edge in container coordinates.
  public var x: Double
  /// Width.
  public var width: Double
  /// The clipCenter mask, set only with more than one button.
  public var mask: Mask?
}

/// The rotate3D transform as a value: a door hinged on the cell's outer border.
public struct SwipeHinge: Equatable, Sendable {
  /// The x of the hinge in cell coordinates (0 on the left, W on the right).
  public var hingeX: Double
  /// Rotation about the y axis in radians: ±π/2 edge-on at progress 0, 0 flat at 1.
  public var angle: Double
  /// The perspective term m34 (−1/400).
  public var perspective: Double
}

/// The layout of an expanding side: the container widened to the swiped area and the pinned button.
public struct SwipeExpansionFrame: Equatable, Sendable {
  /// The container's x inside its resting frame.
  public var containerX: Double
  /// The container's width: |o|.
  public var containerWidth: Double
  /// The expanded button's original index.
  public var buttonIndex: Int
  /// The button's x inside the container.
  public var buttonX: Double
  /// The button's width.
  public var buttonWidth: Double
  /// The background colour token behind the expansion.
  public var color: String?
}
