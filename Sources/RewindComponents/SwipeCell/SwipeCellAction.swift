/// Everything that can happen to a swipe cell: gestures, taps, programmatic commands and time.
public enum SwipeCellAction: Equatable, Sendable, Codable {
  /// A horizontal pan passed the touch slop. `location` is in cell coordinates; `onButtons` says whether it
  /// started on the buttons of an open cell. Refused pans leave the cell unchanged and make the following
  /// changed / ended actions no-ops.
  case panBegan(translation: SwipeVector, location: SwipeVector = .zero, onButtons: Bool = false)
  /// The pan moved; `translation` is cumulative since the touch went down.
  case panChanged(translation: SwipeVector)
  /// The finger lifted (or the pan was cancelled) with `velocity` in points per second.
  case panEnded(translation: SwipeVector, velocity: SwipeVector)
  /// A tap on the content of an open cell.
  case tapContent(location: SwipeVector)
  /// A tap on the button with original `index` on `side`.
  case tapButton(index: Int, side: SwipeDirection)
  /// Opens `side`'s buttons (`showSwipe`).
  case show(SwipeDirection, animated: Bool)
  /// Closes the cell (`hideSwipe`).
  case hide(animated: Bool)
  /// Plays the fill-on-trigger expansion of `side` without clicking (`expandSwipe`).
  case expand(SwipeDirection)
  /// Moves to `offset`, animated with a fresh default animation (`setSwipeOffset`).
  case setOffset(Double, animated: Bool)
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
  case cancelGesture
  /// A display frame at `now` seconds: advances the running animation.
  case tick(now: Double)
}
