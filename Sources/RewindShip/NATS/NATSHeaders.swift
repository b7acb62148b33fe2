/// The header block of a NATS message: `NATS/1.0`, an optional status (`503 No Responders`), and
/// `Name: value` fields in order. Names are compared exactly, as nats-server does.
public struct NATSHeaders: Sendable, Hashable {
  /// One `Name: value` line.
  public struct Field: Sendable, Hashable {
    /// The field's name.
    public var name: String
    /// The field's value.
    public var value: String

    /// Creates a field.
    public init(_ name: String, _ value: String) {
      self.name = name
      self.value = value
    }
  }

  /// The status code of a status message (`NATS/1.0 503`), if any.
  public var status: Int?
  /// The text after the status code, if any.
  public var statusDescription: String?
  /// The fields, in order.
  public var fields: [Field]

  /// Creates a header block.
  public init(fields: [Field] = [], status: Int? = nil, statusDescription: String? = nil) {
    self.fields = fields
    self.status = status
    self.statusDescription = statusDescription
  }

  /// The first value of field `name`.
  public subscript(name: String) -> String? { fields.first { $0.name == name }?.value }

  /// The bytes of the block, ending with the empty line. Names and values must not hold CR or LF (the
  /// shipper escapes what it takes from a log).
  public var encoded: [UInt8] {
    var bytes = Array("NATS/1.0".utf8)
    if let status {
      bytes += Array(" \(status)".utf8)
      if let statusDescription { bytes += Array(" \(statusDescription)".utf8) }
    }
    bytes += [13, 10]
    for field in fields {
      bytes += Array(field.name.utf8)
      bytes += [58, 32]
      bytes += Array(field.value.utf8)
      bytes += [13, 10]
    }
    bytes += [13, 10]
    return bytes
  }

  /// Parses a header block (the first `hdrlen` bytes of an `HMSG`).
  /// - Throws: ``NATSProtocolError/malformedHeaders(_:)``.
  public static func parse(_ bytes: ArraySlice<UInt8>) throws(NATSProtocolError) -> NATSHeaders {
    var lines: [ArraySlice<UInt8>] = []
    var start = bytes.startIndex
    var index = bytes.startIndex
    while index < bytes.endIndex {
      if bytes[index] == 13 {
        guard index + 1 < bytes.endIndex, bytes[index + 1] == 10 else {
          throw .malformedHeaders("a CR not followed by LF")
        }
        lines.append(bytes[start..<index])
        index += 2
        start = index
      } else if bytes[index] == 10 {
        throw .malformedHeaders("a bare LF")
      } else {
        index += 1
      }
    }
    guard start == bytes.endIndex else { throw .malformedHeaders("the block does not end with CR LF") }
    guard lines.count >= 2, let last = lines.last, last.isEmpty else {
      throw .malformedHeaders("the block does not end with an empty line")
    }
    var headers = NATSHeaders()
    let version = Array("NATS/1.0".utf8)
    let first = lines[0]
    guard first.starts(with: version) else { throw .malformedHeaders("no NATS/1.0 version line") }
    let rest = first.dropFirst(version.count)
    if !rest.isEmpty {
      guard rest.first == 32, let text = String(validating: rest.dropFirst(), as: UTF8.self) else {
        throw .malformedHeaders("a status line that is not text")
      }
      let parts = text.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
      guard let code = parts.first, code.count == 3, let status = Int(code), status >= 100 else {
        throw .malformedHeaders("a status that is not a 3-digit code")
      }
      headers.status = status
      if parts.count == 2 { headers.statusDescription = String(parts[1]) }
    }
    for line in lines.dropFirst().dropLast() {
      guard !line.isEmpty else { throw .malformedHeaders("an empty line before the end of the block") }
      guard let colon = line.firstIndex(of: 58), colon > line.startIndex else {
        throw .malformedHeaders("a field without a name and a colon")
      }
      let nameBytes = line[line.startIndex..<colon]
      guard nameBytes.allSatisfy({ $0 > 32 && $0 < 127 }) else {
        throw .malformedHeaders("a field name with spaces or control characters")
      }
      var valueBytes = line[(colon + 1)...]
      while let space = valueBytes.first, space == 32 || space == 9 { valueBytes = valueBytes.dropFirst() }
      guard let value = String(validating: valueBytes, as: UTF8.self) else {
        throw .malformedHeaders("a field value that is not UTF-8")
      }
      headers.fields.append(Field(String(decoding: nameBytes, as: UTF8.self), value))
    }
    return headers
  }
}
