import Foundation
import RewindTesting
import Testing

@testable import RewindInspector

/// The protocol's JSON: what it writes it reads back; what it is given it refuses without trapping.
@Suite struct InspectorJSONTests {
  static func randomValue(_ random: inout SplitMix64, depth: Int = 0) -> InspectorJSON {
    switch Int.random(in: 0..<(depth > 3 ? 5 : 7), using: &random) {
    case 0: return .null
    case 1: return .bool(Bool.random(using: &random))
    case 2: return .integer(Int64.random(in: .min ... .max, using: &random))
    case 3: return .double(Double.random(in: -1e9...1e9, using: &random))
    case 4:
      let scalars = (0..<Int.random(in: 0...12, using: &random)).compactMap { _ in
        Unicode.Scalar(UInt32.random(in: 0...0x1_0FFF, using: &random))
      }
      return .string(String(String.UnicodeScalarView(scalars)))
    case 5:
      return .array(
        (0..<Int.random(in: 0...4, using: &random)).map { _ in randomValue(&random, depth: depth + 1) })
    default:
      return .object(
        (0..<Int.random(in: 0...4, using: &random)).map { index in
          ("k\(index)", randomValue(&random, depth: depth + 1))
        })
    }
  }

  @Test(arguments: [21 as UInt64, 22])
  func valuesRoundTripAndMutationsNeverTrap(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    for _ in 0..<2_000 {
      let value = Self.randomValue(&random)
      let bytes = value.bytes
      #expect(try InspectorJSON.parse(bytes) == value, "seed \(seed): \(value.text)")
      #expect(String(validating: bytes, as: UTF8.self) != nil)
      var mutated = bytes
      for _ in 0..<Int.random(in: 1...3, using: &random) where !mutated.isEmpty {
        let index = Int.random(in: 0..<mutated.count, using: &random)
        if Bool.random(using: &random) {
          mutated[index] = UInt8.random(in: 0...255, using: &random)
        } else {
          mutated = Array(mutated.prefix(index))
        }
      }
      _ = try? InspectorJSON.parse(mutated)
    }
  }

  @Test func whatIsRefused() {
    let refused = [
      "", "{", "[1,]", "{\"a\":1,}", "01", "1.", "-", "\"\\x\"", "\"\\ud800\"", "\"\\udc00x\"", "tru",
      "{\"a\" 1}",
      "{\"a\":1,\"a\":2}", "\"\u{01}\"", "1 2",
      String(repeating: "[", count: 65) + String(repeating: "]", count: 65),
    ]
    for text in refused {
      #expect(throws: InspectorJSONError.self, "\(text.prefix(20))") {
        try InspectorJSON.parse(Array(text.utf8))
      }
    }
    #expect(throws: InspectorJSONError.self) { try InspectorJSON.parse([0x22, 0xC3, 0x28, 0x22]) }
    #expect(throws: Never.self) {
      try InspectorJSON.parse(
        Array((String(repeating: "[", count: 64) + String(repeating: "]", count: 64)).utf8))
    }
    #expect((try? InspectorJSON.parse(Array("\"\\ud83d\\ude00\"".utf8))) == .string("😀"))
  }

  @Test func stringsAreSafeInHTMLAndOnATerminal() {
    let text = InspectorJSON.string("</script>&\u{2028}\u{202E}\u{7F}").text
    #expect(text == #""\u003c/script\u003e\u0026\u2028\u202e\u007f""#)
  }

  @Test func aTokenFileThatIsNotOneIsRefused() throws {
    let path = NSTemporaryDirectory() + "rewind-token-\(UUID().uuidString).json"
    defer { try? FileManager.default.removeItem(atPath: path) }
    for content in [
      "", "{}", #"{"protocol":"rewind-inspector","port":0,"token":"00"}"#,
      String(repeating: "x", count: 5_000),
    ] {
      try Data(content.utf8).write(to: URL(fileURLWithPath: path))
      chmod(path, 0o600)
      #expect(throws: TokenFileError.malformed(path)) { try TokenFile.read(from: path) }
      try FileManager.default.removeItem(atPath: path)
    }
    #expect(throws: TokenFileError.cannotRead(path)) { try TokenFile.read(from: path) }
  }
}
