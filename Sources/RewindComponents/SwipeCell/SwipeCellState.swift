/// The state of one swipe cell (MGSwipeTableCell's behaviour): configuration, offset, phase, animation and
/// the events the last action emitted.
///
/// Configuration fields are public to set; the runtime fields change only through ``SwipeCell`` actions.
/// The runtime fields are as of the last action: while an ``animation`` runs, a view draws
/// ``presentation(at:)`` (or reads ``offset(at:)``) for each display frame instead.
public struct SwipeCellState: Equatable, Sendable, Codable {
  // MARK: Configuration

  /// The buttons revealed by a left-to-right swipe; index 0 is at the cell's outer (left) edge.
  public var leftButtons: [SwipeButton] = []
  /// The buttons revealed by a right-to-left swipe; index 0 is at the cell's outer (right) edge.
  public var rightButtons: [SwipeButton] = []
  /// Settings of the left side.
  public var leftSettings = SwipeSettings()
  /// Settings of the right side.
  public var rightSettings = SwipeSettings()
  /// Expansion settings of the left side.
  public var leftExpansion = SwipeExpansionSettings()
  /// Expansion settings of the right side.
  public var rightExpansion = SwipeExpansionSettings()
  /// The cell's width W in points (the fill target of an expansion).
  public var cellWidth: Double = 320
  /// Whether other cells may stay open while this one is (read by ``SwipeTable``).
  public var allowsMultipleSwipe = false
  /// Whether a pan starting on the buttons of an open cell may move it.
  public var allowsSwipeWhenTappingButtons = true
  /// Whether one gesture may cross from one side to the other.
  public var allowsOppositeSwipe = true
  /// Whether swiping leaves the row's selection alone.
  public var preservesSelectionStatus = false
  /// Whether the touch that dismisses this open cell also reaches what lies under it (``SwipeTable``).
  public var touchOnDismissSwipe = false
  /// Whether the row is in table editing mode; such a cell never starts a swipe.
  public var isEditing = false
  /// Names this cell's animation timer among a store's effects: unique per cell in one store when several
  /// cells run under one store outside a ``SwipeTable`` (a table names its rows' timers by row id).
  public var cellID = "swipe-cell"
  /// The safe-area inset on the left (set with ``SwipeCellAction/setSafeAreaInsets(left:right:)``).
  public internal(set) var safeAreaInsetLeft: Double = 0
  /// The safe-area inset on the right.
  public internal(set) var safeAreaInsetRight: Double = 0

  // MARK: Runtime

  /// The offset o as of the last action: positive reveals the left buttons, negative the right ones. While
  /// an animation runs it is where the animation started; ``offset(at:)`` is where a frame shows it.
  public internal(set) var offset: Double = 0
  /// The reported phase.
  public internal(set) var phase: SwipePhase = .none
  /// Where a release without a flick goes, from the threshold rule of the last applied offset.
  public internal(set) var targetOffset: Double = 0
  /// The side the current gesture started on; `nil` between gestures.
  public internal(set) var firstSwipeDirection: SwipeDirection?
  /// Whether a left-to-right swipe was allowed when the last gesture began on a closed cell.
  public internal(set) var allowsLeftToRight = false
  /// Whether a right-to-left swipe was allowed when the last gesture began on a closed cell.
  public internal(set) var allowsRightToLeft = false
  /// Whether the swipe overlay (content snapshot and buttons) is shown: the cell is open or moving.
  public internal(set) var isOverlayShown = false
  /// The side whose button is expanded.
  public internal(set) var activeExpansion: SwipeDirection?
  /// The offset when the current pan began.
  public internal(set) var panStartOffset: Double = 0
  /// The pan's horizontal translation when it began.
  public internal(set) var panStartX: Double = 0
  /// Whether a pan is between began and ended.
  public internal(set) var isGestureActive = false
  /// The transition progress last applied to the left side.
  public internal(set) var leftProgress: Double = 0
  /// The transition progress last applied to the right side.
  public internal(set) var rightProgress: Double = 0
  /// The running animation: what it is (from, to, start, curve), sampled by ``offset(at:)``.
  public internal(set) var animation: SwipeAnimationRun?
  /// How many animations this cell has started: the next one's ``SwipeAnimationRun/id`` is this plus 1.
  public internal(set) var animationCount = 0
  /// Bumped by ``SwipeCellAction/refreshContent``: the renderer re-takes its content snapshot.
  public internal(set) var contentRevision = 0
  /// The events emitted by the last action this cell handled, in upstream order.
  public internal(set) var events: [SwipeEvent] = []

  /// A closed cell with the upstream defaults and no buttons.
  public init() {}

  /// A closed cell with `left` and `right` buttons.
  public init(left: [SwipeButton] = [], right: [SwipeButton] = [], cellWidth: Double = 320) {
    self.leftButtons = left
    self.rightButtons = right
    self.cellWidth = cellWidth
  }

  /// Whether state changes are reported: not while an animation runs (only its end reports).
  ///
  /// Upstream also stays silent after an animation interrupted by a pan; here reporting resumes as soon
  /// as no animation runs (see Docs/Components.md, deviations).
  public var reportsStateChanges: Bool { animation == nil }

  /// Whether the cell is at rest with buttons showing.
  public var isOpen: Bool { isOverlayShown && offset != 0 }
}

extension SwipeCellState {
  /// The buttons of `side`.
  public func buttons(_ side: SwipeDirection) -> [SwipeButton] {
    side == .leftToRight ? leftButtons : rightButtons
  }

  /// The settings of `side`.
  public func settings(_ side: SwipeDirection) -> SwipeSettings {
    side == .leftToRight ? leftSettings : rightSettings
  }

  /// The expansion settings of `side`.
  public func expansion(_ side: SwipeDirection) -> SwipeExpansionSettings {
    side == .leftToRight ? leftExpansion : rightExpansion
  }

  /// The width of `side`'s button container: S plus that side's safe-area inset (0 without buttons).
  public func containerWidth(_ side: SwipeDirection) -> Double {
    let buttons = buttons(side)
    guard !buttons.isEmpty else { return 0 }
    return SwipeGeometry.containerWidth(buttons: buttons, settings: settings(side)) + safeAreaInset(side)
  }

  /// The safe-area inset on `side`.
  public func safeAreaInset(_ side: SwipeDirection) -> Double {
    side == .leftToRight ? safeAreaInsetLeft : safeAreaInsetRight
  }

  /// The transition progress last applied to `side`.
  public func progress(_ side: SwipeDirection) -> Double {
    side == .leftToRight ? leftProgress : rightProgress
  }
}
