/// The settings of one side of a swipe cell (`leftSwipeSettings` / `rightSwipeSettings` upstream).
public struct SwipeSettings: Equatable, Sendable, Codable {
  /// How the buttons appear.
  public var transition: SwipeTransition = .border
  /// Fraction of the container width beyond which a release keeps the buttons open (strict).
  public var threshold: Double = 0.5
  /// Extra translation of the button container in the swipe direction.
  public var offset: Double = 0
  /// Space above the buttons.
  public var topMargin: Double = 0
  /// Space below the buttons.
  public var bottomMargin: Double = 0
  /// The gap between adjacent buttons.
  public var buttonsDistance: Double = 0
  /// The animation that opens the buttons.
  public var showAnimation = SwipeAnimation()
  /// The animation that closes the cell.
  public var hideAnimation = SwipeAnimation()
  /// The animation back from beyond the buttons to their width.
  public var stretchAnimation = SwipeAnimation()
  /// Whether a release past the threshold keeps the buttons open; `false` gives the "Spotify" style.
  public var keepButtonsSwiped = true
  /// Whether only the buttons slide, leaving the content in place.
  public var onlySwipeButtons = false
  /// Whether the offset may go beyond the buttons' width, slowed by ``swipeBounceRate``.
  public var enableSwipeBounces = true
  /// How much of the movement beyond the buttons' width is applied.
  public var swipeBounceRate: Double = 1.0
  /// Whether buttons keep their own widths instead of all taking the widest one's.
  public var allowsButtonsWithDifferentWidth = false
  /// Whether the outermost button absorbs the safe-area inset on this side (otherwise it is empty space).
  public var expandLastButtonBySafeAreaInsets = true

  /// The upstream defaults.
  public init() {}
}

/// The expansion settings of one side (`leftExpansion` / `rightExpansion` upstream).
public struct SwipeExpansionSettings: Equatable, Sendable, Codable {
  /// The original index of the button that expands; −1 disables expansion.
  public var buttonIndex = -1
  /// Whether a triggered expansion fills the whole cell and stays there.
  public var fillOnTrigger = false
  /// Multiple of the container width beyond which the button expands (strict). The code's 1.3, not the
  /// header's 1.5.
  public var threshold: Double = 1.3
  /// The colour behind the expanded button, as a token the renderer resolves; `nil` uses the button's own.
  public var expansionColor: String?
  /// Where the expanded button goes.
  public var layout: SwipeExpansionLayout = .border
  /// The animation after a release while expanded.
  public var triggerAnimation = SwipeAnimation()
  /// Seconds the renderer takes to switch the button between its normal and expanded layout.
  public var animationDuration: Double = 0.2

  /// The upstream defaults: expansion disabled.
  public init() {}
}
