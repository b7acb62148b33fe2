import Foundation

// The standard library's values as ``BinaryCodable``, each in the shape its `Codable` conformance takes
// through ``BinaryEncoder``, so that a state made of them can be written and read without `Codable`
// (snapshots, Docs/Persistence.md) and read back either way.

extension Bool: BinaryCodable {
  /// Writes `true` or `false`.
  @inlinable public func encode(to writer: inout BinaryWriter) { writer.bool(self) }
  /// Reads a Boolean.
  @inlinable public init(from reader: inout BinaryReader) throws { self = try reader.bool() }
}

extension String: BinaryCodable {
  /// Writes the string.
  @inlinable public func encode(to writer: inout BinaryWriter) { writer.string(self) }
  /// Reads a string.
  @inlinable public init(from reader: inout BinaryReader) throws { self = try reader.string() }
}

extension Double: BinaryCodable {
  /// Writes the number.
  @inlinable public func encode(to writer: inout BinaryWriter) { writer.double(self) }
  /// Reads a number.
  @inlinable public init(from reader: inout BinaryReader) throws { self = try reader.double() }
}

extension Float: BinaryCodable {
  /// Writes the number.
  @inlinable public func encode(to writer: inout BinaryWriter) { writer.float(self) }
  /// Reads a number.
  @inlinable public init(from reader: inout BinaryReader) throws { self = try reader.float() }
}

extension Int: BinaryCodable {
  /// Writes the integer.
  @inlinable public func encode(to writer: inout BinaryWriter) { writer.int(self) }
  /// Reads an integer that fits.
  @inlinable public init(from reader: inout BinaryReader) throws { self = try reader.int() }
}

extension Int64: BinaryCodable {
  /// Writes the integer.
  @inlinable public func encode(to writer: inout BinaryWriter) { writer.int64(self) }
  /// Reads an integer that fits.
  @inlinable public init(from reader: inout BinaryReader) throws { self = try reader.int64() }
}

extension Int32: BinaryCodable {
  /// Writes the integer.
  @inlinable public func encode(to writer: inout BinaryWriter) { writer.int64(Int64(self)) }
  /// Reads an integer that fits.
  public init(from reader: inout BinaryReader) throws { self = try reader.integer(Int32.self) }
}

extension UInt64: BinaryCodable {
  /// Writes the integer.
  @inlinable public func encode(to writer: inout BinaryWriter) { writer.uint(self) }
  /// Reads an integer that fits.
  @inlinable public init(from reader: inout BinaryReader) throws { self = try reader.uint() }
}

extension UInt32: BinaryCodable {
  /// Writes the integer.
  @inlinable public func encode(to writer: inout BinaryWriter) { writer.uint(UInt64(self)) }
  /// Reads an integer that fits.
  public init(from reader: inout BinaryReader) throws { self = try reader.integer(UInt32.self) }
}

extension UInt: BinaryCodable {
  /// Writes the integer.
  @inlinable public func encode(to writer: inout BinaryWriter) { writer.uint(UInt64(self)) }
  /// Reads an integer that fits.
  public init(from reader: inout BinaryReader) throws { self = try reader.integer(UInt.self) }
}

extension Date: BinaryCodable {
  /// Writes the seconds since 2001-01-01, as ``BinaryEncoder`` writes a `Date`.
  @inlinable public func encode(to writer: inout BinaryWriter) {
    writer.double(timeIntervalSinceReferenceDate)
  }
  /// Reads the seconds since 2001-01-01.
  @inlinable public init(from reader: inout BinaryReader) throws {
    self.init(timeIntervalSinceReferenceDate: try reader.double())
  }
}

extension UUID: BinaryCodable {
  /// Writes the UUID as its string, as `Codable` does.
  @inlinable public func encode(to writer: inout BinaryWriter) { writer.string(uuidString) }
  /// Reads a UUID string.
  public init(from reader: inout BinaryReader) throws {
    let offset = reader.position
    guard let uuid = UUID(uuidString: try reader.string()) else {
      throw BinaryCodecError.mismatch(expected: "a UUID", found: "another string", offset: offset)
    }
    self = uuid
  }
}

extension Optional: BinaryCodable where Wrapped: BinaryCodable {
  /// Writes `nil`, or the value.
  @inlinable
  public func encode(to writer: inout BinaryWriter) {
    switch self {
    case .none: writer.null()
    case .some(let wrapped): writer.encode(wrapped)
    }
  }

  /// Reads `nil`, or a value.
  @inlinable
  public init(from reader: inout BinaryReader) throws {
    self = try reader.null() ? nil : try reader.decode(Wrapped.self)
  }
}

extension Array: BinaryCodable where Element: BinaryCodable {
  /// Writes the elements as an array.
  @inlinable
  public func encode(to writer: inout BinaryWriter) {
    writer.array(count: count)
    for element in self { writer.encode(element) }
  }

  /// Reads an array.
  @inlinable
  public init(from reader: inout BinaryReader) throws {
    let count = try reader.array()
    // No more reserved than a few elements' worth: the count of damaged bytes allocates nothing.
    self.init()
    reserveCapacity(Swift.min(count, 64))
    for _ in 0..<count { append(try reader.decode(Element.self)) }
  }
}
