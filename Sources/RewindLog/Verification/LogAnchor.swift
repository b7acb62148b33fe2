/// A point of a log's hash chain kept outside the log: the sequence number of the last event of a frame
/// and the chain value after that frame.
///
/// The chain value commits to every byte of the log up to and including that frame, so a log that still
/// matches an anchor was neither changed nor cut short before it. Cutting off a log's tail leaves a shorter
/// chain that is valid on its own: only an anchor stored elsewhere (a server, another device, a keychain
/// item, a signed receipt) shows that events are missing. See ``LogAudit/verify(directory:key:anchor:progress:)``.
///
/// Its text form is `"<sequence>:<chain value in hexadecimal>"`, e.g. `"42:9f86d0…"`; `Codable` uses the
/// same string.
///
/// ```swift
/// try journal.flush()
/// if let anchor = journal.anchor { server.store(anchor.description) }
/// // later, anywhere:
/// let report = try LogAudit.verify(directory: path, anchor: LogAnchor(storedText))
/// ```
public struct LogAnchor: Sendable, Hashable, Codable, LosslessStringConvertible {
  /// The last event the anchor covers (the last event of its frame).
  public var sequence: UInt64
  /// The chain value after the frame that ends with ``sequence``.
  public var chain: SHA256.Digest

  /// Creates an anchor.
  public init(sequence: UInt64, chain: SHA256.Digest) {
    self.sequence = sequence
    self.chain = chain
  }

  /// Parses the text form `"<sequence>:<64 hexadecimal digits>"`; `nil` when it is not one.
  public init?(_ description: String) {
    let parts = description.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, let sequence = UInt64(parts[0]), sequence > 0,
      let bytes = [UInt8](hexadecimal: String(parts[1])), bytes.count == 32
    else { return nil }
    self.init(sequence: sequence, chain: SHA256.Digest(bytes: bytes))
  }

  /// `"<sequence>:<chain value in hexadecimal>"`.
  public var description: String { "\(sequence):\(chain)" }

  /// Decodes the text form.
  /// - Throws: `DecodingError.dataCorrupted` when the string is not an anchor.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let anchor = LogAnchor(text) else {
      throw DecodingError.dataCorruptedError(
        in: container,
        debugDescription: "\"\(text)\" is not a log anchor (expected \"<sequence>:<64 hex digits>\")")
    }
    self = anchor
  }

  /// Encodes the text form.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
