/// An entry of an ``IDIndex``: an id and the order label of its element.
@usableFromInline
struct IDIndexEntry<ID> {
  @usableFromInline var id: ID
  @usableFromInline var label: UInt64

  @inlinable
  init(id: ID, label: UInt64) {
    self.id = id
    self.label = label
  }
}

extension IDIndexEntry: Sendable where ID: Sendable {}

/// The persistent map from each element's id to its order label that gives ``IdentifiedArray`` lookup by
/// id: a B+-tree of entries ordered by the id's hash value (the tree's key; an integer id is its own key,
/// see ``hash(_:)``), so that a lookup descends like a search tree and a change copies one path, like the
/// element tree.
///
/// Ordered by hash rather than by id so that ids need only be `Hashable`. Hash values are per process,
/// which is fine: the index is never written anywhere (an `IdentifiedArray` encodes its elements only).
/// Ids whose hashes collide sit next to each other and are told apart with `==`.
@usableFromInline
struct IDIndex<ID: Hashable> {
  @usableFromInline var tree: PersistentTree<IDIndexEntry<ID>>

  @inlinable
  init() { tree = PersistentTree() }

  /// An index of `ids` labelled `labels`, and the first id found twice (then the index is not valid).
  /// - Complexity: O(n log n).
  @inlinable
  static func build(ids: [ID], labels: [UInt64]) -> (index: IDIndex, duplicate: ID?) {
    // Sorted as pairs of concrete types, so the sort is specialized here rather than run generically over
    // the entries (which made building 10,000 entries, as decoding a snapshot does, cost ~100 M
    // instructions).
    var order: [(hash: UInt64, position: Int)] = []
    order.reserveCapacity(ids.count)
    for (position, id) in ids.enumerated() { order.append((Self.hash(id), position)) }
    order.sort { $0.hash < $1.hash }
    let entries = order.map {
      (hash: $0.hash, entry: IDIndexEntry(id: ids[$0.position], label: labels[$0.position]))
    }
    // Equal ids have equal hashes, so a repeated id sits in a run of equal hashes (almost always of one).
    var duplicate: ID?
    var runStart = 0
    for position in entries.indices {
      if entries[position].hash != entries[runStart].hash { runStart = position }
      for earlier in runStart..<position where entries[earlier].entry.id == entries[position].entry.id {
        duplicate = duplicate ?? entries[position].entry.id
      }
    }
    var index = IDIndex()
    index.tree = PersistentTree(values: entries.map(\.entry), keys: entries.map(\.hash))
    return (index, duplicate)
  }

  /// The tree key of `id`: its hash value; for an integer id, the integer itself (order kept, the sign
  /// bit flipped), which is cheaper than hashing (about 90 instructions for an `Int`), never collides, and
  /// keeps neighbouring ids in one leaf. The check folds away where the index is specialized.
  @inlinable
  static func hash(_ id: ID) -> UInt64 {
    if ID.self == Int.self {
      return unsafe UInt64(bitPattern: Int64(unsafeBitCast(id, to: Int.self))) ^ (1 << 63)
    }
    if ID.self == Int64.self {
      return unsafe UInt64(bitPattern: unsafeBitCast(id, to: Int64.self)) ^ (1 << 63)
    }
    if ID.self == Int32.self {
      return unsafe UInt64(bitPattern: Int64(unsafeBitCast(id, to: Int32.self))) ^ (1 << 63)
    }
    if ID.self == UInt.self { return unsafe UInt64(unsafeBitCast(id, to: UInt.self)) }
    if ID.self == UInt64.self { return unsafe unsafeBitCast(id, to: UInt64.self) }
    if ID.self == UInt32.self { return unsafe UInt64(unsafeBitCast(id, to: UInt32.self)) }
    return UInt64(bitPattern: Int64(id.hashValue))
  }

  @inlinable
  var count: Int { tree.count }

  /// The position of `id`'s entry in the tree.
  @inlinable
  func position(of id: ID, hash: UInt64) -> Int? {
    tree.firstPosition(ofKey: hash) { $0.id == id }
  }

  /// The label of the element with `id`.
  /// - Complexity: O(log n).
  @inlinable
  func label(of id: ID) -> UInt64? {
    let hash = Self.hash(id)
    // The common case, one descent: the first entry with this hash is the id's.
    guard let entry = unsafe tree.pointer(toKey: hash) else { return nil }
    if unsafe entry.pointee.id == id { return unsafe entry.pointee.label }
    return position(of: id, hash: hash).map { tree[$0].label }
  }

  /// Adds `id` with `label`; `id` must not be present.
  /// - Complexity: O(log n).
  @inlinable
  mutating func insert(_ id: ID, label: UInt64) {
    let hash = Self.hash(id)
    tree.insert(IDIndexEntry(id: id, label: label), key: hash, at: tree.lowerBound(key: hash))
  }

  /// Removes `id` and returns its label.
  /// - Complexity: O(log n).
  @inlinable
  @discardableResult
  mutating func remove(_ id: ID) -> UInt64? {
    guard let position = position(of: id, hash: Self.hash(id)) else { return nil }
    return tree.remove(at: position, keyed: true).label
  }

  /// Gives `id` the label `label`.
  /// - Complexity: O(log n).
  @inlinable
  mutating func setLabel(_ label: UInt64, of id: ID) {
    guard let position = position(of: id, hash: Self.hash(id)) else {
      preconditionFailure("IDIndex: relabelling id \(id), which is not in the index")
    }
    tree.update(at: position) { $0.label = label }
  }
}

extension IDIndex: Sendable where ID: Sendable {}
