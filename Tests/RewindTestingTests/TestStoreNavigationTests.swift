import Foundation
import Rewind
import RewindTesting
import Testing

/// A mail screen that loads its body from the server, and a compose sheet that sends a draft.
struct MailApp: Reducer {
  struct State: Equatable, Sendable {
    var path = StackState<Reader.State>()
    var compose = PresentationState<Composer.State>()
    var sentCount = 0
  }

  enum Action: Equatable, Sendable {
    case path(StackAction<Reader.State, Reader.Action>)
    case compose(PresentationAction<Composer.Action>)
    case open(String), newMail

    static let pathPath = ActionPath<Action, StackAction<Reader.State, Reader.Action>>(
      embed: Action.path, extract: { if case .path(let a) = $0 { a } else { nil } })
    static let composePath = ActionPath<Action, PresentationAction<Composer.Action>>(
      embed: Action.compose, extract: { if case .compose(let a) = $0 { a } else { nil } })
  }

  var body: some Reducer<State, Action> {
    Reduce<State, Action> { state, action in
      switch action {
      case .open(let folder): state.path.push(Reader.State(folder: folder))
      case .newMail: state.compose.present(Composer.State())
      case .compose(.presented(.sent)): state.sentCount += 1
      case .path, .compose: break
      }
      return .none
    }
    .navigationStack(\.path, action: Action.pathPath) { Reader() }
    .presentation(\.compose, action: Action.composePath) { Composer() }
  }
}

struct Reader: Reducer {
  struct State: Equatable, Sendable {
    var folder: String
    var mail: [String] = []
  }

  enum Action: Equatable, Sendable { case appeared, loaded([String]) }

  @Dependency(\.fakeServer) var server

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .appeared:
      return .run { [folder = state.folder] send in
        send(.loaded(try await server.fetch(folder)))
      }
    case .loaded(let mail):
      state.mail = mail
      return .none
    }
  }
}

struct Composer: Reducer {
  struct State: Equatable, Sendable { var isSending = false }
  enum Action: Equatable, Sendable { case send, sent }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .send:
      state.isSending = true
      return .run { send in
        @Dependency(\.clock) var clock
        @Dependency(\.dismiss) var dismiss
        try await clock.sleep(for: .seconds(2))
        send(.sent)
        dismiss()
      }
    case .sent:
      state.isSending = false
      return .none
    }
  }
}

@Suite(.timeLimit(.minutes(1))) struct TestStoreNavigationTests {
  @Test func aPushedScreensActionsAreReceivedThroughItsPath() async {
    let store = TestStore(initialState: MailApp.State(), reducer: MailApp()) {
      $0.fakeServer.fetch = { ["\($0) mail"] }
    }
    store.send(.open("inbox")) { $0.path.push(Reader.State(folder: "inbox")) }
    let id = StackElementID(rawValue: 0)
    store.send(.path(.element(id: id, action: .appeared)))
    await store.receive(MailApp.Action.pathPath.appending(.element(id: id)), .loaded(["inbox mail"])) {
      $0.path[id: id]?.mail = ["inbox mail"]
    }
    store.send(.path(.popFrom(id: id))) { $0.path.removeAll() }
    await store.finish()
  }

  @Test func aSheetThatSendsThenDismissesItself() async {
    let store = TestStore(initialState: MailApp.State(), reducer: MailApp())
    store.send(.newMail) { $0.compose.present(Composer.State()) }
    store.send(.compose(.presented(.send))) { $0.compose.presented?.isSending = true }
    #expect(await store.clock.waitForSleepers(1))
    await store.clock.advance(by: .seconds(2))
    await store.receive(MailApp.Action.composePath.appending(.presented()), .sent) {
      $0.compose.presented?.isSending = false
      $0.sentCount = 1
    }
    await store.receive(.compose(.dismiss)) { $0.compose.dismiss() }
    await store.finish()
  }

  @Test func dismissingTheSheetCancelsItsRequestAndTheTestFinishesAtOnce() async {
    let store = TestStore(initialState: MailApp.State(), reducer: MailApp())
    store.send(.newMail) { $0.compose.present(Composer.State()) }
    store.send(.compose(.presented(.send))) { $0.compose.presented?.isSending = true }
    #expect(await store.clock.waitForSleepers(1))
    store.send(.compose(.dismiss)) { $0.compose.dismiss() }
    #expect(store.store.runningEffectCount == 0)
    await store.clock.advance(by: .seconds(5))
    await store.finish()
    #expect(store.state.sentCount == 0)
  }
}
