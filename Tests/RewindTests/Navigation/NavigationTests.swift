import Foundation
import Rewind
import RewindTesting
import Testing

/// A screen that loads over the clock dependency, can dismiss itself, and counts its loads.
struct Screen: Reducer {
  struct State: Equatable, Sendable, Codable {
    var name: String
    var loaded = 0
  }

  enum Action: Equatable, Sendable, Codable { case load, loaded, close }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .load:
      return .run { send in
        @Dependency(\.clock) var clock
        try await clock.sleep(for: .seconds(1))
        send(.loaded)
      }
    case .loaded:
      state.loaded += 1
      return .none
    case .close:
      return .run { _ in
        @Dependency(\.dismiss) var dismiss
        dismiss()
      }
    }
  }
}

/// An app with a navigation stack of screens and a presented sheet, which can present from a screen.
struct Navigator: Reducer {
  struct State: Equatable, Sendable, Codable {
    var path = StackState<Screen.State>()
    var sheet = PresentationState<Screen.State>()
    var optional: Screen.State?
  }

  enum Action: Equatable, Sendable, Codable {
    case path(StackAction<Screen.State, Screen.Action>)
    case sheet(PresentationAction<Screen.Action>)
    case optional(Screen.Action)
    case pushTwo, presentSheet(String), replaceSheet(String), closeOptional, openOptional, loadAndClose

    static let pathPath = ActionPath<Action, StackAction<Screen.State, Screen.Action>>(
      embed: Action.path, extract: { if case .path(let a) = $0 { a } else { nil } })
    static let sheetPath = ActionPath<Action, PresentationAction<Screen.Action>>(
      embed: Action.sheet, extract: { if case .sheet(let a) = $0 { a } else { nil } })
    static let optionalPath = ActionPath<Action, Screen.Action>(
      embed: Action.optional, extract: { if case .optional(let a) = $0 { a } else { nil } })
  }

  var body: some Reducer<State, Action> {
    Reduce<State, Action> { state, action in
      switch action {
      case .pushTwo:
        state.path.push(Screen.State(name: "first"))
        state.path.push(Screen.State(name: "second"))
      case .presentSheet(let name): state.sheet.present(Screen.State(name: name))
      case .replaceSheet(let name): state.sheet.present(Screen.State(name: name))
      case .openOptional: state.optional = Screen.State(name: "optional")
      case .closeOptional: state.optional = nil
      case .optional(.loaded) where state.optional?.name == "close on load":
        state.optional = nil
      case .optional(.load) where state.optional?.name == "close on load start":
        state.optional = nil
      case .path, .sheet, .optional, .loadAndClose: break
      }
      return .none
    }
    .navigationStack(\.path, action: Action.pathPath) { Screen() }
    .presentation(\.sheet, action: Action.sheetPath) { Screen() }
    .ifLet(\.optional, action: Action.optionalPath) { Screen() }
  }
}

private func navigatorStore(
  _ state: Navigator.State = Navigator.State(), clock: ManualClock, journal: InMemoryJournal<Navigator.Action>
) throws -> Store<Navigator.State, Navigator.Action> {
  try Store(
    initialState: state, reducer: Navigator(), journal: journal, clock: clock,
    dependencies: { $0.clock = clock })
}

@Suite(.timeLimit(.minutes(1))) struct NavigationTests {
  @Test func stackStatePushPopAndPopTo() {
    var stack = StackState<String>()
    let a = stack.push("a")
    let b = stack.push("b")
    let c = stack.push("c")
    #expect([a, b, c].map(\.rawValue) == [0, 1, 2])
    #expect(Array(stack) == ["a", "b", "c"])
    let poppedTo = stack.pop(to: a)
    #expect(poppedTo)
    #expect(Array(stack) == ["a"])
    let d = stack.push("d")
    #expect(d.rawValue == 3, "ids are never reused")
    let poppedFrom = stack.pop(from: a)
    let poppedAgain = stack.pop(from: a)
    #expect(poppedFrom && !poppedAgain)
    #expect(stack.isEmpty)
    stack.push("e")
    stack[id: StackElementID(rawValue: 4)] = "E"
    #expect(Array(stack) == ["E"])
    let last = stack.popLast()
    #expect(last == "E")
    #expect(stack.nextID.rawValue == 5)
  }

  @Test func stackIdsStayEqualAfterReplayFromTheLog() throws {
    let clock = ManualClock()
    let journal = InMemoryJournal<Navigator.Action>()
    let live = try navigatorStore(clock: clock, journal: journal)
    live.send(.pushTwo)
    live.send(.path(.push(Screen.State(name: "third"))))
    live.send(.path(.popFrom(id: StackElementID(rawValue: 1))))
    live.send(.path(.push(Screen.State(name: "fourth"))))
    live.send(.path(.element(id: StackElementID(rawValue: 3), action: .loaded)))
    live.send(.presentSheet("sheet"))
    live.send(.sheet(.dismiss))
    live.send(.presentSheet("again"))
    #expect(live.state.path.ids.map(\.rawValue) == [0, 3])
    #expect(live.state.sheet.id == PresentationID(rawValue: 1))

    let replayed = try navigatorStore(clock: clock, journal: journal)
    #expect(replayed.state == live.state)
    #expect(replayed.state.path.ids == live.state.path.ids)
    #expect(replayed.state.path.nextID == live.state.path.nextID)
    #expect(replayed.state.sheet.id == live.state.sheet.id)
    for sequence in 1...live.sequence {
      #expect(try replayed.state(at: sequence) == live.state(at: sequence), "at \(sequence)")
    }
  }

  @Test func stackAndPresentationStateSurviveCoding() throws {
    var state = Navigator.State()
    state.path.push(Screen.State(name: "a"))
    state.path.push(Screen.State(name: "b"))
    state.path.pop(from: StackElementID(rawValue: 1))
    state.sheet.present(Screen.State(name: "s"))
    let decoded = try JSONDecoder().decode(Navigator.State.self, from: JSONEncoder().encode(state))
    #expect(decoded == state)
    #expect(decoded.path.nextID.rawValue == 2)

    let badStack = Data(#"{"entries":[{"id":{"rawValue":3},"element":"x"}],"nextID":{"rawValue":3}}"#.utf8)
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(StackState<String>.self, from: badStack) }
    let badSheet = Data(#"{"presentationCount":1,"id":{"rawValue":1},"presented":"x"}"#.utf8)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(PresentationState<String>.self, from: badSheet)
    }
  }

  @Test func poppingAScreenCancelsItsEffects() async throws {
    let clock = ManualClock()
    let store = try navigatorStore(clock: clock, journal: InMemoryJournal())
    store.send(.pushTwo)
    let (first, second) = (store.state.path.id(at: 0), store.state.path.id(at: 1))
    store.send(.path(.element(id: first, action: .load)))
    store.send(.path(.element(id: second, action: .load)))
    #expect(store.runningEffectCount == 2)
    store.send(.path(.popTo(id: first)))
    #expect(store.runningEffectCount == 1, "the second screen's load ended with it")
    #expect(await clock.waitForSleepers(1))
    await clock.advance(by: .seconds(1))
    await store.waitForEffects()
    #expect(store.state.path.map(\.loaded) == [1])
    store.send(.path(.element(id: first, action: .load)))
    store.send(.path(.popFrom(id: first)))
    #expect(store.runningEffectCount == 0)
  }

  @Test func aScreenCanPopItselfWithDismiss() async throws {
    let store = try navigatorStore(clock: ManualClock(), journal: InMemoryJournal())
    store.send(.pushTwo)
    store.send(.path(.element(id: store.state.path.id(at: 0), action: .close)))
    await store.waitForEffects()
    #expect(store.state.path.isEmpty, "the first screen and the one above it were popped")
    let last = try #require(try store.journal.events(in: store.sequence...store.sequence).first)
    #expect(last.action == .path(.popFrom(id: StackElementID(rawValue: 0))))
    #expect(last.metadata.source == .effect(cause: 2))
  }

  @Test func anActionForAMissingScreenIsADiagnostic() throws {
    let log = DiagnosticLog()
    let store = try Store(
      initialState: Navigator.State(), reducer: Navigator(), journal: InMemoryJournal(),
      diagnostics: log.record)
    store.send(.path(.element(id: StackElementID(rawValue: 9), action: .load)))
    store.send(.path(.popFrom(id: StackElementID(rawValue: 9))))
    store.send(.sheet(.presented(.load)))
    #expect(log.all.map(\.kind) == [.elementMissing, .elementMissing, .childStateMissing])
    #expect(store.runningEffectCount == 0)
  }

  @Test func dismissingAPresentedChildCancelsItsRequest() async throws {
    let clock = ManualClock()
    let store = try navigatorStore(clock: clock, journal: InMemoryJournal())
    store.send(.presentSheet("compose"))
    store.send(.sheet(.presented(.load)))
    #expect(await clock.waitForSleepers(1))
    #expect(store.runningEffectCount == 1)
    store.send(.sheet(.dismiss))
    #expect(store.runningEffectCount == 0, "the dismiss ended the sheet's request")
    #expect(clock.sleeperCount == 0, "its sleep was cancelled")
    await clock.advance(by: .seconds(5))
    #expect(store.state.sheet.presented == nil)
    #expect(store.sequence == 3, "nothing arrived from the cancelled request")
  }

  @Test func presentingAnotherChildEndsThePreviousOnesWork() async throws {
    let clock = ManualClock()
    let store = try navigatorStore(clock: clock, journal: InMemoryJournal())
    store.send(.presentSheet("one"))
    store.send(.sheet(.presented(.load)))
    store.send(.replaceSheet("two"))
    #expect(store.runningEffectCount == 0)
    store.send(.sheet(.presented(.load)))
    #expect(store.runningEffectCount == 1)
    store.send(.sheet(.presented(.loaded)))
    #expect(store.runningEffectCount == 1, "changing the same presentation ends nothing")
    #expect(await clock.waitForSleepers(1))
    await clock.advance(by: .seconds(1))
    await store.waitForEffects()
    #expect(store.state.sheet.presented?.loaded == 2)
  }

  @Test func aPresentedChildCanDismissItself() async throws {
    let store = try navigatorStore(clock: ManualClock(), journal: InMemoryJournal())
    store.send(.presentSheet("compose"))
    store.send(.sheet(.presented(.close)))
    await store.waitForEffects()
    #expect(!store.state.sheet.isPresented)
  }

  @Test func dismissOutsideAScreenIsReported() async throws {
    let log = DiagnosticLog()
    let store = try Store(
      initialState: Navigator.State(openingOptional: true), reducer: Navigator(), journal: InMemoryJournal(),
      diagnostics: log.record)
    store.send(.optional(.close))
    await store.waitForEffects()
    #expect(log.all.map(\.kind) == [.dependencyUnimplemented])
  }

  @Test func settingIfLetStateToNilCancelsTheChildsEffects() async throws {
    let clock = ManualClock()
    let store = try navigatorStore(
      Navigator.State(openingOptional: true), clock: clock, journal: InMemoryJournal())
    store.send(.optional(.load))
    #expect(store.runningEffectCount == 1)
    store.send(.closeOptional)
    #expect(store.runningEffectCount == 0)
  }

  @Test func aChildThatGoesAwayInTheActionThatStartsItsWorkEndsIt() async throws {
    let clock = ManualClock()
    var state = Navigator.State()
    state.optional = Screen.State(name: "close on load start")
    let store = try navigatorStore(state, clock: clock, journal: InMemoryJournal())
    store.send(.optional(.load))
    #expect(store.state.optional == nil)
    #expect(store.runningEffectCount == 0)
  }
}

extension Navigator.State {
  init(openingOptional: Bool) {
    self.init()
    if openingOptional { optional = Screen.State(name: "optional") }
  }
}
