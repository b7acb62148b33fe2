extension ScopeNode: InvariantChecking {
  /// Checks that this node's bookkeeping agrees with its paths and edges, and recurses into its children
  /// (``ChildEdgeBase/_checkSubtree()``). The observation center checks its whole tree after every change
  /// under its lock (``ObservationCenter/Machine``); O(nodes and paths below).
  @usableFromInline
  func _checkInvariants() {
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
  }
}

extension ChildEdgeBase {
  /// Checks the node below, and that it names this edge as its parent's.
  func _checkSubtree() {
    precondition(node.parentEdge === self, "observation: a node that does not name its edge")
    node._checkInvariants()
  }
}
