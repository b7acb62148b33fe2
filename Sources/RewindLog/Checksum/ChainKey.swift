/// The secret that keys a log's hash chain: each frame's chain value becomes
/// `HMAC-SHA-256(key, previous chain ‖ frame bytes)`, so nobody without the key can recompute the chain
/// after changing the log.
///
/// Set it in ``FileJournalOptions/chainKey``. The log records that it is keyed (and a check value derived
/// from the key) in every segment header; opening it without the key, or with another key, fails with
/// ``FileJournalError/keyRequired(segment:)`` or ``FileJournalError/wrongKey(segment:)``. Keep the key
/// outside the log directory (a keychain, a secrets store): whoever holds it can rewrite the chain.
///
/// The key's bytes never appear in `description`, `debugDescription` or a `Mirror`.
public struct ChainKey: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
  CustomReflectable
{
  /// Why bytes cannot be a key.
  public enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
    /// Fewer bytes than ``ChainKey/minimumLength``.
    case tooShort(length: Int)
    /// The text given to ``ChainKey/init(hex:)`` is not an even number of hexadecimal digits.
    case notHexadecimal

    public var description: String {
      switch self {
      case .tooShort(let length):
        "a chain key needs at least \(ChainKey.minimumLength) bytes; this one has \(length)"
      case .notHexadecimal: "a chain key in text form must be an even number of hexadecimal digits"
      }
    }
  }

  /// The shortest key accepted: 16 bytes (128 bits). 32 random bytes are recommended.
  public static let minimumLength = 16

  let bytes: [UInt8]
  /// The MAC with the key's pads already hashed, copied for every chain step.
  let mac: HMACSHA256

  /// A key of `bytes` (at least ``minimumLength``).
  /// - Throws: ``Problem/tooShort(length:)``.
  public init(bytes: some Collection<UInt8>) throws(Problem) {
    guard bytes.count >= Self.minimumLength else { throw .tooShort(length: bytes.count) }
    self.bytes = Array(bytes)
    mac = HMACSHA256(key: self.bytes)
  }

  /// A key written as hexadecimal digits, e.g. read from an environment variable.
  /// - Throws: ``Problem/notHexadecimal`` or ``Problem/tooShort(length:)``.
  public init(hex: String) throws(Problem) {
    guard let bytes = [UInt8](hexadecimal: hex) else { throw .notHexadecimal }
    try self.init(bytes: bytes)
  }

  /// A new random 32-byte key from the system's secure random source.
  public static func random() -> ChainKey {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    // 32 bytes always pass the length check.
    return ChainKey(unchecked: bytes)
  }

  init(unchecked bytes: [UInt8]) {
    self.bytes = bytes
    mac = HMACSHA256(key: bytes)
  }

  /// The key's bytes as lowercase hexadecimal, to store it in a secrets store.
  public var hexadecimal: String { bytes.hexadecimal }

  /// `HMAC-SHA-256(key, parts…)`.
  func authenticate(_ parts: ArraySlice<UInt8>...) -> SHA256.Digest {
    var mac = self.mac
    for part in parts { mac.update(part) }
    return mac.finalize()
  }

  /// The value a keyed segment header stores so that a wrong key is recognised before any frame is read.
  func checkValue(logID: [UInt8]) -> SHA256.Digest {
    authenticate(ArraySlice("rewind-key-check".utf8), logID[...])
  }

  /// Whether two keys have the same bytes.
  public static func == (lhs: ChainKey, rhs: ChainKey) -> Bool { lhs.bytes == rhs.bytes }
  /// Hashes the key's bytes.
  public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }

  /// "ChainKey(32 bytes)": never the bytes.
  public var description: String { "ChainKey(\(bytes.count) bytes)" }
  /// The same as ``description``.
  public var debugDescription: String { description }
  /// No children, so `dump` and reflection show no key material.
  public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension Array where Element == UInt8 {
  /// Parses an even number of hexadecimal digits (either case); `nil` for anything else.
  init?(hexadecimal text: String) {
    let digits = Array(text.utf8)
    guard digits.count % 2 == 0 else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(digits.count / 2)
    var index = 0
    while index < digits.count {
      guard let high = Self.nibble(digits[index]), let low = Self.nibble(digits[index + 1]) else {
        return nil
      }
      bytes.append(high << 4 | low)
      index += 2
    }
    self = bytes
  }

  private static func nibble(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  /// Lowercase hexadecimal.
  var hexadecimal: String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(count * 2)
    for byte in self {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: out, as: UTF8.self)
  }
}
