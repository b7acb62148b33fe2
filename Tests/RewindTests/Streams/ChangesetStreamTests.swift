import Foundation
import RewindDiff
import RewindTestSupport
import Testing

@testable import Rewind

/// A section's model for sectioned lists.
struct SectionName: Hashable, Sendable, Differentiable, ExpressibleByStringLiteral {
  var name: String
  init(stringLiteral name: String) { self.name = name }
}

/// A list of rows: each send inserts, deletes, moves or edits rows.
struct RowList: Reducer {
  struct Row: Identifiable, Equatable, Sendable, Differentiable {
    var id: Int
    var title: String
    var differenceIdentifier: Int { id }
  }

  struct State: Equatable, Sendable {
    var rows: IdentifiedArray<Row> = []
    var sections: [ArraySection<SectionName, Row>] = []
    var selection: Int?
    var unrelated = 0
  }

  enum Action: Equatable, Sendable {
    case insert(Row, at: Int)
    case delete(id: Int)
    case move(from: Int, to: Int)
    case rename(id: Int, String)
    case select(Int?)
    case touchUnrelated
    case setSections([ArraySection<SectionName, Row>])
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .insert(let row, let index): state.rows.insert(row, at: min(max(0, index), state.rows.count))
    case .delete(let id): state.rows.remove(id: id)
    case .move(let from, let to):
      if state.rows.indices.contains(from), state.rows.indices.contains(to) {
        state.rows.move(from: from, to: to)
      }
    case .rename(let id, let title): state.rows[id: id]?.title = title
    case .select(let id): state.selection = id
    case .touchUnrelated: state.unrelated += 1
    case .setSections(let sections): state.sections = sections
    }
    return .none
  }

  static func randomAction(_ random: inout SeededGenerator, nextID: inout Int, count: Int) -> Action {
    switch Int.random(in: 0..<10, using: &random) {
    case 0, 1, 2:
      nextID += 1
      return .insert(
        Row(id: nextID, title: "r\(nextID)"), at: Int.random(in: 0...max(0, count), using: &random))
    case 3, 4: return .delete(id: Int.random(in: 0...max(1, nextID), using: &random))
    case 5:
      return .move(
        from: Int.random(in: 0..<max(1, count), using: &random),
        to: Int.random(in: 0..<max(1, count), using: &random))
    case 6, 7:
      return .rename(
        id: Int.random(in: 0...max(1, nextID), using: &random), "t\(Int.random(in: 0..<9, using: &random))")
    case 8: return .select(Int.random(in: 0...9, using: &random))
    default: return .touchUnrelated
    }
  }
}

/// What one subscriber saw: its first snapshot, every changeset, and where it stopped.
private struct Observation: Sendable {
  var first: PersistentArray<RowList.Row> = []
  var changesets: [StagedChangeset<PersistentArray<RowList.Row>>] = []
  var ranges: [ClosedRange<UInt64>] = []
  var lastSequence: UInt64 = 0
  var lastElements: PersistentArray<RowList.Row> = []
}

/// Iterates until the stream ends (the test shuts the store down after its last send). Waiting for the
/// final sequence number instead would hang whenever the last events leave the rows alone: a delivery whose
/// collection did not change is skipped by design, so that number may never arrive.
private func consume(_ store: Store<RowList.State, RowList.Action>, seed: UInt64) async -> Observation {
  var random = SeededGenerator(seed: seed)
  var observation = Observation()
  for await update in store.changesets(of: \.rows) {
    if update.isInitial {
      observation.first = update.elements
    } else {
      observation.changesets.append(update.changeset)
      if let events = update.events { observation.ranges.append(events) }
    }
    observation.lastSequence = update.sequence
    observation.lastElements = update.elements
    // Deliberate jitter: subscribers of different speeds, some yield or sleep between updates.
    switch Int.random(in: 0..<4, using: &random) {
    case 0: try? await Task.sleep(for: .microseconds(Int.random(in: 10...300, using: &random)))
    case 1: await Task.yield()
    default: break
    }
  }
  return observation
}

@Suite(.timeLimit(.minutes(5))) struct ChangesetStreamTests {
  @Test(arguments: [11, 23, 2026] as [UInt64])
  func everySubscriberReconstructsTheStateAtItsLastDelivery(seed: UInt64) async throws {
    let store = Store(initialState: RowList.State(), reducer: RowList())
    var random = SeededGenerator(seed: seed)
    var nextID = 0
    // ThreadSanitizer slows this interleaving-heavy test by two orders of magnitude; fewer sends there.
    #if REWIND_THREAD_SANITIZER
      let sends = 500
    #else
      let sends = 2_000
    #endif
    // Work out the actions first, so that the final state can be checked.
    var actions: [RowList.Action] = []
    var count = 0
    for _ in 0..<sends {
      let action = RowList.randomAction(&random, nextID: &nextID, count: count)
      if case .insert = action { count += 1 }
      actions.append(action)
    }
    let finalSequence = UInt64(sends)
    let planned = actions
    let observations = await withTaskGroup(of: Observation.self) { group in
      for subscriber in 0..<6 {
        group.addTask { await consume(store, seed: seed &+ UInt64(subscriber)) }
      }
      group.addTask {
        var pacing = SeededGenerator(seed: seed ^ 0xFF)
        for action in planned {
          store.send(action)
          if Int.random(in: 0..<50, using: &pacing) == 0 { await Task.yield() }
        }
        // Every subscriber is handed the newest state if its rows changed since its last delivery, then ends.
        #expect(throws: Never.self) { try store.close() }
        return Observation()
      }
      var all: [Observation] = []
      for await observation in group where observation.lastSequence > 0 { all.append(observation) }
      return all
    }
    #expect(observations.count == 6, "seed \(seed)")
    #expect(store.sequence == finalSequence)
    for (index, observation) in observations.enumerated() {
      var elements = observation.first
      for changeset in observation.changesets {
        #expect(throws: Never.self, "seed \(seed), subscriber \(index)") {
          try BatchUpdateValidator.validate(changeset, from: elements)
        }
        do {
          elements = try changeset.apply(to: elements)
        } catch {
          Issue.record("seed \(seed), subscriber \(index): \(error)")
        }
      }
      let expected = try store.state(at: observation.lastSequence).rows.elements
      #expect(elements == expected, "seed \(seed), subscriber \(index): replaying changesets")
      #expect(observation.lastSequence <= finalSequence)
      #expect(
        observation.lastElements == store.state.rows.elements,
        "seed \(seed), subscriber \(index): final state")
      for (earlier, later) in zip(observation.ranges, observation.ranges.dropFirst()) {
        #expect(later.lowerBound == earlier.upperBound + 1, "seed \(seed): ranges leave no gap")
      }
    }
  }

  @Test func changesetBetweenTwoSequencesOfHistory() throws {
    let store = Store(initialState: RowList.State(), reducer: RowList())
    for index in 0..<10 { store.send(.insert(RowList.Row(id: index, title: "\(index)"), at: 0)) }
    store.send(.delete(id: 3))
    store.send(.rename(id: 5, "five"))
    let staged = try store.changeset(of: \.rows, from: 4, to: 12)
    #expect(try staged.apply(to: store.state(at: 4).rows.elements) == store.state.rows.elements)
    #expect(
      try store.changeset(of: \.rows, from: 12, to: 4).apply(to: store.state.rows.elements)
        == store.state(at: 4).rows.elements)
  }

  @Test func theFirstUpdateIsTheCurrentSnapshot() async {
    let store = Store(initialState: RowList.State(rows: [RowList.Row(id: 1, title: "a")]), reducer: RowList())
    store.send(.touchUnrelated)
    var iterator = store.changesets(of: \.rows).makeAsyncIterator()
    let first = await iterator.next()
    #expect(first?.isInitial == true)
    #expect(first?.elements.map(\.id) == [1])
    #expect(first?.sequence == 1)
    #expect(first?.changeset.stages.isEmpty == true)
  }

  @Test func unrelatedChangesAreCoveredByTheNextDelivery() async {
    let store = Store(initialState: RowList.State(), reducer: RowList())
    var iterator = store.changesets(of: \.rows).makeAsyncIterator()
    _ = await iterator.next()
    store.send(.touchUnrelated)  // 1
    store.send(.select(3))  // 2
    store.send(.insert(RowList.Row(id: 1, title: "a"), at: 0))  // 3
    let update = await iterator.next()
    #expect(update?.events == 1...3)
    #expect(update?.changeset.stages.flatMap(\.elementInserted) == [ElementPath(element: 0, section: 0)])
  }

  @Test func sectionedCollectionsGetSectionedChangesets() async throws {
    let store = Store(initialState: RowList.State(), reducer: RowList())
    var iterator = store.changesets(of: \.sections).makeAsyncIterator()
    _ = await iterator.next()
    let a = RowList.Row(id: 1, title: "a")
    let b = RowList.Row(id: 2, title: "b")
    store.send(
      .setSections([
        ArraySection(model: "inbox", elements: [a, b]), ArraySection(model: "later", elements: []),
      ]))
    let first = try #require(await iterator.next())
    store.send(
      .setSections([ArraySection(model: "inbox", elements: [a]), ArraySection(model: "later", elements: [b])])
    )
    let second = try #require(await iterator.next())
    #expect(try Array(second.changeset.apply(to: first.elements)) == store.state.sections)
    #expect(second.changeset.stages.flatMap(\.elementMoved).count == 1, "a move across sections")
  }

  @Test func valuesYieldOnlyRealChanges() async {
    let store = Store(initialState: RowList.State(), reducer: RowList())
    let seen = Task {
      var seen: [Int?] = []
      for await selection in store.values(of: \.selection) {
        seen.append(selection)
        if selection == 2 { break }
      }
      return seen
    }
    let actions: [RowList.Action] = [.select(1), .touchUnrelated, .select(1), .select(nil), .select(2)]
    for (index, action) in actions.enumerated() {
      // Each send finds the subscriber parked, having taken the state before it (a repeated value too).
      #expect(await eventually { store.hub.parkedAfter == [UInt64(index)] })
      store.send(action)
    }
    let values = await seen.value
    #expect(values == [nil, 1, nil, 2], "each change once, the repeats and the unrelated change skipped")
  }

  @Test func changesCarryOldNewAndTheEventsBetween() async throws {
    let store = Store(initialState: RowList.State(), reducer: RowList())
    store.send(.touchUnrelated)
    var iterator = store.changes().makeAsyncIterator()
    store.send(.select(4))
    store.send(.touchUnrelated)
    let change = try #require(try await iterator.next())
    #expect(change.from == 1)
    #expect(change.old.unrelated == 1)
    #expect(change.new == store.state)
    #expect(change.events.map(\.sequence) == Array(2...change.to))
  }

  @Test func cancellingTheConsumerEndsItAndReleasesItsWaiter() async {
    let store = Store(initialState: RowList.State(), reducer: RowList())
    let task = Task {
      var updates = 0
      for await _ in store.changesets(of: \.rows) { updates += 1 }
      return updates
    }
    while store.hub.subscriberCount == 0 { await Task.yield() }
    task.cancel()
    #expect(await task.value == 1)
    #expect(store.hub.subscriberCount == 0)
  }

  @Test func closeFinishesEveryStream() async throws {
    let store = Store(initialState: RowList.State(), reducer: RowList())
    let consumers = (0..<5).map { _ in
      Task {
        var last: UInt64 = 0
        for await update in store.changesets(of: \.rows) { last = update.sequence }
        return last
      }
    }
    while store.hub.subscriberCount < 5 { await Task.yield() }
    store.send(.insert(RowList.Row(id: 1, title: "a"), at: 0))
    try store.close()
    for consumer in consumers { #expect(await consumer.value == 1, "each got the newest state, then ended") }
    var late = store.changesets(of: \.rows).makeAsyncIterator()
    #expect(await late.next()?.isInitial == true)
    #expect(await late.next() == nil)
  }

  @Test func subscribersDoNotKeepTheStoreAlive() async {
    weak var weakStore: Store<RowList.State, RowList.Action>?
    var tasks: [Task<Int, Never>] = []
    do {
      let store = Store(initialState: RowList.State(), reducer: RowList())
      weakStore = store
      let sequence = store.changesets(of: \.rows)
      for _ in 0..<10 {
        tasks.append(
          Task {
            var count = 0
            for await _ in sequence { count += 1 }
            return count
          })
      }
      while store.hub.subscriberCount < 10 { await Task.yield() }
    }
    #expect(weakStore == nil)
    for task in tasks { #expect(await task.value == 1) }
  }

  @Test func aThousandSubscribersAllReachTheFinalState() async {
    let store = Store(initialState: RowList.State(), reducer: RowList())
    let sends = 200
    let finals = await withTaskGroup(of: UInt64.self) { group in
      for _ in 0..<1_000 {
        group.addTask {
          var last: UInt64 = 0
          for await update in store.changesets(of: \.rows) {
            last = update.sequence
            if last == UInt64(sends) { break }
          }
          return last
        }
      }
      group.addTask {
        for index in 0..<sends { store.send(.insert(RowList.Row(id: index, title: "\(index)"), at: 0)) }
        return UInt64(sends)
      }
      var finals: [UInt64] = []
      for await last in group { finals.append(last) }
      return finals
    }
    #expect(finals.count == 1_001)
    #expect(finals.allSatisfy { $0 == UInt64(sends) })
  }

  @Test func subscribingInTheMiddleOfABurst() async throws {
    let store = Store(initialState: RowList.State(), reducer: RowList())
    let (started, burstStarted) = AsyncStream<Void>.makeStream()
    let burst = Task {
      for index in 0..<3_000 {
        store.send(.insert(RowList.Row(id: index, title: ""), at: index))
        if index == 999 { burstStarted.yield() }
      }
    }
    // Subscribes once a third of the burst is sent, while the rest goes on.
    for await _ in started { break }
    var iterator = store.changesets(of: \.rows).makeAsyncIterator()
    let first = try #require(await iterator.next())
    var elements = first.elements
    var last = first.sequence
    while last < 3_000, let update = await iterator.next() {
      elements = try update.changeset.apply(to: elements)
      #expect(update.events?.lowerBound == last + 1)
      last = update.sequence
    }
    await burst.value
    #expect(elements == store.state.rows.elements)
  }

  @MainActor
  @Test func consumingOnTheMainActor() async {
    let store = Store(initialState: RowList.State(), reducer: RowList())
    var table: PersistentArray<RowList.Row> = []
    let sender = Task.detached {
      for index in 0..<50 { store.send(.insert(RowList.Row(id: index, title: ""), at: 0)) }
    }
    for await update in store.changesets(of: \.rows) {
      MainActor.assertIsolated()
      table = update.isInitial ? update.elements : ((try? update.changeset.apply(to: table)) ?? [])
      if update.sequence == 50 { break }
    }
    await sender.value
    #expect(table == store.state.rows.elements)
  }
}
