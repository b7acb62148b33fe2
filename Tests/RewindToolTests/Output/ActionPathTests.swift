import Foundation
import Rewind
import RewindLog
import RewindTestSupport
import Testing

@testable import RewindTool

/// `rewind events` names an action's case as Swift does, from the recorded JSON or binary payload, the same
/// way replay names it by reflection: `remove(index:)`, not `remove.index`.
@Suite struct ActionPathTests {
  enum Row: Codable, Sendable, Equatable { case began(x: Int), ended, tapped }
  struct Addressed: Codable, Sendable, Equatable {
    var id: Int
    var action: Row
  }
  enum Filter: Codable, Sendable, Equatable { case all, starred }
  enum Shelf: Codable, Sendable, Equatable {
    case add(String)
    case remove(index: Int)
    case move(Int, to: Int)
    case select(tab: Filter)
    case row(Addressed)
    case list(Row)
    case pair(Int, Row)
    case clear
  }

  /// Each action and the path both `events` and replay show for it.
  static let cases: [(Shelf, String)] = [
    (.add("a"), "add"),
    (.remove(index: 3), "remove(index:)"),
    (.move(1, to: 2), "move(_:to:)"),
    // A labelled value that is itself an enum is an argument, not a nested case.
    (.select(tab: .starred), "select(tab:)"),
    (.row(Addressed(id: 7, action: .began(x: 2))), "row.began(x:)"),
    (.list(.ended), "list.ended"),
    (.list(.began(x: 1)), "list.began(x:)"),
    (.pair(4, .tapped), "pair.tapped"),
    (.clear, "clear"),
  ]

  @Test(arguments: [EventCodec.json, .binary])
  func eventsShowSwiftCaseNames(codec: EventCodec) throws {
    let directory = TemporaryDirectory()
    let journal = try FileJournal<Shelf>(
      directory: directory.path, options: FileJournalOptions(durability: .none, codec: codec))
    for (index, (action, _)) in Self.cases.enumerated() {
      try journal.append(
        Event(
          sequence: UInt64(index + 1), timestamp: Date(timeIntervalSince1970: 1_700_000_000),
          metadata: EventMetadata(actor: "t", source: .user, correlationID: CorrelationID(rawValue: 1)),
          action: action))
    }
    try journal.close()
    let json = runTool(["events", directory.path, "--json"])
    #expect(json.status == 0, "\(json.errors)")
    let paths = json.output.split(separator: "\n").compactMap { line -> String? in
      guard let data = line.data(using: .utf8),
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
      else { return nil }
      return object["path"] as? String
    }
    #expect(paths == Self.cases.map(\.1), "codec \(codec)")
    let text = runTool(["events", directory.path])
    for (index, (_, path)) in Self.cases.enumerated() {
      #expect(text.output.contains("#\(index + 1)  2023-11-14T22:13:20Z  \(path)  user"), "\(text.output)")
    }
  }

  @Test func replayNamesCasesTheSameWay() {
    for (action, path) in Self.cases { #expect(ActionCasePath.of(action) == path) }
    #expect(ActionCasePath.of(HistoryCommand.undo(to: 3)) == "undo(to:)")
  }

  /// `JSONEncoder` writes an object's keys in hash order, which changes from run to run: a JSON payload's
  /// labels are put in one order whatever order they were written in (this made the JSON case flaky:
  /// `move(to:_:)` in some runs).
  @Test func aJSONPayloadsLabelsHaveOneOrderWhateverTheirWrittenOrder() {
    let written: [[(String, JSONValue)]] = [
      [("_0", .number("1")), ("to", .number("2"))], [("to", .number("2")), ("_0", .number("1"))],
    ]
    for arguments in written {
      let path = ActionPathReader.path(of: .object([("move", .object(arguments))]), keysInOrder: false)
      #expect(path == "move(_:to:)")
    }
    let labels = ["_1", "title", "index"]
    for first in labels {
      for second in labels where second != first {
        let third = labels.first { $0 != first && $0 != second } ?? ""
        let arguments = [first, second, third].map { ($0, JSONValue.number("0")) }
        let path = ActionPathReader.path(of: .object([("edit", .object(arguments))]), keysInOrder: false)
        #expect(path == "edit(index:_:title:)", "written \([first, second, third])")
      }
    }
  }

  @Test func positionalKeys() {
    #expect(ActionPathReader.isPositional("_0") && ActionPathReader.isPositional("_12"))
    #expect(!ActionPathReader.isPositional("_") && !ActionPathReader.isPositional("_a"))
    #expect(!ActionPathReader.isPositional("index"))
    // Digits of other kinds (superscript two, Arabic-Indic three) are not positions.
    #expect(!ActionPathReader.isPositional("_\u{B2}") && !ActionPathReader.isPositional("_\u{663}"))
    #expect(ActionPathReader.path(of: .number("3")) == nil)
  }
}
