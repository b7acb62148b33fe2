// Taps and selection (spec 2.12).
extension CarouselState {
  /// Handles a tap on `item` (nil: on no item).
  ///
  /// Placeholders cannot be selected (upstream's README contract; its code does not filter them, spec 2.12 ⚠):
  /// a tap on one counts as a tap on no item.
  mutating func tap(item: Int?, shouldSelect: (Int) -> Bool) {
    let animated = CarouselConstants.scrollDuration
    guard let index = item, index >= 0, index < numberOfItems else {
      scroll(toItem: currentItemIndex, duration: animated)
      return
    }
    let current = currentItemIndex
    if shouldSelect(index) {
      if (index != current && properties.centerItemWhenSelected)
        || (index == current && properties.scrollToItemBoundary)
      {
        scroll(toItem: index, duration: animated)
      }
      emit(.didSelectItem(index))
    } else if properties.isScrollEnabled, properties.scrollToItemBoundary, autoscroll != 0 {
      scroll(toItem: current, duration: animated)
    }
  }

  /// The frontmost visible item whose square of side `itemWidth`, scaled by perspective, holds `point`.
  ///
  /// The host knows the real view sizes; this approximation serves hosts that only have the layout.
  public func hitTest(_ point: CarouselVector, custom: CarouselCustomTransform? = nil) -> Int? {
    let items = layout(custom: custom).sorted { $0.zOrder > $1.zOrder }
    for item in items where !item.isHidden && item.alpha > 0 {
      guard let position = item.position else { continue }
      let scale = item.transform.m44
      guard scale > 0 else { continue }
      let half = itemWidth / 2 / scale
      if abs(point.x - position.x) <= half, abs(point.y - position.y) <= half { return item.index }
    }
    return nil
  }
}
