// Internal invariants, checked in debug builds after every action.
extension CarouselState {
  /// Asserts what every action must leave true; a failure is a bug in the carousel, not bad input.
  func _checkInvariants() {
    #if DEBUG
      let count = numberOfItems
      let current = currentItemIndex
      assert(
        count == 0 ? current == -1 : (0..<count).contains(current), "current index \(current) of \(count)")
      assert(zip(loadedIndices, loadedIndices.dropFirst()).allSatisfy { $0 < $1 }, "loaded \(loadedIndices)")
      assert(
        !hasLoadedWindow || loadedIndices == visibleWindow,
        "loaded \(loadedIndices) is not the window \(visibleWindow)")
      assert(scrollOffset.isFinite, "offset \(scrollOffset)")
      assert(
        !isWrapping || count == 0 || (scrollOffset >= 0 && scrollOffset < Double(count)),
        "wrapped \(scrollOffset)")
      assert(itemPoolSize >= 0 && placeholderPoolSize >= 0, "pools \(itemPoolSize) \(placeholderPoolSize)")
    #endif
  }
}
