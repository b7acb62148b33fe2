/// Everything that can happen to a swipe cell: gestures, taps, programmatic commands, and the end of an
/// animation.
///
/// Actions that can start or interrupt an animation carry `at`, the display time in seconds when they
/// happened (the time base a view samples geometry in, such as `CACurrentMediaTime()` or a
/// `TimelineView` date). Display frames are not actions: a view samples ``SwipeCellState/offset(at:)``
/// or ``SwipeCellState/presentation(at:)`` at each frame and sends nothing.
public enum SwipeCellAction: Equatable, Sendable, Codable {
  /// A horizontal pan passed the touch slop. `location` is in cell coordinates; `onButtons` says whether it
  /// started on the buttons of an open cell. Refused pans leave the cell unchanged and make the following
  /// changed / ended actions no-ops. An accepted pan catches a running animation where it is at `at`.
  case panBegan(translation: SwipeVector, location: SwipeVector = .zero, onButtons: Bool = false, at: Double)
  /// The pan moved; `translation` is cumulative since the touch went down.
  case panChanged(translation: SwipeVector, at: Double)
  /// The finger lifted (or the pan was cancelled) with `velocity` in points per second.
  case panEnded(translation: SwipeVector, velocity: SwipeVector, at: Double)
  /// A tap on the content of an open cell.
  case tapContent(location: SwipeVector, at: Double)
  /// A tap on the button with original `index` on `side`.
  case tapButton(index: Int, side: SwipeDirection, at: Double)
  /// Opens `side`'s buttons (`showSwipe`).
  case show(SwipeDirection, animated: Bool, at: Double)
  /// Closes the cell (`hideSwipe`).
  case hide(animated: Bool, at: Double)
  /// Plays the fill-on-trigger expansion of `side` without clicking (`expandSwipe`).
  case expand(SwipeDirection, at: Double)
  /// Moves to `offset`, animated with a fresh default animation (`setSwipeOffset`).
  case setOffset(Double, animated: Bool, at: Double)
  /// Enters or leaves table editing mode; entering snaps the cell closed.
  case setEditing(Bool)
  /// Replaces the buttons; the cell closes first (the renderer rebuilds the containers).
  case setButtons(left: [SwipeButton], right: [SwipeButton])
  /// Sets the cell width W.
  case setCellWidth(Double)
  /// Sets the safe-area insets (negative or non-finite count as 0). An open cell keeps its buttons fully
  /// shown: the offset moves by the change on its side.
  case setSafeAreaInsets(left: Double, right: Double)
  /// The renderer should re-take its content snapshot (`refreshContentView`).
  case refreshContent
  /// The cell is about to be reused. `resetsConfiguration` when the buttons come from a delegate: buttons
  /// and all four settings objects return to defaults.
  case prepareForReuse(resetsConfiguration: Bool)
  /// Cancels a pan in progress and hides the cell (another cell's pan began).
  case cancelGesture(at: Double)
  /// The animation ``SwipeAnimationRun/id`` reached its end: its final offset applies and its completion
  /// runs (a click, the end of an expansion). Sent by the timer effect the reducer schedules, so its
  /// cause is the action that started the animation; one for another id (a repeat, or an animation
  /// already interrupted) is ignored.
  case animationFinished(id: Int)
  /// Restarts the timer of an animation that has none: after the state was restored from a log or by time
  /// travel (effects are never replayed). An animation already over at `at` ends now.
  case resumeAnimation(at: Double)
}

extension SwipeCellAction {
  /// The display time the action carries, if any (`at`).
  public var time: Double? {
    switch self {
    case .panBegan(_, _, _, let now), .panChanged(_, let now), .panEnded(_, _, let now),
      .tapContent(_, let now), .tapButton(_, _, let now),
      .show(_, _, let now), .hide(_, let now), .expand(_, let now), .setOffset(_, _, let now),
      .cancelGesture(let now), .resumeAnimation(let now):
      now
    case .setEditing, .setButtons, .setCellWidth, .setSafeAreaInsets, .refreshContent, .prepareForReuse,
      .animationFinished:
      nil
    }
  }
}
