import Foundation
import Rewind
import RewindTestSupport
import Testing

@testable import RewindInspector

/// The commands, against a running store: what the app shows and records after each.
@Suite(.timeLimit(.minutes(1))) struct InspectorCommandTests {
  @Test func sendsStreamAsEventsWithTheirFullTypeAndChangesByPath() throws {
    let (store, inspector) = try makeInspectedStore()
    defer { inspector.stop() }
    let client = try TestClient.connect(to: inspector)
    _ = try client.attach(to: inspector)
    store.send(.row(IdentifiedAction(id: 2, action: .rename("renamed"))))
    store.send(.increment, from: .user(actor: "alice"))
    try client.waitForEvents(through: 5)
    let events = client.events
    #expect(events.map { $0["seq"]?.unsignedValue } == [1, 2, 3, 4, 5])
    let rename = events[3]
    #expect(rename["type"] == .string("row.rename"))
    #expect(rename["kind"] == .string("action"))
    #expect(rename["source"] == .string("user"))
    #expect(
      rename["changes"]
        == .array([
          .object([
            ("op", .string("set")), ("path", .string("notes[id=2].text")), ("old", .string("note 2")),
            ("new", .string("renamed")),
          ])
        ]))
    #expect(events[4]["actor"] == .string("alice"))
    #expect(events[4]["changes"]?.arrayValue?.first?["path"] == .string("count"))
    #expect(events[0]["changes"]?.arrayValue?.first?["op"] == .string("insert"))
    #expect(events[0]["changes"]?.arrayValue?.first?["path"] == .string("notes[id=1]"))
  }

  @Test func aJumpShowsThePastAndHoldsSendsUntilLive() throws {
    let (store, inspector) = try makeInspectedStore()
    defer { inspector.stop() }
    let client = try TestClient.connect(to: inspector)
    _ = try client.attach(to: inspector)
    #expect(try client.perform(.jump(to: 1))["shown"] == .integer(1))
    #expect(store.state.notes.count == 1, "views read the state as of event 1")
    #expect(inspector.mode == .past(at: 1))
    store.send(.add("while looking back"))
    #expect(store.sequence == 3, "the app's send is held")
    #expect(try client.perform(.jump(to: 2))["ok"] == .bool(true))
    #expect(store.state.notes.count == 2)
    let live = try client.perform(.live)
    #expect(live["applied"] == .integer(1))
    #expect(store.sequence == 4)
    #expect(store.state.notes.count == 4)
    #expect(inspector.mode == .live)
    #expect(try client.perform(.jump(to: 99))["error"] == .string("range"))
  }

  @Test func skipFlagsLaterEventsWhoseOutcomeChanged() throws {
    let (store, inspector) = try makeInspectedStore(notes: 0)
    defer { inspector.stop() }
    store.send(.add("a"))  // 1: note 1
    store.send(.setTitle("x"))  // 2
    store.send(.note(id: 1, edit: .toggle))  // 3: depends on 1
    store.send(.increment)  // 4: does not
    let client = try TestClient.connect(to: inspector)
    _ = try client.attach(to: inspector)
    let reply = try client.perform(.skip(1))
    #expect(reply["changed"] == .array([.integer(3)]))
    #expect(reply["checkedThrough"] == .integer(4))
    #expect(store.state.notes.isEmpty, "the app shows the state without event 1")
    #expect(store.state.count == 1)
    #expect(inspector.mode == .paused(at: 4))
    #expect(try client.perform(.unskip(1))["changed"] == .array([]))
    #expect(store.state.notes.count == 1)
    try client.perform(.live)
    #expect(store.state.notes.count == 1)
    #expect(store.sequence == 4, "nothing was recorded")
  }

  @Test func dispatchDecodesWithTheAppsCodecAndOnlyAllowedTypes() throws {
    let (store, inspector) = try makeInspectedStore(allowing: ["setTitle", "note.toggle"])
    defer { inspector.stop() }
    let client = try TestClient.connect(to: inspector)
    _ = try client.attach(to: inspector)
    let title = try InspectorJSON.parse(Array(#"{"setTitle":{"_0":"from the tool"}}"#.utf8))
    let sent = try client.perform(.dispatch(title))
    #expect(sent["ok"] == .bool(true), "\(sent.text)")
    #expect(sent["actionType"] == .string("setTitle"))
    #expect(store.state.title == "from the tool")
    let event = try store.events(in: store.sequence...store.sequence)[0]
    #expect(event.metadata.actor == "inspector")

    let refused = try client.perform(.dispatch(try InspectorJSON.parse(Array(#"{"increment":{}}"#.utf8))))
    #expect(refused["error"] == .string("not-allowed"))
    #expect(refused["reason"]?.stringValue?.contains("increment is not an action type") == true)
    let rename = try InspectorJSON.parse(Array(#"{"note":{"id":1,"edit":{"rename":{"_0":"x"}}}}"#.utf8))
    #expect(try client.perform(.dispatch(rename))["error"] == .string("not-allowed"), "only note.toggle")
    let garbage = try client.perform(.dispatch(.object([("nope", .null)])))
    #expect(garbage["error"] == .string("decode"))
    let before = store.sequence
    try client.perform(.pause)
    #expect(try client.perform(.dispatch(title))["error"] == .string("not-live"))
    #expect(store.sequence == before, "nothing refused is recorded")
  }

  @Test func undoAndRedoAreRecordedAsTheTools() throws {
    let (store, inspector) = try makeInspectedStore()
    defer { inspector.stop() }
    let client = try TestClient.connect(to: inspector)
    _ = try client.attach(to: inspector)
    #expect(try client.perform(.undo)["ok"] == .bool(true))
    #expect(store.state.notes.count == 2)
    #expect(try client.perform(.redo)["ok"] == .bool(true))
    #expect(store.state.notes.count == 3)
    #expect(try client.perform(.redo)["error"] == .string("nothing"))
    let events = try store.events(in: 4...5)
    #expect(events.map(\.metadata.actor) == ["inspector", "inspector"])
  }

  @Test func eventsAndStateArePaged() throws {
    let (store, inspector) = try makeInspectedStore(notes: 1_200)
    defer { inspector.stop() }
    let client = try TestClient.connect(to: inspector)
    _ = try client.attach(to: inspector, from: 1_201)
    let page = try client.perform(.events(from: 1, to: 1_200, changes: true))
    #expect(page["events"]?.arrayValue?.count == 500)
    #expect(page["next"] == .integer(501))
    let state = try client.perform(.state(at: 1_000, path: "notes", offset: 990, limit: 20, skipped: false))
    let node = state["node"]
    #expect(node?["count"] == .integer(1_000))
    #expect(node?["children"]?.arrayValue?.count == 10)
    #expect(node?["children"]?.arrayValue?.first?["path"] == .string("notes[id=991]"))
    let leaf = try client.perform(
      .state(at: 5, path: "notes[id=5].text", offset: 0, limit: 10, skipped: false))
    #expect(leaf["node"]?["value"] == .string("note 5"))
    #expect(
      try client.perform(.state(at: 5, path: "notes[id=77]", offset: 0, limit: 10, skipped: false))["error"]
        == .string("path"))
    #expect(
      try client.perform(.state(at: 5, path: "[[", offset: 0, limit: 10, skipped: false))["error"]
        == .string("path"))
    #expect(store.sequence == 1_200)
  }

  @Test func aSlowClientGetsAGapAndFetchesIt() throws {
    let (store, inspector) = try makeInspectedStore(notes: 0)
    defer { inspector.stop() }
    // A client that asks for the history from event 1 when it is more than maxLag events long: the app
    // never builds a backlog for it, it sends a gap and streams on from the newest event.
    let total = Int(InspectorSession<Notes.State, Notes.Action>.maxLag) + 1_000
    for _ in 0..<total { store.send(.increment) }
    let client = try TestClient.connect(to: inspector)
    _ = try client.attach(to: inspector, from: 1)
    for _ in 0..<10 { store.send(.increment) }
    try client.waitForCoverage(through: UInt64(total + 10))
    #expect(client.gaps.count == 1)
    #expect(client.gaps.first?.0 == 1)
    var received = Set(client.events.compactMap { $0["seq"]?.unsignedValue })
    for (from, to) in client.gaps {
      var next: UInt64? = from
      while let start = next {
        let page = try client.perform(.events(from: start, to: to, changes: false))
        received.formUnion(page["events"]?.arrayValue?.compactMap { $0["seq"]?.unsignedValue } ?? [])
        next = page["next"]?.unsignedValue
      }
    }
    #expect(received == Set(1...UInt64(total + 10)), "nothing is dropped silently")
  }

  @Test func theAppReturnsToLiveWhenTheToolLeavesOrTheQueueFills() async throws {
    let (store, inspector) = try makeInspectedStore(queueLimit: 5)
    defer { inspector.stop() }
    var client = try TestClient.connect(to: inspector)
    _ = try client.attach(to: inspector)
    try client.perform(.jump(to: 1))
    for _ in 0..<6 { store.send(.increment) }
    #expect(inspector.mode == .live, "the sixth send overflowed the queue of five")
    #expect(store.state.count == 6)
    let status = try client.read {
      $0["type"]?.stringValue == "status" && $0["reason"] == .string("queue-full")
    }
    #expect(status["mode"] == .string("live"))

    try client.perform(.pause)
    store.send(.increment)
    client.socket.shutdown()
    #expect(await eventually { inspector.mode == .live && !inspector.isAttached })
    #expect(store.state.count == 7)
    client = try TestClient.connect(to: inspector)
    _ = try client.attach(to: inspector)
  }
}
