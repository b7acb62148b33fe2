/// An ordered collection of elements with unique ids and constant-time lookup by id.
///
/// It is the collection ``Reducer/forEach(_:action:element:)`` addresses, and what list state is made of:
/// an action for row `id` finds its row in O(1) whatever the list's length.
public struct IdentifiedArray<Element: Identifiable> {
  @usableFromInline var _elements: [Element]
  @usableFromInline var indexByID: [Element.ID: Int]

  /// An empty collection.
  @inlinable
  public init() {
    _elements = []
    indexByID = [:]
  }

  /// Creates a collection from elements whose ids are unique.
  ///
  /// - Precondition: no two elements share an id. For data from outside, use ``init(_:uniquingIDsWith:)``
  ///   or decoding, which throws.
  @inlinable
  public init(uniqueElements: some Sequence<Element>) {
    self.init()
    for element in uniqueElements {
      precondition(indexByID[element.id] == nil, "IdentifiedArray: duplicate id \(element.id)")
      indexByID[element.id] = _elements.count
      _elements.append(element)
    }
  }

  /// Creates a collection from `newElements`, resolving a repeated id with `combine(existing, new)`.
  @inlinable
  public init(_ newElements: some Sequence<Element>, uniquingIDsWith combine: (Element, Element) -> Element) {
    self.init()
    for element in newElements {
      if let index = indexByID[element.id] {
        _elements[index] = combine(_elements[index], element)
      } else {
        indexByID[element.id] = _elements.count
        _elements.append(element)
      }
    }
  }

  /// The elements, in order.
  /// - Complexity: O(1): the array is shared, not copied.
  @inlinable
  public var elements: [Element] { _elements }

  /// The ids, in order.
  public var ids: [Element.ID] { _elements.map(\.id) }

  /// The position of the element with `id`.
  /// - Complexity: O(1).
  @inlinable
  public func index(id: Element.ID) -> Int? { indexByID[id] }

  /// The element with `id`; setting `nil` removes it, setting a new element appends it.
  /// - Complexity: O(1) to read or replace; O(n) to remove.
  @inlinable
  public subscript(id id: Element.ID) -> Element? {
    get { indexByID[id].map { _elements[$0] } }
    set {
      guard let newValue else {
        remove(id: id)
        return
      }
      precondition(newValue.id == id, "IdentifiedArray: element stored under id \(id) has id \(newValue.id)")
      if let index = indexByID[id] {
        _elements[index] = newValue
      } else {
        append(newValue)
      }
    }
  }

  /// Appends `element` unless its id is present.
  /// - Returns: whether it was inserted, and the index of the element with that id.
  @inlinable
  @discardableResult
  public mutating func append(_ element: Element) -> (inserted: Bool, index: Int) {
    if let index = indexByID[element.id] { return (false, index) }
    indexByID[element.id] = _elements.count
    _elements.append(element)
    return (true, _elements.count - 1)
  }

  /// Inserts `element` at `index` unless its id is present.
  /// - Returns: whether it was inserted, and the index of the element with that id.
  /// - Complexity: O(n).
  @inlinable
  @discardableResult
  public mutating func insert(_ element: Element, at index: Int) -> (inserted: Bool, index: Int) {
    if let existing = indexByID[element.id] { return (false, existing) }
    precondition(index >= 0 && index <= _elements.count, "IdentifiedArray: index \(index) out of bounds")
    _elements.insert(element, at: index)
    reindex(from: index)
    return (true, index)
  }

  /// Removes and returns the element with `id`, if present.
  /// - Complexity: O(n).
  @inlinable
  @discardableResult
  public mutating func remove(id: Element.ID) -> Element? {
    guard let index = indexByID[id] else { return nil }
    return remove(at: index)
  }

  /// Removes and returns the element at `index`.
  /// - Complexity: O(n).
  @inlinable
  @discardableResult
  public mutating func remove(at index: Int) -> Element {
    let removed = _elements.remove(at: index)
    indexByID[removed.id] = nil
    reindex(from: index)
    return removed
  }

  /// Removes every element.
  @inlinable
  public mutating func removeAll() {
    _elements.removeAll()
    indexByID.removeAll()
  }

  /// Moves the element at `source` so that it ends up at `destination`.
  /// - Complexity: O(n).
  @inlinable
  public mutating func move(from source: Int, to destination: Int) {
    precondition(
      _elements.indices.contains(source) && _elements.indices.contains(destination),
      "IdentifiedArray: move \(source) → \(destination) out of bounds")
    guard source != destination else { return }
    let element = _elements.remove(at: source)
    _elements.insert(element, at: destination)
    reindex(from: Swift.min(source, destination))
  }

  /// Mutates the element at `index` in place; its id must not change.
  @inlinable
  public mutating func updateElement<R>(at index: Int, _ body: (inout Element) throws -> R) rethrows -> R {
    let id = _elements[index].id
    defer { precondition(_elements[index].id == id, "IdentifiedArray: an update changed element id \(id)") }
    return try body(&_elements[index])
  }

  @usableFromInline
  mutating func reindex(from start: Int) {
    for index in start..<_elements.count { indexByID[_elements[index].id] = index }
    _checkInvariants()
  }

  @usableFromInline
  func _checkInvariants() {
    #if DEBUG
      assert(indexByID.count == _elements.count, "IdentifiedArray: index and elements disagree in count")
      for (index, element) in _elements.enumerated() {
        assert(indexByID[element.id] == index, "IdentifiedArray: stale index for id \(element.id)")
      }
    #endif
  }
}

extension IdentifiedArray: RandomAccessCollection, MutableCollection {
  @inlinable public var startIndex: Int { 0 }
  @inlinable public var endIndex: Int { _elements.count }

  /// Shares the element storage, so that `Array(identifiedArray)` is O(1) rather than an element-by-element
  /// copy: changeset subscribers extract the list this way on every delivery.
  @inlinable
  public func _copyToContiguousArray() -> ContiguousArray<Element> { _elements._copyToContiguousArray() }

  @inlinable
  public func withContiguousStorageIfAvailable<Result>(
    _ body: (UnsafeBufferPointer<Element>) throws -> Result
  ) rethrows -> Result? {
    try _elements.withContiguousStorageIfAvailable(body)
  }

  /// The element at `position`; a replacement must keep the element's id.
  @inlinable
  public subscript(position: Int) -> Element {
    get { _elements[position] }
    set { updateElement(at: position) { $0 = newValue } }
  }
}

extension IdentifiedArray: ExpressibleByArrayLiteral {
  /// Creates a collection from a literal whose ids are unique.
  public init(arrayLiteral elements: Element...) { self.init(uniqueElements: elements) }
}

extension IdentifiedArray: Equatable where Element: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.elements == rhs.elements }
}

extension IdentifiedArray: Hashable where Element: Hashable {
  public func hash(into hasher: inout Hasher) { hasher.combine(elements) }
}

extension IdentifiedArray: Sendable where Element: Sendable, Element.ID: Sendable {}

extension IdentifiedArray: CustomStringConvertible {
  public var description: String { elements.description }
}

extension IdentifiedArray: Encodable where Element: Encodable {
  /// Encodes the elements as an array.
  public func encode(to encoder: any Encoder) throws { try elements.encode(to: encoder) }
}

extension IdentifiedArray: Decodable where Element: Decodable {
  /// Decodes an array; a repeated id is a `DecodingError.dataCorrupted` naming it.
  public init(from decoder: any Decoder) throws {
    let decoded = try [Element](from: decoder)
    self.init()
    for element in decoded where !append(element).inserted {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "duplicate id \(element.id)"))
    }
  }
}
