import Foundation
import RewindLog
import RewindTestSupport
import Testing

@testable import RewindTool

@Suite struct JSONValueTests {
  @Test func serializedTextParsesBackToTheSameValues() throws {
    let value = JSONValue.object([
      ("text", .string(hostileText + "\"\\\n\t\u{01}é😀")), ("n", .int(-42)), ("d", .double(1.5)),
      ("b", .bool(true)),
      ("z", .null), ("a", .array([.int(1), .string("x")])), ("o", .object([])),
    ])
    for pretty in [false, true] {
      for forHTML in [false, true] {
        let parsed = try #require(
          try parseJSON(value.serialized(pretty: pretty, forHTML: forHTML)) as? [String: Any])
        #expect(parsed["text"] as? String == hostileText + "\"\\\n\t\u{01}é😀")
        #expect((parsed["n"] as? NSNumber)?.intValue == -42)
        #expect((parsed["d"] as? NSNumber)?.doubleValue == 1.5)
        #expect((parsed["a"] as? [Any])?.count == 2)
      }
    }
  }

  @Test func htmlFormHasNoAngleBracketsAmpersandsOrLineSeparators() {
    let text = JSONValue.array([.string(hostileText)]).serialized(forHTML: true)
    for forbidden in ["<", ">", "&", "\u{2028}"] { #expect(!text.contains(forbidden)) }
    #expect(text.contains("\\u003c/script\\u003e"))
  }

  @Test func keysKeepTheirOrder() {
    #expect(JSONValue.object([("z", .int(1)), ("a", .int(2))]).serialized() == #"{"z":1,"a":2}"#)
  }

  @Test func binaryTreesBecomeJSON() throws {
    let tree = try BinaryEncoder().encodeTree(Notes.State(items: ["a", "b"], removals: 3))
    #expect(JSONValue(tree).serialized() == #"{"items":["a","b"],"removals":3}"#)
  }

  @Test func stateChangesNamePaths() {
    let before = JSONValue.object([
      ("items", .array([.string("a"), .string("b")])), ("n", .int(1)), ("gone", .bool(true)),
    ])
    let after = JSONValue.object([
      ("items", .array([.string("a"), .string("c"), .string("d")])), ("n", .int(1)), ("new", .null),
    ])
    let lines = StateChange.between(before, after).map(\.line)
    #expect(lines == [#"~ items[1]: "b" → "c""#, #"+ items[2]: "d""#, "- gone: true", "+ new: null"])
    #expect(StateChange.between(after, after).isEmpty)
  }
}
