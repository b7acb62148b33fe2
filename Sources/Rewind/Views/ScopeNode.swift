/// The observation of one store's state: the paths its readers observe, and the scopes below it.
///
/// Nodes form a tree that mirrors the scoped stores: the root store's node at the top, a child edge per
/// scope (`scope(state:action:)`), an edge per element of a collection scope. A flush walks only the
/// interesting part of the tree (paths read since their last notification) and skips a whole subtree when
/// its state is identical in the two states compared, so the work follows what views watch and what
/// changed, not the size of the state. Every `var` belongs to the root's ``ObservationCenter`` and is only
/// touched under its lock.
final class ScopeNode<State>: @unchecked Sendable {
  // @unchecked: see above; only touched under the center's lock.
  var paths: [PathKey: TypedPathObservation<State>] = [:]
  var interestingPaths: [ObjectIdentifier: TypedPathObservation<State>] = [:]
  var children: [ChildKey: ChildEdge<State>] = [:]
  var interestingChildren: [ObjectIdentifier: ChildEdge<State>] = [:]
  /// The edge from the parent node, told when this node starts or stops being interesting.
  weak var parentEdge: (any InterestSink)?

  /// Whether some path at or below this node was read since it was last notified.
  var isInteresting: Bool { !interestingPaths.isEmpty || !interestingChildren.isEmpty }

  /// The path for `key`, made by `make` on first use.
  func path(for key: PathKey, make: (ScopeNode<State>) -> TypedPathObservation<State>)
    -> TypedPathObservation<State>
  {
    if let path = paths[key] { return path }
    let path = make(self)
    paths[key] = path
    return path
  }

  /// Marks `path` as read: flushes compare it until it is notified.
  func markInteresting(_ path: TypedPathObservation<State>) {
    guard !path.isInteresting else { return }
    let wasInteresting = isInteresting
    path.isInteresting = true
    interestingPaths[ObjectIdentifier(path)] = path
    if !wasInteresting { parentEdge?.childInterestChanged(true) }
  }

  /// Ends `path`'s interest (it was notified).
  func clearInterest(in path: TypedPathObservation<State>) {
    guard path.isInteresting else { return }
    path.isInteresting = false
    interestingPaths[ObjectIdentifier(path)] = nil
    if !isInteresting { parentEdge?.childInterestChanged(false) }
  }

  /// Records that the node below `edge` started or stopped being interesting.
  func childInterestChanged(_ edge: ChildEdge<State>, interesting: Bool) {
    let wasInteresting = isInteresting
    interestingChildren[ObjectIdentifier(edge)] = interesting ? edge : nil
    if wasInteresting != isInteresting { parentEdge?.childInterestChanged(isInteresting) }
  }

  /// Removes `edge` (its store is gone), unless another edge has replaced it.
  func remove(_ edge: ChildEdge<State>) {
    guard let key = edge.key, children[key] === edge else { return }
    children[key] = nil
    edge.isDetached = true
    if interestingChildren[ObjectIdentifier(edge)] != nil { childInterestChanged(edge, interesting: false) }
  }

  /// Adds to `notify` every interesting path at or below this node whose value differs from `old` to `new`.
  /// - Complexity: O(interesting paths and edges visited); a subtree whose state is identical in both is
  ///   skipped whole.
  func collectChanges(from old: State, to new: State, into notify: inout [PathObservation]) {
    for path in interestingPaths.values where !path.isQueued && path.changed(old, new) {
      path.isQueued = true
      notify.append(path)
    }
    for edge in interestingChildren.values { edge.collectChanges(from: old, to: new, into: &notify) }
  }
}

/// Told when the node below it starts or stops being interesting.
protocol InterestSink: AnyObject {
  func childInterestChanged(_ interesting: Bool)
}

/// Which child scope an edge leads to: a key path with its kind and child action type, or a collection
/// element's id.
enum ChildKey: Hashable {
  case scope(AnyKeyPath, kind: ScopeKind, action: ObjectIdentifier)
  case element(AnyHashable)

  enum ScopeKind: Hashable { case plain, optional, collection }
}

/// The edge from a node to a child scope's node. Generic over the parent's state only, so that a node can
/// hold edges to children of any type; ``TypedChildEdge`` does the work.
class ChildEdge<Parent>: InterestSink, @unchecked Sendable {
  // @unchecked: only touched under the center's lock.
  unowned let parent: ScopeNode<Parent>
  /// Where the parent holds this edge; `nil` until it is added.
  var key: ChildKey?
  /// Set once the parent no longer holds this edge: reads of its store (held by a view on its way out) no
  /// longer make flushes visit it.
  var isDetached = false

  init(parent: ScopeNode<Parent>) { self.parent = parent }

  func childInterestChanged(_ interesting: Bool) {
    guard !isDetached else { return }
    parent.childInterestChanged(self, interesting: interesting)
  }

  /// Adds the changed interesting paths below this edge; overridden.
  func collectChanges(from old: Parent, to new: Parent, into notify: inout [PathObservation]) {}

  /// Whether the node below is interesting; overridden.
  var isChildInteresting: Bool { false }

  /// Checks the node below (see ``ScopeNode/_checkInvariants()``); overridden.
  func _checkSubtree() {}
}

/// The edge to a child scope whose state is taken from the parent's by `extract`.
final class TypedChildEdge<Parent, Child>: ChildEdge<Parent>, @unchecked Sendable {
  /// The child's state in the parent's; `nil` when it is gone (an optional child, a removed element).
  let extract: (Parent) -> Child?
  let node = ScopeNode<Child>()
  /// The child's state when last seen present: what the child store shows once its state is gone, so that
  /// a view on its way out still has something to draw.
  var lastKnown: Child
  /// The child store, while one exists: scoping the same path again returns it.
  weak var store: AnyObject?

  init(parent: ScopeNode<Parent>, extract: @escaping (Parent) -> Child?, current: Child) {
    self.extract = extract
    self.lastKnown = current
    super.init(parent: parent)
    node.parentEdge = self
  }

  /// Set once the child was found gone by a scoping call: the store keeps its last state from then on.
  private(set) var isRetired = false

  /// Freezes the child's state at the last one seen.
  func retire() { isRetired = true }

  /// The child's state in `parent`, or the last one seen once it is gone; remembers a present one.
  func resolve(_ parent: Parent) -> Child {
    guard !isRetired, let child = extract(parent) else { return lastKnown }
    lastKnown = child
    return child
  }

  /// The child's state in `parent`, or the last one seen, without remembering anything.
  func peek(_ parent: Parent) -> Child { isRetired ? lastKnown : extract(parent) ?? lastKnown }

  override var isChildInteresting: Bool { node.isInteresting }

  override func _checkSubtree() {
    #if REWIND_CHECK_INVARIANTS
      precondition(node.parentEdge === self, "observation: a node that does not name its edge")
      node._checkInvariants()
    #endif
  }

  override func collectChanges(from old: Parent, to new: Parent, into notify: inout [PathObservation]) {
    let oldChild = extract(old) ?? lastKnown
    guard let newChild = extract(new) else {
      // Gone: its store keeps showing the last state seen, so its readers are told of what changed up to it.
      node.collectChanges(from: oldChild, to: lastKnown, into: &notify)
      return
    }
    lastKnown = newChild
    if ValueIdentity.isIdentical(oldChild, newChild) { return }
    node.collectChanges(from: oldChild, to: newChild, into: &notify)
  }
}
