import Foundation
import Rewind
import RewindLog
import RewindTestSupport
import Testing

@testable import RewindTool

/// What the tool shows of an event's recorded draws, and that its debugger replays them.
@Suite struct RecordedDrawToolTests {
  /// A log of three to-dos added, one toggled, written with live UUIDs and random numbers.
  private func writeTodoLog(_ directory: String) throws -> Todos.State {
    let store = try Store.open(
      directory: directory, initialState: Todos.State(), reducer: Todos(),
      options: FileJournalOptions(durability: .none, snapshotInterval: nil))
    for title in ["a", "b", "c"] { store.send(.add(title)) }
    store.send(.toggle(store.state.id(at: 1)))
    let state = store.state
    try store.close()
    return state
  }

  @Test func eventsAndShowListTheDraws() throws {
    let directory = TemporaryDirectory()
    let state = try writeTodoLog(directory.path)
    let first = try #require(state.todos.first)
    let events = runTool(["events", directory.path])
    #expect(events.status == 0, "\(events.errors)")
    let lines = events.output.split(separator: "\n")
    #expect(lines.count == 4)
    #expect(lines[0].contains("draws [{\"uuid\":\"\(first.id.uuidString)\"}"))
    #expect(!lines[3].contains("draws"), "the toggle drew nothing")

    let shown = runTool(["show", directory.path, "1", "--json"])
    #expect(shown.status == 0, "\(shown.errors)")
    let object = try #require(try parseJSON(shown.output) as? [String: Any])
    let draws = try #require(object["draws"] as? [[String: Any]])
    #expect(draws.first?["uuid"] as? String == first.id.uuidString)
    #expect(draws.last?["date"] as? Double == first.created.timeIntervalSinceReferenceDate)
  }

  @Test func theDebuggerReplaysTheRecordedValues() throws {
    let directory = TemporaryDirectory()
    let state = try writeTodoLog(directory.path)
    let debugger = RewindDebugger(reducer: Todos(), initialState: Todos.State())
    #expect(try debugger.state(at: 4, directory: directory.path) == state)
    #expect(try debugger.state(at: 1, directory: directory.path).todos.first == state.todos.first)
  }
}
