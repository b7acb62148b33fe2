/// Everything that can happen to a carousel: host input, programmatic calls and time.
///
/// `Codable`, like every component action, so a carousel's actions can be recorded in a file journal.
public enum CarouselAction: Equatable, Sendable, Codable {
  /// Replaces the data: `count` items and `placeholders` placeholder slots, each clamped into `0...2⁴⁰`.
  case reload(count: Int, placeholders: Int = 0)
  /// Inserts an item at `index` (clamped, or wrapped, into the new range); ignored at 2⁴⁰ items.
  case insert(at: Int)
  /// Removes the item at `index` (clamped, or wrapped, into range); ignored when there are no items.
  case remove(at: Int)
  /// Asks for a fresh view for a loaded index, offering its old view for reuse; ignored when not loaded.
  case reloadItem(Int)
  /// Sets the layout type and lays out again.
  case setType(CarouselType)
  /// Sets the option overrides and lays out again.
  case setOptions(CarouselOptions)
  /// Sets the behaviour switches and constants; lays out again when the axis or content offset changed.
  case setProperties(CarouselProperties)
  /// Sets the view size and lays out again; a negative or non-finite size is ignored.
  case setBounds(CarouselSize)
  /// Sets the item width along the scroll axis and lays out again; ≤ 0 or non-finite is ignored.
  case setItemWidth(Double)
  /// Sets the autoscroll speed in items per second (positive decreases the offset, as upstream).
  case setAutoscroll(Double)
  /// Runs a layout pass, as a host's layout would (settles on the current item).
  case layout
  /// Sets the scroll offset directly, stopping any animation; non-finite values are ignored.
  case setScrollOffset(Double)
  /// Sets the scroll offset to `index`, not pre-clamped (upstream's `currentItemIndex` setter).
  case setCurrentItemIndex(Int)
  /// Scrolls to an item along the shortest path, in 0.4 s when animated.
  case scrollToItem(Int, animated: Bool)
  /// Scrolls by whole items from the current one, in 0.4 s when animated.
  case scrollByItems(Int, animated: Bool)
  /// Scrolls to an offset along the shortest path, in 0.4 s when animated.
  case scrollToOffset(Double, animated: Bool)
  /// A finger touched the carousel: any scroll animation or fling stops (ignored while dragging).
  case touchDown
  /// A drag passed the touch slop; `perpendicularTranslation` is the translation across the scroll axis.
  case dragBegan(translation: Double, perpendicularTranslation: Double = 0)
  /// The finger moved: translation and velocity along the scroll axis, in points and points per second.
  case dragChanged(translation: Double, velocity: Double)
  /// The finger lifted (or the drag was cancelled): a last move, then release.
  case dragEnded(translation: Double, velocity: Double)
  /// A tap on the item at the index, or on no item (`nil`), as found by the host's hit test.
  case tapItem(Int?)
  /// A tap at a point in the carousel's coordinates, hit-tested against ``CarouselReducer/layout(of:)``.
  case tapAt(CarouselVector)
  /// The display clock: advances animations, flings, autoscroll and the Cover Flow 2 toggle.
  case tick(now: Double)
}
