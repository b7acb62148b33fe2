import Foundation
import Rewind
import Testing

/// Replaying forward one event at a time, as the inspector does, gives `state(at:)` at every sequence
/// number, across undo and redo.
@Suite struct StoreInspectionTests {
  @Test func steppingThroughTheLogMatchesStateAt() throws {
    let store = Store(
      initialState: Counter.State(), reducer: Counter(), clock: FixedClock(),
      history: .undoEveryAction)
    for step in 0..<30 {
      store.send(.add(step))
      if step % 7 == 3 { store.undo() }
      if step % 11 == 5 { store.redo() }
    }
    let inspection = store.inspection
    var state = try inspection.state(at: 0)
    for event in try inspection.events(in: 1...inspection.newest) {
      try inspection.apply(event, to: &state)
      #expect(state == (try store.state(at: event.sequence)), "event \(event.sequence)")
    }
    #expect(state == store.stateAndSequence.state)
    #expect(inspection.firstReachable == 0)
    #expect(throws: HistoryError.self) { try inspection.state(at: inspection.newest + 1) }
  }
}
