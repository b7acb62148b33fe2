import Foundation
import Rewind
import RewindLog
import RewindTestSupport
import Testing

@testable import RewindTool

/// The notes action as the app reads it now: `add` gained a `pinned` flag (schema version 2).
enum NoteV2: Codable, Sendable, VersionedAction {
  static var schemaVersion: UInt64 { 2 }
  case add(text: String, pinned: Bool)
  case remove(index: Int)
  case rename(index: Int, title: String)
  case clear
}

struct NotesV2: Reducer, Sendable {
  struct State: Codable, Sendable, Equatable {
    var items: [String] = []
    var pinned = 0
  }

  func reduce(into state: inout State, action: NoteV2) -> Effect<NoteV2> {
    switch action {
    case .add(let text, let pinned):
      state.items.append(text)
      if pinned { state.pinned += 1 }
    case .remove(let index): if state.items.indices.contains(index) { state.items.remove(at: index) }
    case .rename(let index, let title): if state.items.indices.contains(index) { state.items[index] = title }
    case .clear: state.items = []
    }
    return .none
  }
}

@Suite struct DebuggerUpcastingTests {
  /// Version 1 → 2: `add(String)` becomes `add(text:pinned:)`; the other cases did not change.
  static var upcasters: EventUpcasters {
    var upcasters = EventUpcasters()
    upcasters.register("add", from: 1) { action in
      .keyed([
        .init(
          key: "add",
          value: .keyed([
            .init(key: "text", value: action[path: "add", "_0"] ?? .null),
            .init(key: "pinned", value: .bool(false)),
          ]))
      ])
    }
    upcasters.registerUnchanged(["remove", "rename", "clear"], from: 1)
    return upcasters
  }

  @Test func olderEventsAreUpcastBeforeTheReducerSeesThem() throws {
    let directory = TemporaryDirectory()
    let fixture = try writeFixtureLog(directory.path, count: 25)
    let debugger = RewindDebugger(
      reducer: NotesV2(), initialState: NotesV2.State(), upcasters: Self.upcasters)
    for sequence: UInt64 in [0, 8, 11, 17, 25] {
      let state = try debugger.state(at: sequence, directory: directory.path)
      #expect(state.items == fixture.states[Int(sequence)].items, "event \(sequence)")
      #expect(state.pinned == 0)
    }
    // Without the upcasters, version 1 events do not decode, and the error names the event and the step.
    let strict = RewindDebugger(reducer: NotesV2(), initialState: NotesV2.State())
    let result = runTool(["state-at", directory.path, "3"], tool: strict.commandLine)
    #expect(result.status == 1)
    #expect(result.errors.contains("no upcaster for event type \"add\" from schema version 1"))
    #expect(result.errors.contains("event 1"))
  }
}
