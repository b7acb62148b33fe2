import Foundation
import Rewind
import RewindTestSupport
import Testing

@testable import RewindLog

/// A to-do list as its first version shipped: `rename` was later removed.
enum TodoV1: Codable, Sendable, Equatable {
  case add(String)
  case rename(index: Int, title: String)
  case toggle(index: Int)
}

/// The to-do list now: `rename` became `setTitle`, and `retired` stands for events of removed cases.
enum TodoNow: Codable, Sendable, Equatable {
  case add(String)
  case setTitle(index: Int, title: String)
  case toggle(index: Int)
  case retired
}

struct TodoState: Codable, Sendable, Equatable {
  var titles: [String] = []
  var done: [Bool] = []

  mutating func setTitle(_ title: String, at index: Int) {
    if titles.indices.contains(index) { titles[index] = title }
  }

  mutating func toggle(at index: Int) {
    if done.indices.contains(index) { done[index].toggle() }
  }

  mutating func add(_ title: String) {
    titles.append(title)
    done.append(false)
  }
}

struct TodoV1Reducer: Reducer {
  func reduce(into state: inout TodoState, action: TodoV1) -> Effect<TodoV1> {
    switch action {
    case .add(let title): state.add(title)
    case .rename(let index, let title): state.setTitle(title, at: index)
    case .toggle(let index): state.toggle(at: index)
    }
    return .none
  }
}

struct TodoNowReducer: Reducer {
  func reduce(into state: inout TodoState, action: TodoNow) -> Effect<TodoNow> {
    switch action {
    case .add(let title): state.add(title)
    case .setTitle(let index, let title): state.setTitle(title, at: index)
    case .toggle(let index): state.toggle(at: index)
    case .retired: break
    }
    return .none
  }
}

/// Retiring an action case that events recorded (`EventUpcasters.retire`), through a file journal.
@Suite struct RetiringTests {
  static let recorded: [TodoV1] = [
    .add("milk"), .add("eggs"), .rename(index: 0, title: "oat milk"), .toggle(index: 1),
    .rename(index: 1, title: "free-range eggs"), .add("tea"), .toggle(index: 0),
  ]

  /// Writes the recorded actions through a store of the first version (undoable, so the log holds an
  /// undo too), closes it, and returns the state it had and its state after each event.
  func writeV1Log(in directory: String, codec: EventCodec) throws -> (TodoState, [TodoState]) {
    let store = try Store.open(
      directory: directory, initialState: TodoState(), reducer: TodoV1Reducer(),
      options: FileJournalOptions(durability: .grouped(), codec: codec, snapshotInterval: nil),
      history: .undoEveryAction)
    for action in Self.recorded { store.send(action) }
    store.undo()
    store.send(.rename(index: 2, title: "green tea"))
    let states = try (0...store.sequence).map { try store.state(at: $0) }
    try store.close()
    return (store.state, states)
  }

  static var renameAsSetTitle: EventUpcasters {
    var upcasters = EventUpcasters()
    upcasters.retire("rename") { action in
      guard let fields = action["rename"] else { throw RetireProblem.noFields }
      return .keyed([.init(key: "setTitle", value: fields)])
    }
    return upcasters
  }

  enum RetireProblem: Error { case noFields }

  @Test(arguments: [EventCodec.binary, .json])
  func aRemovedCaseFailsTheOpenNamingItsPlaceAndWhatToDo(codec: EventCodec) throws {
    let directory = TemporaryDirectory()
    _ = try writeV1Log(in: directory.path, codec: codec)
    do {
      _ = try Store.open(directory: directory.path, initialState: TodoState(), reducer: TodoNowReducer())
      Issue.record("opened a log with a removed case")
    } catch let error as FileJournalError {
      #expect(error.code == .unknownEventType)
      #expect(error.eventType == "rename")
      #expect(error.location?.sequence == 3)
      #expect(error.location?.segment == "segment-00000000000000000001.log")
      let text = error.description
      #expect(text.contains("TodoNow has no case \"rename\""), "\(text)")
      #expect(text.contains("EventUpcasters.retire"), "\(text)")
      #expect(!text.contains("Invalid number of keys"), "\(text)")
    }
  }

  @Test(arguments: [EventCodec.binary, .json])
  func aRetiredCaseReadAsItsReplacementReplaysTheSameStates(codec: EventCodec) throws {
    let directory = TemporaryDirectory()
    let (final, states) = try writeV1Log(in: directory.path, codec: codec)
    let store = try Store.open(
      directory: directory.path, initialState: TodoState(), reducer: TodoNowReducer(),
      history: .undoEveryAction, upcasters: Self.renameAsSetTitle)
    #expect(store.state == final)
    #expect(store.sequence == UInt64(states.count - 1))
    for sequence in 0..<states.count {
      #expect(try store.state(at: UInt64(sequence)) == states[sequence], "state at \(sequence)")
    }
    let journal = try #require(store.fileJournal)
    #expect(try journal.events(in: 3...3).first?.action == .setTitle(index: 0, title: "oat milk"))
    #expect(try journal.inspect(from: 3, through: 3).first?.typeName == "rename", "the log is not rewritten")
    // The undo history was rebuilt from the replaced events: undoing takes back the last rename.
    store.undo()
    #expect(store.state.titles[2] == "tea")
    store.send(.setTitle(index: 2, title: "mint tea"))
    try store.close()

    let reopened = try Store.open(
      directory: directory.path, initialState: TodoState(), reducer: TodoNowReducer(),
      upcasters: Self.renameAsSetTitle)
    #expect(reopened.state.titles == ["oat milk", "free-range eggs", "mint tea"])
    try reopened.close()
  }

  @Test func aRetiredCaseReadAsATombstoneKeepsEveryEventAndReplaysTheSameEveryTime() throws {
    let directory = TemporaryDirectory()
    _ = try writeV1Log(in: directory.path, codec: .binary)
    var upcasters = EventUpcasters()
    upcasters.retire(["rename"], toTombstone: "retired")
    #expect(upcasters.retiredTypeNames == ["rename"])
    var opened: [TodoState] = []
    for _ in 0..<2 {
      let store = try Store.open(
        directory: directory.path, initialState: TodoState(), reducer: TodoNowReducer(),
        upcasters: upcasters)
      let journal = try #require(store.fileJournal)
      let events = try journal.events(in: 1...store.sequence)
      #expect(events.map(\.sequence) == Array(1...store.sequence), "no event dropped")
      #expect(events.filter { $0.action == .retired }.count == 3)
      #expect(events[2].metadata.actor == nil && events[2].metadata.source == .user)
      opened.append(store.state)
      try store.close()
    }
    #expect(opened[0] == opened[1])
    #expect(opened[0].titles == ["milk", "eggs", "tea"], "the renames are ignored")
  }

  @Test func aRetirementThatThrowsIsAnUpcastFailureNamingThePlace() throws {
    let directory = TemporaryDirectory()
    _ = try writeV1Log(in: directory.path, codec: .binary)
    var upcasters = EventUpcasters()
    upcasters.retire("rename") { _ in throw RetireProblem.noFields }
    let error = #expect(throws: FileJournalError.self) {
      _ = try Store.open(
        directory: directory.path, initialState: TodoState(), reducer: TodoNowReducer(), upcasters: upcasters)
    }
    #expect(error?.code == .upcastFailed && error?.eventType == "rename" && error?.location?.sequence == 3)
    #expect(error?.description.contains("retiring it failed") == true, "\(String(describing: error))")
  }

  @Test func aRetiredCaseOfAnOlderSchemaVersionNeedsNoUpcastingStep() throws {
    let directory = TemporaryDirectory()
    _ = try writeV1Log(in: directory.path, codec: .binary)
    // The app moved to schema version 2: every kept case needs a step, the retired one does not.
    var upcasters = Self.renameAsSetTitle
    upcasters.registerUnchanged(["add", "toggle"], from: 1)
    let store = try Store.open(
      directory: directory.path, initialState: TodoState(), reducer: TodoV2Reducer(), upcasters: upcasters)
    #expect(store.state.titles == ["oat milk", "free-range eggs", "green tea"])
    try store.close()
  }
}

/// Schema version 2 of the to-do actions: the same cases as now.
enum TodoV2: Codable, Sendable, Equatable, VersionedAction {
  static var schemaVersion: UInt64 { 2 }
  case add(String)
  case setTitle(index: Int, title: String)
  case toggle(index: Int)
  case retired
}

struct TodoV2Reducer: Reducer {
  func reduce(into state: inout TodoState, action: TodoV2) -> Effect<TodoV2> {
    switch action {
    case .add(let title): state.add(title)
    case .setTitle(let index, let title): state.setTitle(title, at: index)
    case .toggle(let index): state.toggle(at: index)
    case .retired: break
    }
    return .none
  }
}
