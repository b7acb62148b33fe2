import Foundation
import Rewind
import Testing

@testable import RewindInspector

/// Changes by path between two versions of a state.
@Suite struct StateDifferTests {
  @Test func aRenamedRowIsOneChangeAtItsPath() {
    var state = Notes.State()
    for index in 1...3 { Notes.apply(.rename("x"), to: index, in: &state) }
    state.notes = IdentifiedArray(uniqueElements: (1...3).map { Notes.Note(id: $0, text: "note \($0)") })
    var after = state
    Notes.apply(.rename("renamed"), to: 2, in: &after)
    let found = StateDiffer.changes(from: state, to: after)
    #expect(
      found.changes == [
        StateChange(
          operation: .set, path: "notes[id=2].text", old: .string("note 2"), new: .string("renamed"))
      ])
  }
}
