/// A collection an inspector reads and diffs through its storage rather than through reflection: the
/// persistent collections, whose versions share subtrees, so that the change one event made to a list of a
/// million rows is found in O(log n) and a page of its elements is read without walking the rest.
package protocol InspectableCollection {
  /// The number of elements.
  var inspectionCount: Int { get }

  /// The elements at `positions`, each with its key (an id, or its position).
  func inspectionElements(in positions: Range<Int>) -> [(key: InspectionKey, value: Any)]

  /// The element with `key`, if there is one.
  func inspectionElement(_ key: InspectionKey) -> Any?

  /// The changes that turn `old` (a version of the same type) into this collection, element by element;
  /// `nil` when `old` is of another type. At most `limit` changes are listed.
  func inspectionChanges(from old: Any, limit: Int) -> InspectionCollectionChanges?
}

/// How an inspector addresses an element of a collection.
package enum InspectionKey: Hashable, Sendable {
  /// An element by position.
  case position(Int)
  /// An element of an `IdentifiedArray`, by its id as text (`String(reflecting:)` for a string id, so that
  /// it is quoted, `String(describing:)` otherwise).
  case id(String)

  /// The key as a path component: `[3]` or `[id=3]`.
  package var pathComponent: String {
    switch self {
    case .position(let position): "[\(position)]"
    case .id(let id): "[id=\(id)]"
    }
  }
}

/// What changed between two versions of an ``InspectableCollection``.
package struct InspectionCollectionChanges {
  /// One element's change: `old` and `new` are both present for an element whose value changed.
  package struct Change {
    package var key: InspectionKey
    package var old: Any?
    package var new: Any?
  }

  /// The changed, inserted and removed elements, at most the limit asked for.
  package var changes: [Change] = []
  /// How many more changes there were past the limit.
  package var omitted = 0
  /// Whether elements both versions hold are in another order.
  package var reordered = false

  mutating func add(_ change: Change, limit: Int) {
    if changes.count < limit { changes.append(change) } else { omitted += 1 }
  }
}

/// The text an inspector uses for an id.
func inspectionIDText(_ id: some Hashable) -> String {
  if let text = id as? String { return String(reflecting: text) }
  return String(describing: id)
}

/// Whether `a` and `b` are the same value: identical bits (shared storage), or equal by a run-time
/// `Equatable` conformance. A value that cannot be compared counts as changed.
package func inspectionUnchanged(_ a: Any, _ b: Any) -> Bool {
  func compare<T>(_ a: T) -> Bool {
    guard let b = b as? T else { return false }
    return !ValueIdentity.changed(a, b, equal: nil)
  }
  return _openExistential(a, do: compare)
}

extension PersistentTree {
  /// When this tree and `old` have the same shape wherever they do not share a node (the common case of
  /// values changed in place), calls `visit` with the position and both values of every slot in the leaves
  /// that are not shared, and returns true; returns false, having called nothing, when the shapes differ.
  ///
  /// - Complexity: O(changed paths · fanout), with no walk over the shared parts: what an inspector pays per
  ///   event for a one-row edit, whatever the number of rows.
  func sameShapeSlots(from old: PersistentTree, _ visit: (Int, Value, Value) -> Void) -> Bool {
    var pairs: [(position: Int, old: TreeNode<Value>, new: TreeNode<Value>)] = []
    func walk(_ before: TreeNode<Value>, _ after: TreeNode<Value>, at position: Int) -> Bool {
      if before === after { return true }
      guard before.isLeaf == after.isLeaf, before.width == after.width else { return false }
      if after.isLeaf {
        pairs.append((position, before, after))
        return true
      }
      // The buffers live as long as their nodes, which `before` and `after` hold for this scope.
      let beforeChildren = unsafe before.children
      let afterChildren = unsafe after.children
      for index in 0..<after.width {
        guard before.start(ofChild: index) == after.start(ofChild: index),
          unsafe walk(beforeChildren[index], afterChildren[index], at: position + after.start(ofChild: index))
        else { return false }
      }
      return true
    }
    guard walk(old.root, root, at: 0) else { return false }
    for pair in pairs {
      // `pairs` holds the leaves, so their value buffers stay valid through the loop.
      let before = unsafe pair.old.values
      let after = unsafe pair.new.values
      for index in 0..<after.count { unsafe visit(pair.position + index, before[index], after[index]) }
    }
    return true
  }
}

extension IdentifiedArray: InspectableCollection {
  package var inspectionCount: Int { count }

  package func inspectionElements(in positions: Range<Int>) -> [(key: InspectionKey, value: Any)] {
    let clamped = positions.clamped(to: 0..<count)
    return tree.values(in: clamped).map { (.id(inspectionIDText($0.id)), $0 as Any) }
  }

  package func inspectionElement(_ key: InspectionKey) -> Any? {
    switch key {
    case .position(let position): position >= 0 && position < count ? self[position] : nil
    case .id(let text):
      // Ids are matched by their text: an inspector's path names them so. O(n) only when asked for by path.
      first { inspectionIDText($0.id) == text }
    }
  }

  package func inspectionChanges(from old: Any, limit: Int) -> InspectionCollectionChanges? {
    guard let old = old as? Self else { return nil }
    var result = InspectionCollectionChanges()
    if tree.isIdentical(to: old.tree) { return result }
    // Elements changed in place: the two trees have one shape, and only the leaves they do not share are
    // compared, slot by slot (a slot holding another id means the shape changed after all).
    var sameIDs = true
    let sameShape = tree.sameShapeSlots(from: old.tree) { _, before, after in
      guard sameIDs else { return }
      guard before.id == after.id else {
        sameIDs = false
        return
      }
      if ValueIdentity.changed(before, after, equal: nil) {
        result.add(.init(key: .id(inspectionIDText(after.id)), old: before, new: after), limit: limit)
      }
    }
    if sameShape && sameIDs { return result }
    result = InspectionCollectionChanges()
    let shorter = Swift.min(count, old.count)
    // The common prefix and suffix by id, stepping over shared subtrees; changed elements inside them.
    func same(_ before: Element, _ after: Element) -> Bool {
      guard before.id == after.id else { return false }
      if ValueIdentity.changed(before, after, equal: nil) {
        result.add(.init(key: .id(inspectionIDText(after.id)), old: before, new: after), limit: limit)
      }
      return true
    }
    let prefix = old.tree.sharedRun(with: tree, forward: true, limit: shorter) { a, b, _ in same(a, b) } ?? 0
    let suffix =
      old.tree.sharedRun(with: tree, forward: false, limit: shorter - prefix) { a, b, _ in same(a, b) } ?? 0
    let before = old.tree.values(in: prefix..<(old.count - suffix))
    let after = tree.values(in: prefix..<(count - suffix))
    guard !before.isEmpty || !after.isEmpty else { return result }
    var oldByID: [Element.ID: Element] = [:]
    for element in before { oldByID[element.id] = element }
    var kept: [Element.ID] = []
    for element in after {
      if let previous = oldByID.removeValue(forKey: element.id) {
        kept.append(element.id)
        if ValueIdentity.changed(previous, element, equal: nil) {
          result.add(.init(key: .id(inspectionIDText(element.id)), old: previous, new: element), limit: limit)
        }
      } else {
        result.add(.init(key: .id(inspectionIDText(element.id)), old: nil, new: element), limit: limit)
      }
    }
    for element in before where oldByID[element.id] != nil {
      result.add(.init(key: .id(inspectionIDText(element.id)), old: element, new: nil), limit: limit)
    }
    let keptInOldOrder = before.lazy.map(\.id).filter { id in oldByID[id] == nil }
    result.reordered = !keptInOldOrder.elementsEqual(kept)
    return result
  }
}

extension PersistentArray: InspectableCollection {
  package var inspectionCount: Int { count }

  package func inspectionElements(in positions: Range<Int>) -> [(key: InspectionKey, value: Any)] {
    let clamped = positions.clamped(to: 0..<count)
    return zip(clamped, tree.values(in: clamped)).map { (.position($0), $1 as Any) }
  }

  package func inspectionElement(_ key: InspectionKey) -> Any? {
    guard case .position(let position) = key, position >= 0, position < count else { return nil }
    return self[position]
  }

  package func inspectionChanges(from old: Any, limit: Int) -> InspectionCollectionChanges? {
    guard let old = old as? Self else { return nil }
    var result = InspectionCollectionChanges()
    if tree.isIdentical(to: old.tree) { return result }
    let sameShape = tree.sameShapeSlots(from: old.tree) { position, before, after in
      if ValueIdentity.changed(before, after, equal: nil) {
        result.add(.init(key: .position(position), old: before, new: after), limit: limit)
      }
    }
    if sameShape { return result }
    let shorter = Swift.min(count, old.count)
    let prefix =
      old.tree.sharedRun(with: tree, forward: true, limit: shorter) { a, b, _ in
        !ValueIdentity.changed(a, b, equal: nil)
      } ?? 0
    let suffix =
      old.tree.sharedRun(with: tree, forward: false, limit: shorter - prefix) { a, b, _ in
        !ValueIdentity.changed(a, b, equal: nil)
      } ?? 0
    let before = old.tree.values(in: prefix..<(old.count - suffix))
    let after = tree.values(in: prefix..<(count - suffix))
    // Position by position in the middle; what one version has past the other's end is inserted or removed.
    for offset in 0..<Swift.max(before.count, after.count) {
      let key = InspectionKey.position(prefix + offset)
      switch (offset < before.count ? before[offset] : nil, offset < after.count ? after[offset] : nil) {
      case (let a?, let b?):
        if ValueIdentity.changed(a, b, equal: nil) {
          result.add(.init(key: key, old: a, new: b), limit: limit)
        }
      case (let a?, nil): result.add(.init(key: key, old: a, new: nil), limit: limit)
      case (nil, let b?): result.add(.init(key: key, old: nil, new: b), limit: limit)
      case (nil, nil): break
      }
    }
    return result
  }
}
