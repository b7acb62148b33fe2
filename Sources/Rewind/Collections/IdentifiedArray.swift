/// An ordered collection of elements with unique ids and lookup by id in O(log n), whose copies share
/// storage.
///
/// It is the collection ``Reducer/forEach(_:action:element:)`` addresses, and what list state is made of.
/// It is persistent: copying it is O(1), and changing a copy copies only the O(log n) small nodes on the
/// path to the change. So the versions of the state a store keeps (undo steps, checkpoints, snapshots for
/// subscribers) cost memory for what changed, not for the whole list, and a one-row edit of a large list
/// costs about the same as of a small one. Small collections (up to one leaf of 16 to 64 elements) are one
/// contiguous buffer.
///
/// Editing, each O(log n) unless said (Docs/GettingStarted.md has the whole table):
///
/// ```swift
/// rows.append(row)                    // at the end, unless its id is present: (inserted, index)
/// rows.insert(row, at: 0)             // at a position, the same way
/// rows[id: 7]?.isDone = true          // in place, by id; the id must not change
/// rows[id: 8] = row                   // replace by id, or append when absent
/// rows[id: 8] = nil                   // remove by id; `remove(id:)` also returns it
/// rows.remove(at: 0)                  // by position
/// rows.move(from: 0, to: 3)           // the element at 0 ends up at 3 (amortized)
/// rows.sort { $0.title < $1.title }   // O(n log n); `removeAll(where:)` and `filter` O(n)
/// ```
///
/// Storage: the elements in a B+-tree of contiguous leaves, each element tagged with an order label that
/// increases along the collection; and an index from each id to its element's label, itself a B+-tree
/// ordered by the id's hash. A lookup by id reads the label from the index, then finds the element by label
/// in the element tree. Docs/Architecture.md ("Structural sharing") argues the design and gives figures.
///
/// - Complexity: lookup, insertion, removal and replacement, by id or by position, are O(log n) (insertion
///   amortized, as it may relabel a few neighbours); iteration is O(1) per element; `count`, copying and
///   ``elements`` are O(1).
public struct IdentifiedArray<Element: Identifiable> {
  /// The elements, keyed by order label.
  @usableFromInline var tree: PersistentTree<Element>
  /// Each id's order label.
  @usableFromInline var index: IDIndex<Element.ID>

  /// An empty collection.
  @inlinable
  public init() {
    tree = PersistentTree()
    index = IDIndex()
  }

  /// Builds the collection from `elements`, in order, whose ids must be unique; returns a repeated id,
  /// leaving `self` unusable, when they are not.
  @inlinable
  init(building elements: [Element], duplicate: inout Element.ID?) {
    let labels = OrderLabels.even(count: elements.count)
    let built = IDIndex.build(ids: elements.map(\.id), labels: labels)
    duplicate = built.duplicate
    index = built.index
    tree = PersistentTree(values: elements, keys: labels)
    if duplicate == nil { checkInvariantsIfEnabled() }
  }

  /// Creates a collection from elements whose ids are unique.
  ///
  /// - Precondition: no two elements share an id. For data from outside, use ``init(_:uniquingIDsWith:)``
  ///   or decoding, which throws.
  /// - Complexity: O(n log n).
  @inlinable
  public init(uniqueElements: some Sequence<Element>) {
    var duplicate: Element.ID?
    self.init(building: Array(uniqueElements), duplicate: &duplicate)
    if let duplicate { preconditionFailure("IdentifiedArray: duplicate id \(duplicate)") }
  }

  /// Creates a collection from `newElements`, resolving a repeated id with `combine(existing, new)`.
  /// - Complexity: O(n log n).
  @inlinable
  public init(_ newElements: some Sequence<Element>, uniquingIDsWith combine: (Element, Element) -> Element) {
    var elements: [Element] = []
    var positions: [Element.ID: Int] = [:]
    for element in newElements {
      if let position = positions[element.id] {
        elements[position] = combine(elements[position], element)
      } else {
        positions[element.id] = elements.count
        elements.append(element)
      }
    }
    var duplicate: Element.ID?
    self.init(building: elements, duplicate: &duplicate)
  }

  /// The elements, in order, sharing this collection's storage.
  /// - Complexity: O(1).
  @inlinable
  public var elements: PersistentArray<Element> { PersistentArray(tree: tree) }

  /// The ids, in order.
  /// - Complexity: O(n).
  @inlinable
  public var ids: [Element.ID] {
    var ids: [Element.ID] = []
    ids.reserveCapacity(count)
    for element in self { ids.append(element.id) }
    return ids
  }

  /// The position of the element with `id`.
  /// - Complexity: O(log n).
  @inlinable
  public func index(id: Element.ID) -> Int? {
    guard let label = index.label(of: id) else { return nil }
    return tree.position(ofKey: label)
  }

  /// Whether an element has `id`.
  /// - Complexity: O(log n).
  @inlinable
  public func contains(id: Element.ID) -> Bool { index.label(of: id) != nil }

  /// The element with `id`; setting `nil` removes it, setting a new element appends it.
  /// - Complexity: O(log n).
  @inlinable
  public subscript(id id: Element.ID) -> Element? {
    get {
      guard let label = index.label(of: id) else { return nil }
      return unsafe tree.pointer(toKey: label)?.pointee
    }
    set {
      guard let newValue else {
        remove(id: id)
        return
      }
      precondition(newValue.id == id, "IdentifiedArray: element stored under id \(id) has id \(newValue.id)")
      if let label = index.label(of: id) {
        tree.update(key: label) { $0 = newValue }
        checkInvariantsIfEnabled()
      } else {
        append(newValue)
      }
    }
    // `rows[id: id]?.flag.toggle()`: one lookup, where a get and a set would take two. The optional
    // chaining keeps this coroutine from being inlined into the caller, and a coroutine whose locals do
    // not fit the caller's buffer (four words) allocates its frame on the heap: a malloc and a free per
    // edit, a sixth of its cost. So only pointers and the id are kept across the `yield`: the element is
    // yielded where it lies, its slot seen as an optional (the same bytes when the element type has
    // spare bit patterns for `nil`, as most do); otherwise from a temporary on the heap, as before.
    _modify {
      let slot = unsafe uniqueSlot(id: id)
      let place = unsafe beginAccess(slot: slot)
      defer { unsafe endAccess(place: place, slot: slot, id: id) }
      yield unsafe &place.pointee
    }
  }

  /// Whether an optional element is laid out as the element itself, `nil` in a bit pattern no element
  /// uses; then an element's slot can be accessed as an optional in place.
  @inlinable
  static var optionalSharesLayout: Bool { MemoryLayout<Element?>.size == MemoryLayout<Element>.size }

  /// Where an access through `subscript(id:)` reads and writes the optional element: the element's own
  /// slot, or a temporary holding the element moved out of it (or `nil` when there is no `slot`).
  @inlinable
  func beginAccess(slot: UnsafeMutablePointer<Element>?) -> UnsafeMutablePointer<Element?> {
    if let slot = unsafe slot, Self.optionalSharesLayout {
      return unsafe UnsafeMutableRawPointer(slot).bindMemory(to: Element?.self, capacity: 1)
    }
    let temporary = UnsafeMutablePointer<Element?>.allocate(capacity: 1)
    unsafe temporary.initialize(to: slot?.move())
    return unsafe temporary
  }

  /// Ends an access through `subscript(id:)` begun by ``beginAccess(slot:)``: the element stays in its
  /// slot (or goes back to it), or is removed (set to `nil`), or appended (set where there was none).
  @inlinable
  mutating func endAccess(
    place: UnsafeMutablePointer<Element?>, slot: UnsafeMutablePointer<Element>?, id: Element.ID
  ) {
    if let slot = unsafe slot, Self.optionalSharesLayout {
      if unsafe place.pointee != nil {
        let element = unsafe UnsafeMutableRawPointer(slot).bindMemory(to: Element.self, capacity: 1)
        if unsafe element.pointee.id == id {
          checkInvariantsIfEnabled()
          return
        }
        unsafe settle(slot: slot, id: id, element: nil, replacedBy: element.pointee.id)
        return
      }
      unsafe UnsafeMutableRawPointer(slot).bindMemory(to: Element.self, capacity: 1)
      unsafe settle(slot: slot, id: id, element: nil, replacedBy: nil)
      return
    }
    let element = unsafe place.move()
    unsafe place.deallocate()
    if let slot = unsafe slot, let element, element.id == id {
      unsafe slot.initialize(to: element)
      checkInvariantsIfEnabled()
      return
    }
    unsafe settle(slot: slot, id: id, element: element, replacedBy: element?.id)
  }

  /// The address of the element with `id`, every node on the path to it this collection's alone; `nil`
  /// when no element has `id`.
  /// - Complexity: O(log n).
  @inlinable
  mutating func uniqueSlot(id: Element.ID) -> UnsafeMutablePointer<Element>? {
    guard let label = index.label(of: id) else { return nil }
    return unsafe tree.uniqueSlot(forKey: label)
  }

  /// Ends an access through `subscript(id:)` that did not leave an element with `id` in its slot. With no
  /// `slot`, `element` (if any) is appended. Else, when `replacedBy` names an id, the access changed the
  /// element's id, a programmer error (the element is put back in its slot first, if it was moved out);
  /// otherwise it set the element to `nil`, and the vacated slot is removed.
  @inlinable
  @inline(never)
  mutating func settle(
    slot: UnsafeMutablePointer<Element>?, id: Element.ID, element: Element?, replacedBy newID: Element.ID?
  ) {
    guard let slot = unsafe slot else {
      guard let element else { return }
      precondition(element.id == id, "IdentifiedArray: element stored under id \(id) has id \(element.id)")
      append(element)
      return
    }
    if let newID {
      if let element { unsafe slot.initialize(to: element) }
      preconditionFailure("IdentifiedArray: an update changed element id \(id) to \(newID)")
    }
    guard let label = index.remove(id) else { preconditionFailure("IdentifiedArray: id \(id) vanished") }
    tree.removeVacated(at: tree.lowerBound(key: label))
    checkInvariantsIfEnabled()
  }

  /// Mutates the element with `id` in place, if there is one; its id must not change.
  /// - Returns: what `body` returned, or `nil` when no element has `id`.
  /// - Complexity: O(log n).
  @inlinable
  public mutating func updateElement<R>(id: Element.ID, _ body: (inout Element) throws -> R) rethrows -> R? {
    guard let slot = unsafe uniqueSlot(id: id) else { return nil }
    defer {
      unsafe precondition(slot.pointee.id == id, "IdentifiedArray: an update changed element id \(id)")
      checkInvariantsIfEnabled()
    }
    return unsafe try body(&slot.pointee)
  }

  /// Appends `element` unless its id is present.
  /// - Returns: whether it was inserted, and the index of the element with that id.
  /// - Complexity: O(log n), amortized.
  @inlinable
  @discardableResult
  public mutating func append(_ element: Element) -> (inserted: Bool, index: Int) {
    if let existing = index(id: element.id) { return (false, existing) }
    let position = tree.count
    let label = label(forInsertionAt: position)
    tree.insert(element, key: label, at: position)
    index.insert(element.id, label: label)
    checkInvariantsIfEnabled()
    return (true, position)
  }

  /// Inserts `element` at `index` unless its id is present.
  /// - Returns: whether it was inserted, and the index of the element with that id.
  /// - Complexity: O(log n), amortized.
  @inlinable
  @discardableResult
  public mutating func insert(_ element: Element, at index: Int) -> (inserted: Bool, index: Int) {
    if let existing = self.index(id: element.id) { return (false, existing) }
    precondition(index >= 0 && index <= tree.count, "IdentifiedArray: index \(index) out of bounds")
    let label = label(forInsertionAt: index)
    tree.insert(element, key: label, at: index)
    self.index.insert(element.id, label: label)
    checkInvariantsIfEnabled()
    return (true, index)
  }

  /// Removes and returns the element with `id`, if present.
  /// - Complexity: O(log n).
  @inlinable
  @discardableResult
  public mutating func remove(id: Element.ID) -> Element? {
    guard let position = index(id: id) else { return nil }
    return remove(at: position)
  }

  /// Removes and returns the element at `index`.
  /// - Complexity: O(log n).
  @inlinable
  @discardableResult
  public mutating func remove(at index: Int) -> Element {
    precondition(index >= 0 && index < tree.count, "IdentifiedArray: index \(index) out of range")
    let removed = tree.remove(at: index, keyed: true)
    self.index.remove(removed.id)
    checkInvariantsIfEnabled()
    return removed
  }

  /// Removes every element.
  @inlinable
  public mutating func removeAll() {
    tree = PersistentTree()
    index = IDIndex()
    checkInvariantsIfEnabled()
  }

  /// Moves the element at `source` so that it ends up at `destination`.
  /// - Complexity: O(log n), amortized.
  @inlinable
  public mutating func move(from source: Int, to destination: Int) {
    precondition(
      source >= 0 && source < tree.count && destination >= 0 && destination < tree.count,
      "IdentifiedArray: move \(source) → \(destination) out of bounds")
    guard source != destination else { return }
    let element = tree.remove(at: source, keyed: true)
    let label = label(forInsertionAt: destination)
    tree.insert(element, key: label, at: destination)
    index.setLabel(label, of: element.id)
    checkInvariantsIfEnabled()
  }

  /// Mutates the element at `index` in place; its id must not change.
  /// - Complexity: O(log n).
  @inlinable
  public mutating func updateElement<R>(at index: Int, _ body: (inout Element) throws -> R) rethrows -> R {
    precondition(index >= 0 && index < tree.count, "IdentifiedArray: index \(index) out of range")
    let result = try tree.update(at: index) { element -> R in
      let id = element.id
      defer { precondition(element.id == id, "IdentifiedArray: an update changed element id \(id)") }
      return try body(&element)
    }
    checkInvariantsIfEnabled()
    return result
  }
}

extension IdentifiedArray: RandomAccessCollection, MutableCollection {
  public typealias Index = Int
  public typealias Indices = Range<Int>

  @inlinable public var startIndex: Int { 0 }
  @inlinable public var endIndex: Int { tree.count }
  /// The number of elements.
  /// - Complexity: O(1).
  @inlinable public var count: Int { tree.count }
  @inlinable public var isEmpty: Bool { tree.count == 0 }
  @inlinable public var indices: Range<Int> { 0..<tree.count }
  @inlinable public func index(after i: Int) -> Int { i &+ 1 }
  @inlinable public func index(before i: Int) -> Int { i &- 1 }
  @inlinable public func index(_ i: Int, offsetBy distance: Int) -> Int { i &+ distance }
  @inlinable public func distance(from start: Int, to end: Int) -> Int { end &- start }

  /// The element at `position`; a replacement must keep the element's id.
  /// - Complexity: O(log n).
  @inlinable
  public subscript(position: Int) -> Element {
    // Borrowed in place: `rows[i].field` copies neither the element nor its arrays and strings.
    _read {
      precondition(position >= 0 && position < tree.count, "IdentifiedArray: index \(position) out of range")
      yield unsafe tree.pointer(to: position).pointee
    }
    set { updateElement(at: position) { $0 = newValue } }
  }

  /// Exchanges the elements at `i` and `j` (their ids go with them).
  /// - Complexity: O(log n).
  @inlinable
  public mutating func swapAt(_ i: Int, _ j: Int) {
    guard i != j else { return }
    let (first, second) = (self[i], self[j])
    let (firstLabel, secondLabel) = (tree.key(at: i), tree.key(at: j))
    tree.update(at: i) { $0 = second }
    tree.update(at: j) { $0 = first }
    index.setLabel(firstLabel, of: second.id)
    index.setLabel(secondLabel, of: first.id)
    checkInvariantsIfEnabled()
  }

  /// Iterates the elements in O(1) per element.
  public typealias Iterator = PersistentArray<Element>.Iterator

  /// An iterator over the elements.
  @inlinable
  public func makeIterator() -> Iterator { Iterator(base: PersistentTree.Iterator(tree)) }

  @inlinable
  public var underestimatedCount: Int { tree.count }

  /// The elements in an array: O(1) when they fit in one leaf (the buffer is shared), else O(n).
  @inlinable
  public func _copyToContiguousArray() -> ContiguousArray<Element> { ContiguousArray(tree.array) }

  /// Runs `body` on the elements' contiguous storage when they fit in one leaf; `nil` otherwise.
  @inlinable
  public func withContiguousStorageIfAvailable<Result>(
    _ body: (UnsafeBufferPointer<Element>) throws -> Result
  ) rethrows -> Result? {
    guard tree.root.isLeaf else { return nil }
    return unsafe try body(UnsafeBufferPointer(tree.root.values))
  }
}

extension IdentifiedArray: ExpressibleByArrayLiteral {
  /// Creates a collection from a literal whose ids are unique.
  @inlinable
  public init(arrayLiteral elements: Element...) { self.init(uniqueElements: elements) }
}

extension IdentifiedArray: Equatable where Element: Equatable {
  /// Whether both hold equal elements in the same order.
  /// - Complexity: O(1) for the same storage; for versions of one collection, proportional to what
  ///   differs (shared subtrees are stepped over); O(n) otherwise.
  @inlinable
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.tree.elementsEqual(rhs.tree, by: ==) }
}

extension IdentifiedArray: Hashable where Element: Hashable {
  /// Hashes the count and the elements in order, as `Array` does.
  @inlinable
  public func hash(into hasher: inout Hasher) {
    hasher.combine(count)
    for element in self { hasher.combine(element) }
  }
}

extension IdentifiedArray: Sendable where Element: Sendable, Element.ID: Sendable {}

extension IdentifiedArray: Encodable where Element: Encodable {
  /// Encodes the elements as an array: the same form as `[Element]`, and as every earlier version.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    for element in self { try container.encode(element) }
  }
}

extension IdentifiedArray: Decodable where Element: Decodable {
  /// Decodes an array, building the trees as the elements arrive (see `IdentifiedArray+Decoding.swift`); a
  /// repeated id is a `DecodingError.dataCorrupted` naming it.
  public init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    var duplicate: Element.ID?
    if let count = container.count {
      var builder = Builder(count: count)
      for _ in 0..<count { builder.append(try container.decode(Element.self)) }
      switch builder.finish() {
      case .collection(let built): self = built
      case .duplicate(let id):
        self.init()
        duplicate = id
      }
    } else {
      self.init(building: try [Element](from: decoder), duplicate: &duplicate)
    }
    if let duplicate {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "duplicate id \(duplicate)"))
    }
  }
}
