/// The observation of one store's state: the paths its readers observe, and the scopes below it.
///
/// Nodes form a tree that mirrors the scoped stores: the root store's node at the top, a child edge per
/// scope (`scope(state:action:)`), an edge per element of a collection scope. A flush walks only the
/// interesting part of the tree (paths read since their last notification) and skips a whole subtree when
/// its state is identical in the two states compared, so the work follows what views watch and what
/// changed, not the size of the state. Every `var` belongs to the root's ``ObservationCenter`` and is only
/// touched under its lock.
///
/// Not generic: its dictionaries have concrete types, which keeps run-time generic metadata lookups off
/// every read (they were most of a read's cost). The state's type appears only in the flush's
/// ``collectChanges(from:to:into:)``.
@usableFromInline
final class ScopeNode: @unchecked Sendable {
  // @unchecked: see above; only touched under the center's lock.
  var paths: [PathKey: PathObservation] = [:]
  /// Paths by the identity of the key path object last read through them: a literal key path is one
  /// object, so this spares hashing the key path on every read. Bounded (see ``path(for:alias:make:)``).
  var pathsByKeyPathObject: [ObjectIdentifier: (keyPath: AnyKeyPath, path: PathObservation)] = [:]
  var interestingPaths: [ObjectIdentifier: PathObservation] = [:]
  var children: [ChildKey: ChildEdgeBase] = [:]
  var interestingChildren: [ObjectIdentifier: ChildEdgeBase] = [:]
  /// The edge from the parent node, told when this node starts or stops being interesting.
  weak var parentEdge: ChildEdgeBase?

  @usableFromInline
  init() {}

  /// Whether some path at or below this node was read since it was last notified.
  var isInteresting: Bool { !interestingPaths.isEmpty || !interestingChildren.isEmpty }

  /// How many key path objects ``pathsByKeyPathObject`` remembers: key paths made at run time (with a
  /// subscript argument) are new objects at every read, so the cache is emptied when it grows past this.
  static var keyPathObjectLimit: Int { 64 }

  /// The path for `key`, made by `make` on first use; `alias`, the key path read through, finds it fast.
  func path(for key: PathKey, alias: AnyKeyPath?, make: (ScopeNode) -> PathObservation) -> PathObservation {
    if let alias, let cached = pathsByKeyPathObject[ObjectIdentifier(alias)] { return cached.path }
    let path: PathObservation
    if let existing = paths[key] {
      path = existing
    } else {
      path = make(self)
      paths[key] = path
    }
    if let alias {
      if pathsByKeyPathObject.count >= Self.keyPathObjectLimit { pathsByKeyPathObject.removeAll() }
      // The key path is kept with its entry, so its object (and identifier) stays alive while listed.
      pathsByKeyPathObject[ObjectIdentifier(alias)] = (alias, path)
    }
    return path
  }

  /// Marks `path` as read: flushes compare it until it is notified.
  func markInteresting(_ path: PathObservation) {
    guard !path.isInteresting else { return }
    let wasInteresting = isInteresting
    path.isInteresting = true
    interestingPaths[ObjectIdentifier(path)] = path
    if !wasInteresting { parentEdge?.childInterestChanged(true) }
  }

  /// Ends `path`'s interest (it was notified).
  func clearInterest(in path: PathObservation) {
    guard path.isInteresting else { return }
    path.isInteresting = false
    interestingPaths[ObjectIdentifier(path)] = nil
    if !isInteresting { parentEdge?.childInterestChanged(false) }
  }

  /// Records that the node below `edge` started or stopped being interesting.
  func childInterestChanged(_ edge: ChildEdgeBase, interesting: Bool) {
    let wasInteresting = isInteresting
    interestingChildren[ObjectIdentifier(edge)] = interesting ? edge : nil
    if wasInteresting != isInteresting { parentEdge?.childInterestChanged(isInteresting) }
  }

  /// Removes `edge` (its store is gone), unless another edge has replaced it.
  func remove(_ edge: ChildEdgeBase) {
    guard let key = edge.key, children[key] === edge else { return }
    children[key] = nil
    edge.isDetached = true
    if interestingChildren[ObjectIdentifier(edge)] != nil { childInterestChanged(edge, interesting: false) }
  }

  /// Adds to `notify` every interesting path at or below this node whose value differs from `old` to `new`.
  /// - Complexity: O(interesting paths and edges visited); a subtree whose state is identical in both is
  ///   skipped whole.
  func collectChanges<State>(from old: State, to new: State, into notify: inout [PathObservation]) {
    for path in interestingPaths.values where !path.isQueued {
      // Every path of a node reads that node's state: made so by the store that owns the node.
      guard unsafe unsafeDowncast(path, to: TypedPathObservation<State>.self).changed(old, new) else {
        continue
      }
      path.isQueued = true
      notify.append(path)
    }
    for edge in interestingChildren.values {
      unsafe unsafeDowncast(edge, to: ChildEdge<State>.self).collectChanges(from: old, to: new, into: &notify)
    }
  }
}

/// Which child scope an edge leads to: a key path with its kind and child action type, or a collection
/// element's id.
@usableFromInline
enum ChildKey: Hashable {
  case scope(AnyKeyPath, kind: ScopeKind, action: ObjectIdentifier)
  case element(AnyHashable)

  @usableFromInline
  enum ScopeKind: Hashable { case plain, optional, collection }
}

/// The edge from a node to a child scope's node; the parts that do not depend on the states' types.
class ChildEdgeBase: @unchecked Sendable {
  // @unchecked: only touched under the center's lock.
  unowned let parent: ScopeNode
  let node = ScopeNode()
  /// Where the parent holds this edge; `nil` until it is added.
  var key: ChildKey?
  /// Set once the parent no longer holds this edge: reads of its store (held by a view on its way out) no
  /// longer make flushes visit it.
  var isDetached = false

  init(parent: ScopeNode) {
    self.parent = parent
  }

  /// Tells the parent that the node below started or stopped being interesting.
  func childInterestChanged(_ interesting: Bool) {
    guard !isDetached else { return }
    parent.childInterestChanged(self, interesting: interesting)
  }
}

/// An edge whose parent's state is `Parent`: what a parent node's flush calls.
class ChildEdge<Parent>: ChildEdgeBase, @unchecked Sendable {
  /// Adds the changed interesting paths below this edge; overridden.
  func collectChanges(from old: Parent, to new: Parent, into notify: inout [PathObservation]) {}
}

/// The edge to a child scope that is always present in its parent's state (a plain or a collection scope).
final class PresentChildEdge<Parent, Child>: ChildEdge<Parent>, @unchecked Sendable {
  /// The child's state in the parent's.
  let get: (Parent) -> Child
  /// How to find what changed below this edge when the child's state changed, if not by comparing every
  /// interesting path below: a collection scope finds its changed elements in one pass.
  let childChanges: ChildChanges<Child>?
  /// The child store, while one exists: scoping the same path again returns it.
  weak var store: AnyObject?

  init(parent: ScopeNode, get: @escaping (Parent) -> Child, childChanges: ChildChanges<Child>?) {
    self.get = get
    self.childChanges = childChanges
    super.init(parent: parent)
    node.parentEdge = self
  }

  override func collectChanges(from old: Parent, to new: Parent, into notify: inout [PathObservation]) {
    let (oldChild, newChild) = (get(old), get(new))
    if ValueIdentity.isIdentical(oldChild, newChild) { return }
    if let childChanges {
      childChanges(oldChild, newChild, node, &notify)
    } else {
      node.collectChanges(from: oldChild, to: newChild, into: &notify)
    }
  }
}

/// The edge to a child scope that may be absent from its parent's state: an optional child, or an
/// element of a collection (which may be removed).
///
/// Once the child is gone, its store (held by a view on its way out) shows the child's last state seen by
/// a flush: kept here, and refreshed by flushes only. Refreshing it on every read, as a first version did,
/// kept a reference into the live state, so the sender's next mutation copied what it changed.
final class OptionalChildEdge<Parent, Child>: ChildEdge<Parent>, @unchecked Sendable {
  /// The child's state in the parent's; `nil` when it is gone.
  let extract: (Parent) -> Child?
  /// The child's state when last seen present by a flush (or when its store was made).
  var lastKnown: Child
  /// The child store, while one exists: scoping the same path again returns it.
  weak var store: AnyObject?
  /// Set once the child was found gone by a scoping call: the store keeps its last state from then on.
  private(set) var isRetired = false

  init(parent: ScopeNode, extract: @escaping (Parent) -> Child?, current: Child) {
    self.extract = extract
    self.lastKnown = current
    super.init(parent: parent)
    node.parentEdge = self
  }

  /// Freezes the child's state at the last one seen.
  func retire() { isRetired = true }

  /// The child's state in `parent`, or the last one seen once it is gone.
  func resolve(_ parent: Parent) -> Child { isRetired ? lastKnown : extract(parent) ?? lastKnown }

  override func collectChanges(from old: Parent, to new: Parent, into notify: inout [PathObservation]) {
    let oldChild = isRetired ? lastKnown : extract(old) ?? lastKnown
    guard !isRetired, let newChild = extract(new) else {
      // Gone: its store shows the last state seen, so its readers are told of what changed up to it.
      node.collectChanges(from: oldChild, to: lastKnown, into: &notify)
      return
    }
    collectChanges(child: oldChild, to: newChild, into: &notify)
  }

  /// Adds the changed interesting paths below this edge, given the child's two states.
  func collectChanges(child oldChild: Child, to newChild: Child, into notify: inout [PathObservation]) {
    lastKnown = newChild
    if ValueIdentity.isIdentical(oldChild, newChild) { return }
    node.collectChanges(from: oldChild, to: newChild, into: &notify)
  }
}

/// Finds the changed interesting paths below a node whose state went from the first value to the second.
@usableFromInline
typealias ChildChanges<Child> = (Child, Child, ScopeNode, inout [PathObservation]) -> Void
