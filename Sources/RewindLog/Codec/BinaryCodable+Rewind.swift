import Rewind

// Rewind's state collections as ``BinaryCodable``, in the shapes of their `Codable` conformances.
//
// The persistent collections write their elements in order, as an array, and read them back into a tree
// built bottom-up as they arrive (`IdentifiedArray.Builder`, `PersistentArray.Builder`): no element is
// inserted, no intermediate array is made, and a count read from damaged bytes allocates nothing ahead of
// the elements actually read.

extension IdentifiedArray: BinaryCodable where Element: BinaryCodable {
  /// Writes the elements, in order, as an array.
  @inlinable
  public func encode(to writer: inout BinaryWriter) {
    writer.array(count: count)
    for element in self { writer.encode(element) }
  }

  /// Reads an array of elements whose ids are unique.
  /// - Throws: ``BinaryCodecError/mismatch(expected:found:offset:)`` naming a repeated id.
  @inlinable
  public init(from reader: inout BinaryReader) throws {
    let start = reader.position
    let count = try reader.array()
    var builder = Builder(count: count)
    for _ in 0..<count { builder.append(try reader.decode(Element.self)) }
    switch builder.finish() {
    case .collection(let built): self = built
    case .duplicate(let id):
      throw BinaryCodecError.mismatch(expected: "unique ids", found: "id \(id) twice", offset: start)
    }
  }
}

extension PersistentArray: BinaryCodable where Element: BinaryCodable {
  /// Writes the elements, in order, as an array.
  @inlinable
  public func encode(to writer: inout BinaryWriter) {
    writer.array(count: count)
    for element in self { writer.encode(element) }
  }

  /// Reads an array.
  @inlinable
  public init(from reader: inout BinaryReader) throws {
    let count = try reader.array()
    var builder = Builder(count: count)
    for _ in 0..<count { builder.append(try reader.decode(Element.self)) }
    self = builder.finish()
  }
}

extension StackElementID: BinaryCodable {
  /// Writes `{"rawValue": n}`.
  public func encode(to writer: inout BinaryWriter) {
    writer.keyed(count: 1)
    writer.key("rawValue")
    writer.uint(rawValue)
  }

  /// Reads `{"rawValue": n}`.
  public init(from reader: inout BinaryReader) throws {
    try reader.keyed(count: 1)
    try reader.key("rawValue")
    self.init(rawValue: try reader.uint())
  }
}

extension PresentationID: BinaryCodable {
  /// Writes `{"rawValue": n}`.
  public func encode(to writer: inout BinaryWriter) {
    writer.keyed(count: 1)
    writer.key("rawValue")
    writer.uint(rawValue)
  }

  /// Reads `{"rawValue": n}`.
  public init(from reader: inout BinaryReader) throws {
    try reader.keyed(count: 1)
    try reader.key("rawValue")
    self.init(rawValue: try reader.uint())
  }
}

extension StackState: BinaryCodable where Element: BinaryCodable {
  /// Writes `{"entries": [{"id": …, "element": …}, …], "nextID": …}`, bottom first.
  @inlinable
  public func encode(to writer: inout BinaryWriter) {
    writer.keyed(count: 2)
    writer.key("entries")
    writer.array(count: count)
    for position in indices {
      writer.keyed(count: 2)
      writer.key("id")
      writer.encode(id(at: position))
      writer.key("element")
      writer.encode(self[position])
    }
    writer.key("nextID")
    writer.encode(nextID)
  }

  /// Reads a stack whose ids increase from the bottom and stay below its next id.
  /// - Throws: ``BinaryCodecError/mismatch(expected:found:offset:)`` for ids out of order.
  @inlinable
  public init(from reader: inout BinaryReader) throws {
    let start = reader.position
    try reader.keyed(count: 2)
    try reader.key("entries")
    var elements: [(id: StackElementID, element: Element)] = []
    for _ in 0..<(try reader.array()) {
      try reader.keyed(count: 2)
      try reader.key("id")
      let id = try reader.decode(StackElementID.self)
      try reader.key("element")
      elements.append((id, try reader.decode(Element.self)))
    }
    try reader.key("nextID")
    guard let stack = StackState(elements: elements, nextID: try reader.decode(StackElementID.self)) else {
      throw BinaryCodecError.mismatch(
        expected: "stack ids increasing from the bottom, below the next id", found: "others", offset: start)
    }
    self = stack
  }
}

extension PresentationState: BinaryCodable where Child: BinaryCodable {
  /// Writes `{"presentationCount": n}`, with `"id"` and `"presented"` after it while a child is presented.
  @inlinable
  public func encode(to writer: inout BinaryWriter) {
    guard let id, let presented else {
      writer.keyed(count: 1)
      writer.key("presentationCount")
      writer.uint(presentationCount)
      return
    }
    writer.keyed(count: 3)
    writer.key("presentationCount")
    writer.uint(presentationCount)
    writer.key("id")
    writer.encode(id)
    writer.key("presented")
    writer.encode(presented)
  }

  /// Reads the count of presentations and the current one, if any.
  /// - Throws: ``BinaryCodecError/mismatch(expected:found:offset:)`` for a presentation id not below the
  ///   count.
  @inlinable
  public init(from reader: inout BinaryReader) throws {
    let start = reader.position
    let fields = try reader.keyed()
    guard fields == 1 || fields == 3 else {
      throw BinaryCodecError.mismatch(
        expected: "a presentation of 1 or 3 fields", found: "\(fields) fields", offset: start)
    }
    try reader.key("presentationCount")
    let count = try reader.uint()
    var presented: (id: PresentationID, child: Child)?
    if fields == 3 {
      try reader.key("id")
      let id = try reader.decode(PresentationID.self)
      try reader.key("presented")
      presented = (id, try reader.decode(Child.self))
    }
    guard let state = PresentationState(presentationCount: count, presented: presented) else {
      throw BinaryCodecError.mismatch(
        expected: "a presentation id below \(count)", found: "another", offset: start)
    }
    self = state
  }
}
