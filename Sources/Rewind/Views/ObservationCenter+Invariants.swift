extension ObservationCenter.Machine: InvariantChecking {
  /// Checks the node tree (``ScopeNode/_checkInvariants()``) and the read-ahead bookkeeping: no path is
  /// forced into the next flush while there is no baseline to compare with. O(nodes and paths).
  @usableFromInline
  func _checkInvariants() {
    root._checkInvariants()
    if baseline == nil { precondition(forced.isEmpty, "observation: paths forced with no baseline") }
  }
}
