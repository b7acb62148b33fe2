extension ScopeNode {
  /// Checks that this node's bookkeeping agrees with its paths and edges, and recurses into its children.
  /// Runs only in builds with `REWIND_CHECK_INVARIANTS`; O(nodes and paths below).
  func _checkInvariants() {
    #if REWIND_CHECK_INVARIANTS
      for path in paths.values {
        precondition(path.owner === self, "observation: a path held by a node it does not name as owner")
        precondition(!path.isQueued, "observation: a path left queued after a flush")
        precondition(
          path.isInteresting == (interestingPaths[ObjectIdentifier(path)] != nil),
          "observation: a path's interest and its node's list disagree")
      }
      for path in interestingPaths.values {
        precondition(
          paths.values.contains { $0 === path }, "observation: an interesting path the node does not hold")
      }
      for (object, entry) in pathsByKeyPathObject {
        precondition(
          ObjectIdentifier(entry.keyPath) == object, "observation: a key path cached under another's identity"
        )
        precondition(
          paths.values.contains { $0 === entry.path }, "observation: a cached path the node does not hold")
      }
      for edge in interestingChildren.values {
        precondition(
          edge.key.map { children[$0] === edge } ?? false,
          "observation: an interesting edge the node does not hold")
      }
      for edge in children.values {
        precondition(!edge.isDetached, "observation: a detached edge still held")
        precondition(edge.parent === self, "observation: an edge held by a node it does not name as parent")
        precondition(
          edge.node.isInteresting == (interestingChildren[ObjectIdentifier(edge)] != nil),
          "observation: a child's interest and its parent's list disagree")
        edge._checkSubtree()
      }
    #endif
  }
}

extension ObservationCenter.Machine {
  /// Checks the tree and the read-ahead bookkeeping. Runs only with `REWIND_CHECK_INVARIANTS`.
  func _checkInvariants() {
    #if REWIND_CHECK_INVARIANTS
      root._checkInvariants()
      if baseline == nil { precondition(forced.isEmpty, "observation: paths forced with no baseline") }
    #endif
  }
}
