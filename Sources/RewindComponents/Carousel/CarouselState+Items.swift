// Reload, insert and remove (spec 2.8, 2.13).
extension CarouselState {
  /// Replaces the data and lays out again; moves a negative offset onto item 0 first.
  mutating func reload(count: Int, placeholders: Int) {
    discardAllViews()
    numberOfItems = Self.validCount(count)
    numberOfPlaceholders = Self.validCount(placeholders)
    if numberOfItems > 0, scrollOffset < 0 {
      scroll(toItem: 0, duration: numberOfPlaceholders > 0 ? CarouselConstants.scrollDuration : 0)
    }
    layOut()
  }

  /// Inserts an item; the offset is kept, so inserting at or before the current item centres the new one.
  mutating func insert(at index: Int) {
    numberOfItems += 1
    let index = clampedIndex(index)
    loadedIndices = loadedIndices.map { $0 >= index ? $0 + 1 : $0 }
    emit(.itemInserted(index: index))
    didScroll()
    if scrollOffset < 0 { scroll(toItem: 0, duration: 0) }
  }

  /// Removes an item and keeps the same index centred, evaluated with the new count.
  ///
  /// - Returns: false when there was no item to remove.
  mutating func remove(at index: Int) -> Bool {
    guard numberOfItems > 0 else { return false }
    let index = clampedIndex(index)
    if let position = loadedIndices.firstIndex(of: index) { loadedIndices.remove(at: position) }
    loadedIndices = loadedIndices.map { $0 > index ? $0 - 1 : $0 }
    emit(.itemRemoved(index: index))
    numberOfItems -= 1
    scrollOffset = Double(currentItemIndex)
    didScroll()
    return true
  }
}
