// Sampling: what a display frame at a given time shows. Pure functions of the state and the time; a view
// calls them at each frame and sends nothing.

extension SwipeCellState {
  /// Whether an animation runs, so a view should keep sampling frames.
  public var isAnimating: Bool { animation != nil }

  /// The display time at which the running animation ends; `nil` at rest.
  public var animationEnd: Double? { animation?.end }

  /// The offset a display frame at `now` shows: the running animation's eased value after the bounce
  /// rule, its final offset once it is over, or ``offset`` at rest.
  ///
  /// - Parameter now: the frame's display time in seconds, in the time base of the actions' `at`.
  /// - Complexity: O(1).
  public func offset(at now: Double) -> Double {
    guard let run = animation else { return offset }
    return bounced(run.value(at: now))
  }

  /// The cell as a display frame at `now` draws it: during an animation, the offset, overlay, transition
  /// progress, expansion and target the animation reaches at `now`, applied as upstream applies each
  /// frame (the phase changes only once the animation is over, as upstream reports only its last frame);
  /// at rest, the state itself. ``events`` and ``animation`` are left as they are.
  ///
  /// Hand the result to ``SwipeGeometry`` for the frame's layout:
  /// `SwipeGeometry.buttonFrames(state.presentation(at: now), side: .rightToLeft)`.
  ///
  /// - Parameter now: the frame's display time in seconds.
  /// - Complexity: O(1): the copy shares the button arrays.
  public func presentation(at now: Double) -> SwipeCellState {
    guard let run = animation else { return self }
    var frame = self
    if run.isFinished(at: now) {
      // The last frame: reporting resumes, so the phase is the one the end will report.
      frame.animation = nil
      frame.applyOffset(run.to, emitting: false)
      frame.animation = run
    } else {
      frame.applyOffset(run.value(at: now), emitting: false)
    }
    return frame
  }

  /// Whether a frame at `now` is past the end of the running animation (it shows the final offset, and the
  /// timer effect's ``SwipeCellAction/animationFinished(id:)`` is due); `false` at rest.
  public func isAnimationFinished(at now: Double) -> Bool {
    animation?.isFinished(at: now) ?? false
  }
}
