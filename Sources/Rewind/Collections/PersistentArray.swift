/// An ordered, random-access collection with value semantics whose copies share storage: copying is O(1)
/// and changing a copy copies O(log n) small nodes, never the whole collection.
///
/// It is what changeset streams deliver (``CollectionUpdate/elements`` and each stage's `data`), and the
/// element storage of ``IdentifiedArray``, which hands it out in O(1) as ``IdentifiedArray/elements``. It
/// is also the list to keep in state when the elements have no ids: a plain `[Element]` in state is copied
/// whole the first time the store changes it after an undo step, a checkpoint or a subscriber kept a
/// version of it.
///
/// Storage is a B+-tree of leaves of up to 64 contiguous elements (about 2 KB); a collection of one leaf is
/// a plain contiguous buffer (``withContiguousStorageIfAvailable(_:)`` then succeeds).
///
/// - Complexity: indexing, replacing, inserting and removing one element are O(log n); iterating is O(1)
///   per element; `count`, copying and `==` between versions that share storage are O(1).
public struct PersistentArray<Element> {
  @usableFromInline var tree: PersistentTree<Element>

  @inlinable
  init(tree: PersistentTree<Element>) { self.tree = tree }

  /// An empty collection.
  @inlinable
  public init() { tree = PersistentTree() }

  /// A collection of `elements`, in order.
  /// - Complexity: O(n).
  @inlinable
  public init(_ elements: some Sequence<Element>) {
    if let same = elements as? PersistentArray<Element> {
      self = same
    } else {
      tree = PersistentTree(values: Array(elements), keys: nil)
    }
    checkInvariantsIfEnabled()
  }
}

extension PersistentArray: RandomAccessCollection, MutableCollection {
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

  /// The element at `position`.
  /// - Complexity: O(log n); setting copies the shared nodes on the path, O(log n) of them.
  @inlinable
  public subscript(position: Int) -> Element {
    _read {
      precondition(position >= 0 && position < tree.count, "PersistentArray: index \(position) out of range")
      yield unsafe tree.pointer(to: position).pointee
    }
    set {
      precondition(position >= 0 && position < tree.count, "PersistentArray: index \(position) out of range")
      tree.update(at: position) { $0 = newValue }
      checkInvariantsIfEnabled()
    }
  }

  /// Iterates the elements in O(1) per element.
  public struct Iterator: IteratorProtocol {
    @usableFromInline var base: PersistentTree<Element>.Iterator

    @inlinable
    init(base: PersistentTree<Element>.Iterator) { self.base = base }

    /// The next element; `nil` after the last.
    @inlinable
    public mutating func next() -> Element? { base.next() }
  }

  /// An iterator over the elements.
  @inlinable
  public func makeIterator() -> Iterator { Iterator(base: PersistentTree.Iterator(tree)) }

  @inlinable
  public var underestimatedCount: Int { tree.count }

  /// The elements in an array: O(1) when they fit in one leaf (the buffer is shared), else O(n).
  @inlinable
  public func _copyToContiguousArray() -> ContiguousArray<Element> { ContiguousArray(tree.array) }

  @inlinable
  public func withContiguousStorageIfAvailable<Result>(
    _ body: (UnsafeBufferPointer<Element>) throws -> Result
  ) rethrows -> Result? {
    guard tree.root.isLeaf else { return nil }
    return unsafe try body(UnsafeBufferPointer(tree.root.values))
  }

  @inlinable
  public mutating func withContiguousMutableStorageIfAvailable<Result>(
    _ body: (inout UnsafeMutableBufferPointer<Element>) throws -> Result
  ) rethrows -> Result? {
    guard tree.root.isLeaf else { return nil }
    tree.makeRootUnique()
    defer { checkInvariantsIfEnabled() }
    var buffer = unsafe tree.root.values
    return unsafe try body(&buffer)
  }
}

extension PersistentArray: RangeReplaceableCollection {
  /// Replaces the elements in `range` with `newElements`.
  /// - Complexity: O((range.count + newElements.count) · log n), or O(n) when that is less.
  @inlinable
  public mutating func replaceSubrange<C: Collection<Element>>(_ range: Range<Int>, with newElements: C) {
    precondition(
      range.lowerBound >= 0 && range.upperBound <= tree.count, "PersistentArray: range \(range) out of bounds"
    )
    let inserted = newElements.count
    // One element at a time costs about log n each; rebuilding costs about 1 per element.
    if (range.count &+ inserted) &* 8 > tree.count {
      var all = tree.array
      all.replaceSubrange(range, with: newElements)
      tree = PersistentTree(values: all, keys: nil)
      checkInvariantsIfEnabled()
      return
    }
    for _ in range { tree.remove(at: range.lowerBound, keyed: false) }
    var position = range.lowerBound
    for element in newElements {
      tree.insert(element, key: nil, at: position)
      position &+= 1
    }
    checkInvariantsIfEnabled()
  }

  /// Appends `newElements`.
  /// - Complexity: O(k · log n) for k elements, or O(n + k) when that is less.
  @inlinable
  public mutating func append<S: Sequence<Element>>(contentsOf newElements: S) {
    if tree.count == 0 {
      self = PersistentArray(newElements)
    } else {
      replaceSubrange(tree.count..<tree.count, with: Array(newElements))
    }
  }

  /// Appends `element`.
  /// - Complexity: O(log n).
  @inlinable
  public mutating func append(_ element: Element) {
    tree.insert(element, key: nil, at: tree.count)
    checkInvariantsIfEnabled()
  }

  /// Inserts `element` at `position`.
  /// - Complexity: O(log n).
  @inlinable
  public mutating func insert(_ element: Element, at position: Int) {
    precondition(position >= 0 && position <= tree.count, "PersistentArray: index \(position) out of bounds")
    tree.insert(element, key: nil, at: position)
    checkInvariantsIfEnabled()
  }

  /// Removes and returns the element at `position`.
  /// - Complexity: O(log n).
  @inlinable
  @discardableResult
  public mutating func remove(at position: Int) -> Element {
    precondition(position >= 0 && position < tree.count, "PersistentArray: index \(position) out of range")
    defer { checkInvariantsIfEnabled() }
    return tree.remove(at: position, keyed: false)
  }

  /// Removes every element.
  @inlinable
  public mutating func removeAll(keepingCapacity _: Bool = false) {
    tree.removeAll()
    checkInvariantsIfEnabled()
  }

  /// Does nothing: the tree allocates its nodes as it grows.
  @inlinable
  public mutating func reserveCapacity(_: Int) {}
}

extension PersistentArray: ExpressibleByArrayLiteral {
  /// A collection of the literal's elements.
  @inlinable
  public init(arrayLiteral elements: Element...) { self.init(elements) }
}

extension PersistentArray: Equatable where Element: Equatable {
  /// Whether both hold equal elements in the same order.
  /// - Complexity: O(1) for the same storage; for versions of one collection, proportional to what
  ///   differs between them (shared subtrees are stepped over); O(n) otherwise.
  @inlinable
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.tree.elementsEqual(rhs.tree, by: ==) }
}

extension PersistentArray: Hashable where Element: Hashable {
  /// Hashes the count and the elements in order, as `Array` does.
  @inlinable
  public func hash(into hasher: inout Hasher) {
    hasher.combine(count)
    for element in self { hasher.combine(element) }
  }
}

extension PersistentArray: Sendable where Element: Sendable {}
extension PersistentArray.Iterator: Sendable where Element: Sendable {}

extension PersistentArray: Encodable where Element: Encodable {
  /// Encodes the elements as an array (the same form as `[Element]`).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    for element in self { try container.encode(element) }
  }
}

extension PersistentArray: Decodable where Element: Decodable {
  /// Decodes an array, building the tree as the elements arrive (see `PersistentArray+Decoding.swift`).
  public init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    guard let count = container.count else {
      self.init(try [Element](from: decoder))
      return
    }
    var builder = Builder(count: count)
    for _ in 0..<count { builder.append(try container.decode(Element.self)) }
    self = builder.finish()
  }
}
