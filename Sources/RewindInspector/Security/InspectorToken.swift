/// The inspector's per-run secret: 256 random bits from the system's generator, shown as 64 hexadecimal
/// digits.
public struct InspectorToken: Sendable, Equatable, CustomStringConvertible {
  /// The secret's bytes.
  let bytes: [UInt8]

  /// The number of random bytes in a token.
  public static var byteCount: Int { 32 }

  /// A new token from `SystemRandomNumberGenerator` (`getrandom`/`arc4random`).
  public static func random() -> InspectorToken {
    var generator = SystemRandomNumberGenerator()
    return InspectorToken(
      bytes: (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
  }

  /// A token from its hexadecimal text; `nil` unless it is 64 hexadecimal digits.
  public init?(hexadecimal text: String) {
    guard let bytes = Self.decodeHex(text), bytes.count == Self.byteCount else { return nil }
    self.bytes = bytes
  }

  init(bytes: [UInt8]) { self.bytes = bytes }

  /// The token as 64 lowercase hexadecimal digits.
  public var hexadecimal: String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// Never the secret itself.
  public var description: String { "InspectorToken(\(bytes.count * 8) bits)" }

  /// Whether `text` is this token, compared in constant time: every byte is looked at whatever differs,
  /// and text of the wrong length or with other characters is compared against the token all the same.
  public func matches(_ text: String) -> Bool {
    let candidate = Array(text.utf8.prefix(Self.byteCount * 2 + 1))
    var difference = UInt8(candidate.count == Self.byteCount * 2 ? 0 : 1)
    let expected = Array(hexadecimal.utf8)
    for index in 0..<expected.count {
      let byte = index < candidate.count ? candidate[index] : 0
      difference |= byte ^ expected[index]
    }
    return difference == 0
  }

  static func decodeHex(_ text: String) -> [UInt8]? {
    let utf8 = Array(text.utf8)
    guard utf8.count % 2 == 0 else { return nil }
    var bytes: [UInt8] = []
    var index = 0
    while index < utf8.count {
      guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
      bytes.append(high << 4 | low)
      index += 2
    }
    return bytes
  }

  static func nibble(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: byte - 0x30
    case 0x61...0x66: byte - 0x61 + 10
    case 0x41...0x46: byte - 0x41 + 10
    default: nil
    }
  }
}
