import Foundation
import Rewind
import RewindTesting
import Testing

/// A list whose reducer draws an id, a date and a random number for each item it adds.
private struct Items: Reducer {
  struct Item: Equatable, Sendable {
    var id: UUID
    var title: String
    var added: Date
    var color: Int
  }

  enum Action: Equatable, Sendable {
    case add(String)
    case clear
  }

  @Dependency(\.uuid) var uuid
  @Dependency(\.date) var date
  @Dependency(\.random) var random

  func reduce(into state: inout [Item], action: Action) -> Effect<Action> {
    switch action {
    case .add(let title):
      state.append(Item(id: uuid(), title: title, added: date.now, color: random.int(in: 0..<8)))
    case .clear:
      state = []
    }
    return .none
  }
}

private func uuid(_ value: UInt8) -> UUID {
  UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, value))
}

@Suite struct TestStoreRecordedDrawTests {
  @Test func theTestsGeneratorsArePredictableAndTheDrawsCanBeAsserted() async {
    let clock = ManualClock()
    let store = TestStore(initialState: [Items.Item](), reducer: Items(), clock: clock)
    // seeded(0)'s first bits, 0xE220A8397B1DCDAF, are 0.88 of the way: color 7 of 0..<8.
    store.send(.add("Milk")) { $0 = [Items.Item(id: uuid(0), title: "Milk", added: clock.epoch, color: 7)] }
    #expect(store.lastDraws == [.uuid(uuid(0)), .date(clock.epoch), .random(0xE220_A839_7B1D_CDAF)])
    await clock.advance(by: .seconds(60))
    store.send(.add("Eggs")) {
      $0.append(Items.Item(id: uuid(1), title: "Eggs", added: clock.epoch + 60, color: 3))
    }
    #expect(store.lastDraws.first == .uuid(uuid(1)))
    store.send(.clear) { $0 = [] }
    #expect(store.lastDraws.isEmpty)
    await store.finish()
  }

  @Test func testsOverrideTheGenerators() async {
    let fixed = Date(timeIntervalSinceReferenceDate: 0)
    let store = TestStore(
      initialState: [Items.Item](), reducer: Items(),
      dependencies: {
        $0.uuid = .constant(uuid(9))
        $0.date = .constant(fixed)
        $0.random = .constant(0)
      })
    store.send(.add("Milk")) { $0 = [Items.Item(id: uuid(9), title: "Milk", added: fixed, color: 0)] }
    #expect(store.lastDraws == [.uuid(uuid(9)), .date(fixed), .random(0)])
    await store.finish()
  }

  /// Undo rebuilds its target by replaying the journal: the replay draws the recorded values, and the
  /// states it passes through are not taken for the states of later sends.
  @Test func undoAndRedoReplayTheDrawnValues() async {
    let store = TestStore(
      initialState: [Items.Item](), reducer: Items(),
      history: HistoryConfiguration(checkpointInterval: 100, undoPolicy: { _ in .step }))
    store.send(.add("a")) { $0 = [Items.Item(id: uuid(0), title: "a", added: store.clock.epoch, color: 7)] }
    let one = store.state
    store.send(.add("b")) {
      $0.append(Items.Item(id: uuid(1), title: "b", added: store.clock.epoch, color: 3))
    }
    let two = store.state
    store.undo { $0 = one }
    store.redo { $0 = two }
    store.send(.clear) { $0 = [] }
    store.undo { $0 = two }
    #expect(store.store.state == two)
    await store.finish()
  }
}
