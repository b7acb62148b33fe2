/// The undo steps: a stack that also drops its oldest entries, both in O(1) amortized.
///
/// An `Array` dropped its oldest step with `removeFirst`, shifting the other 99 (the default limit) on
/// every undoable send once the stack was full. Here the oldest entries are cleared in place and the
/// storage is compacted only once the cleared part is as long as the rest.
@usableFromInline
struct UndoStack<Element> {
  @usableFromInline var storage: [Element?] = []
  /// The index of the oldest entry in `storage`; the ones before it were dropped.
  @usableFromInline var start = 0

  @inlinable
  init() {}

  @inlinable
  var count: Int { storage.count &- start }

  @inlinable
  var isEmpty: Bool { storage.count == start }

  /// The newest entry.
  @inlinable
  var last: Element? { isEmpty ? nil : storage[storage.count &- 1] }

  /// The oldest element kept.
  var first: Element? { isEmpty ? nil : storage[start] }

  @inlinable
  mutating func append(_ element: consuming Element) { storage.append(element) }

  @inlinable
  mutating func popLast() -> Element? {
    guard !isEmpty, let last = storage.removeLast() else { return nil }
    if isEmpty { removeAll() }
    return last
  }

  /// Changes the newest entry in place; nothing when there is none.
  @inlinable
  mutating func updateLast(_ body: (inout Element) -> Void) {
    guard !isEmpty, var last = storage[storage.count &- 1] else { return }
    storage[storage.count &- 1] = nil
    body(&last)
    storage[storage.count &- 1] = last
  }

  @inlinable
  mutating func removeAll() {
    storage.removeAll(keepingCapacity: true)
    start = 0
  }

  /// Drops the oldest entries so that at most `limit` remain.
  @inlinable
  mutating func dropOldest(keeping limit: Int) {
    while count > limit {
      storage[start] = nil
      start &+= 1
    }
    if start > 0 && start >= count {
      storage.removeFirst(start)
      start = 0
    }
  }

  /// The entries, oldest first.
  @inlinable
  var entries: [Element] { storage[start...].map { unsafe $0.unsafelyUnwrapped } }
}

extension UndoStack: Sendable where Element: Sendable {}
