/// Everything that can happen to a carousel: host input, programmatic calls, and the end of a motion.
///
/// Every action but ``animationFinished(id:)`` carries `at`, the display time in seconds at which it
/// happened (the time base the view samples geometry in, such as `CACurrentMediaTime()` or a
/// `TimelineView` date). The reducer first brings the carousel to that time (a running scroll or fling
/// moves on, or ends, exactly as frames sampled at that time would show), then applies the action. Time
/// never moves backwards: an action stamped before the latest one takes effect at the latest one's time,
/// and a non-finite time counts as the latest one's.
///
/// Display frames are not actions: a view samples ``CarouselState/layout(at:custom:)`` at each frame and
/// sends nothing. `Codable`, like every component action, so a carousel's actions can be recorded in a
/// file journal.
public enum CarouselAction: Equatable, Sendable, Codable {
  /// Replaces the data: `count` items and `placeholders` placeholder slots, each clamped into `0...2⁴⁰`.
  case reload(count: Int, placeholders: Int = 0, at: Double)
  /// Inserts an item at the index (clamped, or wrapped, into the new range); ignored at 2⁴⁰ items.
  case insertItem(Int, at: Double)
  /// Removes the item at the index (clamped, or wrapped, into range); ignored when there are no items.
  case removeItem(Int, at: Double)
  /// Asks for a fresh view for a loaded index, offering its old view for reuse; ignored when not loaded.
  case reloadItem(Int, at: Double)
  /// Sets the layout type and lays out again.
  case setType(CarouselType, at: Double)
  /// Sets the option overrides and lays out again.
  case setOptions(CarouselOptions, at: Double)
  /// Sets the behaviour switches and constants; lays out again when the axis or content offset changed.
  case setProperties(CarouselProperties, at: Double)
  /// Sets the view size and lays out again; a negative or non-finite size is ignored.
  case setBounds(CarouselSize, at: Double)
  /// Sets the item width along the scroll axis and lays out again; ≤ 0 or non-finite is ignored.
  case setItemWidth(Double, at: Double)
  /// Sets the autoscroll speed in items per second (positive decreases the offset, as upstream).
  case setAutoscroll(Double, at: Double)
  /// Runs a layout pass, as a host's layout would (settles on the current item).
  case layout(at: Double)
  /// Sets the scroll offset directly, stopping any motion; non-finite values are ignored.
  case setScrollOffset(Double, at: Double)
  /// Sets the scroll offset to the index, not pre-clamped (upstream's `currentItemIndex` setter).
  case setCurrentItemIndex(Int, at: Double)
  /// Scrolls to an item along the shortest path, in 0.4 s when animated.
  case scrollToItem(Int, animated: Bool, at: Double)
  /// Scrolls by whole items from the current one, in 0.4 s when animated.
  case scrollByItems(Int, animated: Bool, at: Double)
  /// Scrolls to an offset along the shortest path, in 0.4 s when animated.
  case scrollToOffset(Double, animated: Bool, at: Double)
  /// A finger touched the carousel: a running scroll or fling stops where it is (ignored while dragging).
  case touchDown(at: Double)
  /// A drag passed the touch slop; `perpendicularTranslation` is the translation across the scroll axis.
  case dragBegan(translation: Double, perpendicularTranslation: Double = 0, at: Double)
  /// The finger moved: translation and velocity along the scroll axis, in points and points per second.
  case dragChanged(translation: Double, velocity: Double, at: Double)
  /// The finger lifted (or the drag was cancelled): a last move, then release.
  case dragEnded(translation: Double, velocity: Double, at: Double)
  /// A tap on the item at the index, or on no item (`nil`), as found by the host's hit test.
  case tapItem(Int?, at: Double)
  /// A tap at a point in the carousel's coordinates, hit-tested against the layout at that time.
  case tapAt(CarouselVector, at: Double)
  /// The scroll animation or fling `id` reached its end: its end is reported, and what follows it (the
  /// settle after a fling) begins. Sent once by the timer effect the reducer schedules, so its cause is
  /// the action that started the motion; a view that samples past the end may send it too. One for an
  /// id that is not running (a repeat, or a motion already ended or interrupted) is ignored.
  case animationFinished(id: Int)
  /// Restarts the timer of the running motion, which effects do not keep across a reopened log or a
  /// restored state: a motion over by `at` ends, one still running gets its timer again.
  case resumeAnimation(at: Double)
}

extension CarouselAction {
  /// The display time the action carries (`at`); nil for ``animationFinished(id:)``, whose time is the
  /// motion's own end.
  public var time: Double? {
    switch self {
    case .reload(_, _, let now), .insertItem(_, let now), .removeItem(_, let now), .reloadItem(_, let now),
      .setType(_, let now), .setOptions(_, let now), .setProperties(_, let now), .setBounds(_, let now),
      .setItemWidth(_, let now), .setAutoscroll(_, let now), .layout(let now), .setScrollOffset(_, let now),
      .setCurrentItemIndex(_, let now), .scrollToItem(_, _, let now), .scrollByItems(_, _, let now),
      .scrollToOffset(_, _, let now), .touchDown(let now), .dragBegan(_, _, let now),
      .dragChanged(_, _, let now), .dragEnded(_, _, let now), .tapItem(_, let now), .tapAt(_, let now),
      .resumeAnimation(let now):
      now
    case .animationFinished:
      nil
    }
  }
}
