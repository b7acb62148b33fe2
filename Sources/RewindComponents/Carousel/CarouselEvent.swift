/// What upstream reports to its delegate, in upstream order, plus the changes of the loaded item set.
public enum CarouselEvent: Equatable, Sendable, Codable, Hashable {
  /// A programmatic scroll animation started.
  case willBeginScrollingAnimation
  /// A programmatic scroll animation ended, or was cut short (see Docs/Carousel.md, deviations).
  case didEndScrollingAnimation
  /// The scroll offset changed by more than 1e‑6.
  case didScroll
  /// The current item index changed to the given value (−1 when there are no items).
  case currentItemIndexDidChange(Int)
  /// A drag started.
  case willBeginDragging
  /// A drag ended; `willDecelerate` says whether a fling follows.
  case didEndDragging(willDecelerate: Bool)
  /// A fling started.
  case willBeginDecelerating
  /// A fling ended, or was cut short.
  case didEndDecelerating
  /// The item was selected by a tap.
  case didSelectItem(Int)
  /// The index entered the loaded set: show a view for it, reusing a pooled one when `reused` is true.
  case loadItem(index: Int, placeholder: Int?, reused: Bool)
  /// The index left the loaded set; its view went back to its pool (or was discarded on reload).
  case unloadItem(index: Int)
  /// An item was inserted at the index; loaded indices at or after it moved up by one.
  case itemInserted(index: Int)
  /// The item at the index was removed with its view; loaded indices after it moved down by one.
  case itemRemoved(index: Int)
}
