import Rewind

extension SwipeCellState: InvariantChecking {
  /// Traps when an action left the cell inconsistent: a failure is a bug in the swipe cell, not bad input.
  /// The reducer checks after every action (``InvariantChecking/checkInvariantsIfEnabled()``).
  @usableFromInline
  package func _checkInvariants() {
    precondition(offset.isFinite, "swipe offset \(offset)")
    if let animation {
      // The running animation is the latest one started, so its timer's finish is the only one honoured.
      precondition(animation.id == animationCount, "animation \(animation.id) of \(animationCount) started")
      precondition(
        animation.start.isFinite && animation.from.isFinite && animation.to.isFinite,
        "animation \(animation)")
    }
    precondition(activeExpansion == nil || isOverlayShown || animation != nil, "expansion without overlay")
  }
}
