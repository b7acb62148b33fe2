import Rewind

extension CarouselState: InvariantChecking {
  /// Traps when an action left the state inconsistent: a failure is a bug in the carousel, not bad input.
  /// The reducer checks after every action (``InvariantChecking/checkInvariantsIfEnabled()``).
  /// - Complexity: O(v) for v loaded items.
  @usableFromInline
  package func _checkInvariants() {
    let count = numberOfItems
    let current = currentItemIndex
    precondition(
      count == 0 ? current == -1 : (0..<count).contains(current), "current index \(current) of \(count)")
    precondition(
      zip(loadedIndices, loadedIndices.dropFirst()).allSatisfy { $0 < $1 }, "loaded \(loadedIndices)")
    precondition(
      !hasLoadedWindow || loadedIndices == visibleWindow,
      "loaded \(loadedIndices) is not the window \(visibleWindow)")
    precondition(scrollOffset.isFinite, "offset \(scrollOffset)")
    precondition(
      !isWrapping || count == 0 || (scrollOffset >= 0 && scrollOffset < Double(count)),
      "wrapped \(scrollOffset)")
    precondition(
      itemPoolSize >= 0 && placeholderPoolSize >= 0, "pools \(itemPoolSize) \(placeholderPoolSize)")
    precondition(time.isFinite && toggleTime.isFinite && toggle.isFinite, "time \(time), toggle \(toggle)")
    precondition(scrollAnimation == nil || deceleration == nil, "a scroll animation and a fling at once")
    if let animation = scrollAnimation {
      precondition(
        animation.duration > 0 && animation.duration.isFinite && animation.startTime <= time
          && animation.start.isFinite && animation.end.isFinite && animation.id >= 1
          && animation.id <= animationCount,
        "scroll animation \(animation) at \(time)")
    }
    if let fling = deceleration {
      precondition(
        fling.duration > 0 && fling.duration.isFinite && fling.startTime <= time && fling.end.isFinite
          && fling.id >= 1 && fling.id <= animationCount,
        "fling \(fling) at \(time)")
      precondition(!isDragging, "a fling while dragging")
    }
  }
}
