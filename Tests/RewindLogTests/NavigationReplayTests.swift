import Foundation
import Rewind
import RewindLog
import RewindTestSupport
import Testing

/// Screens on a navigation stack and a presented sheet, recorded in a file journal.
private struct Screens: Reducer {
  struct State: Codable, Sendable, Equatable {
    var path = StackState<String>()
    var sheet = PresentationState<String>()
  }

  enum Action: Codable, Sendable, Equatable {
    case path(StackAction<String, String>)
    case sheet(PresentationAction<String>)
    case open(String)
    case present(String)

    static let pathPath = ActionPath<Action, StackAction<String, String>>(
      embed: Action.path, extract: { if case .path(let a) = $0 { a } else { nil } })
    static let sheetPath = ActionPath<Action, PresentationAction<String>>(
      embed: Action.sheet, extract: { if case .sheet(let a) = $0 { a } else { nil } })
  }

  var body: some Reducer<State, Action> {
    Reduce<State, Action> { state, action in
      switch action {
      case .open(let name): state.path.push(name)
      case .present(let name): state.sheet.present(name)
      case .path, .sheet: break
      }
      return .none
    }
    .navigationStack(\.path, action: Action.pathPath) {
      Reduce<String, String> { title, suffix in
        title += suffix
        return .none
      }
    }
    .presentation(\.sheet, action: Action.sheetPath) { EmptyReducer() }
  }
}

@Suite struct NavigationReplayTests {
  @Test func stackAndPresentationIdsAreTheSameAfterReopeningTheLog() throws {
    let directory = TemporaryDirectory()
    let live = try Store.open(directory: directory.path, initialState: Screens.State(), reducer: Screens())
    live.send(.open("inbox"))
    live.send(.open("mail 7"))
    live.send(.path(.popFrom(id: StackElementID(rawValue: 1))))
    live.send(.open("mail 9"))
    live.send(.path(.push("attachment")))
    live.send(.path(.element(id: StackElementID(rawValue: 2), action: " (read)")))
    live.send(.path(.popTo(id: StackElementID(rawValue: 2))))
    live.send(.present("compose"))
    live.send(.sheet(.dismiss))
    live.send(.present("reply"))
    let state = live.state
    #expect(state.path.ids.map(\.rawValue) == [0, 2])
    #expect(state.path.nextID.rawValue == 4)
    #expect(Array(state.path) == ["inbox", "mail 9 (read)"])
    #expect(state.sheet.id == PresentationID(rawValue: 1))
    try (live.journal as? FileJournal<Screens.Action>)?.close()

    let reopened = try Store.open(
      directory: directory.path, initialState: Screens.State(), reducer: Screens())
    #expect(reopened.state == state)
    #expect(reopened.state.path.ids == state.path.ids)
    #expect(reopened.state.path.nextID == state.path.nextID)
    #expect(reopened.state.sheet.id == state.sheet.id)
    // The next screen gets the next id, as it would have without the reopen.
    reopened.send(.open("mail 11"))
    #expect(reopened.state.path.ids.last == StackElementID(rawValue: 4))
    try (reopened.journal as? FileJournal<Screens.Action>)?.close()
  }
}
