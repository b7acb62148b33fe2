import Foundation
import Rewind
import RewindTestSupport
import Testing

@testable import RewindLog

/// The notes actions as version 1 shipped them.
enum NotesV1: Codable, Sendable {
  case add(String)
  case remove(index: Int)
  case clear
}

/// Version 2: `add` gained a flag and labels; `remove` was renamed `delete`.
enum NotesV2: Codable, Sendable, VersionedAction {
  static var schemaVersion: UInt64 { 2 }
  case add(text: String, pinned: Bool)
  case delete(index: Int)
  case clear
}

/// Version 3, what the app reads now: `add`'s text became a title.
enum NotesV3: Codable, Sendable, Equatable, VersionedAction {
  static var schemaVersion: UInt64 { 3 }
  case add(title: String, pinned: Bool)
  case delete(index: Int)
  case clear
}

/// An old action type with a case that later versions dropped.
enum NotesWithArchive: Codable, Sendable {
  case add(String)
  case archive(index: Int)
}

struct NotesV3Reducer: Reducer {
  struct State: Codable, Sendable, Equatable {
    var titles: [String] = []
    var pinned = 0
  }

  func reduce(into state: inout State, action: NotesV3) -> Effect<NotesV3> {
    switch action {
    case .add(let title, let pinned):
      state.titles.append(title)
      if pinned { state.pinned += 1 }
    case .delete(let index): if state.titles.indices.contains(index) { state.titles.remove(at: index) }
    case .clear: state.titles = []
    }
    return .none
  }
}

@Suite struct UpcastingTests {
  static func upcasters(throughVersion3: Bool = true) -> EventUpcasters {
    var upcasters = EventUpcasters()
    upcasters.register("add", from: 1) { action in
      guard let text = action[path: "add", "_0"] else { throw UpcastProblem.missing("add._0") }
      return .keyed([
        .init(
          key: "add",
          value: .keyed([.init(key: "text", value: text), .init(key: "pinned", value: .bool(false))]))
      ])
    }
    upcasters.register("remove", from: 1, renamedTo: "delete") { action in
      guard let index = action[path: "remove", "index"] else { throw UpcastProblem.missing("remove.index") }
      return .keyed([.init(key: "delete", value: .keyed([.init(key: "index", value: index)]))])
    }
    upcasters.registerUnchanged(["clear"], from: 1)
    guard throughVersion3 else { return upcasters }
    upcasters.register("add", from: 2) { action in
      guard case .keyed(var fields)? = action["add"],
        let index = fields.firstIndex(where: { $0.key == "text" })
      else {
        throw UpcastProblem.missing("add.text")
      }
      fields[index].key = "title"
      return .keyed([.init(key: "add", value: .keyed(fields))])
    }
    upcasters.registerUnchanged(["delete", "clear"], from: 2)
    return upcasters
  }

  enum UpcastProblem: Error { case missing(String) }

  static func metadata(_ sequence: UInt64) -> EventMetadata {
    EventMetadata(actor: "alice", source: .user, correlationID: CorrelationID(rawValue: sequence))
  }

  static func stamp(_ sequence: UInt64) -> Date {
    Date(timeIntervalSince1970: 1_700_000_000 + Double(sequence))
  }

  /// Events 1–5 written by version 1, 6–9 by version 2 (including history commands).
  func writeOldLog(in directory: String, codec: EventCodec) throws {
    let options = FileJournalOptions(durability: .immediate, codec: codec)
    let old = try FileJournal<NotesV1>(directory: directory, options: options)
    let v1: [NotesV1] = [.add("milk"), .add("eggs"), .add("tea"), .remove(index: 0), .add("jam")]
    for (offset, action) in v1.enumerated() {
      let sequence = UInt64(offset + 1)
      try old.append(
        Event(
          sequence: sequence, timestamp: Self.stamp(sequence), metadata: Self.metadata(sequence),
          action: action))
    }
    try old.close()
    let newer = try FileJournal<NotesV2>(directory: directory, options: options)
    let v2: [EventPayload<NotesV2>] = [
      .command(.beginTransaction(name: "pin")), .action(.add(text: "bread", pinned: true)),
      .command(.endTransaction),
      .action(.delete(index: 1)),
    ]
    for (offset, payload) in v2.enumerated() {
      let sequence = UInt64(offset + 6)
      try newer.append(
        Event(
          sequence: sequence, timestamp: Self.stamp(sequence), metadata: Self.metadata(sequence),
          payload: payload))
    }
    try newer.close()
  }

  @Test(arguments: EventCodec.allCases) func anOldLogIsReadThroughTheChainOfUpcasters(_ codec: EventCodec)
    throws
  {
    let directory = TemporaryDirectory()
    try writeOldLog(in: directory.path, codec: codec)
    let journal = try FileJournal<NotesV3>(directory: directory.path, upcasters: Self.upcasters())
    let actions = try journal.events(in: 1...9).compactMap(\.action)
    #expect(
      actions == [
        .add(title: "milk", pinned: false), .add(title: "eggs", pinned: false),
        .add(title: "tea", pinned: false),
        .delete(index: 0), .add(title: "jam", pinned: false), .add(title: "bread", pinned: true),
        .delete(index: 1),
      ])
    #expect(try journal.events(in: 6...6).first?.command == .beginTransaction(name: "pin"))
    #expect(try journal.events(in: 1...1).first?.metadata == Self.metadata(1))
    #expect(try journal.events(in: 2...2).first?.timestamp == Self.stamp(2))
    try journal.close()

    // Store.open replays through the upcasters, and keeps appending at version 3.
    let store = try Store.open(
      directory: directory.path, initialState: NotesV3Reducer.State(), reducer: NotesV3Reducer(),
      options: FileJournalOptions(codec: codec), upcasters: Self.upcasters())
    // milk, eggs, tea; delete 0; jam; bread (pinned); delete 1.
    #expect(store.state == NotesV3Reducer.State(titles: ["eggs", "jam", "bread"], pinned: 1))
    store.send(.add(title: "honey", pinned: false))
    try (store.journal as? FileJournal<NotesV3>)?.close()
    let reopened = try FileJournal<NotesV3>(directory: directory.path, upcasters: Self.upcasters())
    #expect(try reopened.events(in: 10...10).first?.action == .add(title: "honey", pinned: false))
    #expect(try reopened.inspect(from: 10).first?.schemaVersion == 3)
    try reopened.close()
  }

  func expectError(
    _ directory: String, _ upcasters: EventUpcasters, _ check: (FileJournalError) -> Bool
  ) throws {
    let journal = try FileJournal<NotesV3>(directory: directory, upcasters: upcasters)
    defer { try? journal.close() }
    do {
      _ = try journal.events(in: 1...9)
      Issue.record("read without an error")
    } catch let error as FileJournalError {
      #expect(check(error), "\(error)")
    }
  }

  @Test func aVersionWithNoUpcasterIsAnErrorNamingTypeVersionAndPlace() throws {
    let directory = TemporaryDirectory()
    try writeOldLog(in: directory.path, codec: .binary)
    try expectError(directory.path, Self.upcasters(throughVersion3: false)) { error in
      let place = EventLocation(sequence: 1, segment: "segment-00000000000000000001.log", offset: 76)
      return error == .noUpcastPath("add", from: 1, to: 3, missingStep: 2, at: place)
        && error.description.contains("\"add\"") && error.description.contains("event 1")
    }
    try expectError(directory.path, EventUpcasters()) { error in
      guard let place = error.location.flatMap(EventLocation.init) else { return false }
      return error == .noUpcastPath("add", from: 1, to: 3, missingStep: 1, at: place)
    }
  }

  @Test func anUnknownTypeIsAnErrorNamingItAndItsPlace() throws {
    let directory = TemporaryDirectory()
    let old = try FileJournal<NotesWithArchive>(
      directory: directory.path, options: FileJournalOptions(durability: .immediate))
    for (index, action) in [NotesWithArchive.add("a"), .archive(index: 0)].enumerated() {
      let sequence = UInt64(index + 1)
      try old.append(
        Event(
          sequence: sequence, timestamp: Self.stamp(sequence), metadata: Self.metadata(sequence),
          action: action))
    }
    try old.close()
    // Read at the same version: the case is simply unknown.
    let sameVersion = try FileJournal<NotesV1>(directory: directory.path)
    do {
      _ = try sameVersion.events(in: 1...2)
      Issue.record("an unknown case decoded")
    } catch let error as FileJournalError {
      guard error.code == .unknownEventType, error.eventType == "archive", error.schemaVersion == 1 else {
        throw error
      }
      #expect(error.location?.sequence == 2 && error.location?.segment == "segment-00000000000000000001.log")
    }
    try sameVersion.close()
    // Read after upcasting: still unknown, named with the version it was read as.
    var upcasters = Self.upcasters()
    upcasters.registerUnchanged(["archive"], from: 1)
    upcasters.registerUnchanged(["archive"], from: 2)
    try expectError(directory.path, upcasters) { error in
      error.code == .unknownEventType && error.eventType == "archive" && error.schemaVersion == 3
        && error.location?.sequence == 2
    }
  }

  @Test func aNewerVersionAndAFailingUpcasterAreErrors() throws {
    let directory = TemporaryDirectory()
    let newer = try FileJournal<NotesV3>(
      directory: directory.path, options: FileJournalOptions(durability: .immediate))
    try newer.append(Event(sequence: 1, timestamp: Self.stamp(1), metadata: Self.metadata(1), action: .clear))
    try newer.close()
    let older = try FileJournal<NotesV2>(directory: directory.path)
    do {
      _ = try older.events(in: 1...1)
      Issue.record("a newer event decoded")
    } catch let error as FileJournalError {
      guard error.code == .noUpcastPath, error.eventType == "clear", error.schemaVersion == 3 else {
        throw error
      }
      #expect(error.description.contains("newer"))
    }
    try older.close()

    let old = TemporaryDirectory()
    try writeOldLog(in: old.path, codec: .binary)
    var failing = Self.upcasters()
    failing.register("add", from: 1) { _ in throw UpcastProblem.missing("on purpose") }
    try expectError(old.path, failing) { error in
      error.code == .upcastFailed && error.eventType == "add" && error.schemaVersion == 1
        && error.location?.sequence == 1 && error.description.contains("on purpose")
    }
  }

  @Test func upcastersCanBeRunDirectly() throws {
    let tree = BinaryValue.keyed([.init(key: "remove", value: .keyed([.init(key: "index", value: .int(4))]))])
    let result = try Self.upcasters().upcast(tree, typeName: "remove", from: 1, to: 3)
    #expect(result.typeName == "delete")
    #expect(result.action[path: "delete", "index"] == .int(4))
    #expect(throws: EventUpcasters.Failure.noStep(typeName: "remove", version: 1)) {
      try EventUpcasters().upcast(tree, typeName: "remove", from: 1, to: 2)
    }
    #expect(try EventUpcasters().upcast(tree, typeName: "remove", from: 2, to: 2).action == tree)
  }
}
