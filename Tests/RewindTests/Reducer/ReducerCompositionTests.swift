import Rewind
import Testing

@Suite struct ReducerCompositionTests {
  @Test func combinedReducersRunInOrderAndSeeEachOthersChanges() {
    let reducer = CombineReducers {
      Reduce<[String], String> { log, action in
        log.append("first \(action)")
        return .none
      }
      Reduce<[String], String> { log, action in
        log.append("second saw \(log.count)")
        return .none
      }
    }
    var state: [String] = []
    _ = reducer.reduce(into: &state, action: "a")
    #expect(state == ["first a", "second saw 1"])
  }

  @Test func builderIfAndElseChooseTheReducer() {
    func make(_ flag: Bool) -> some Reducer<Int, Int> {
      CombineReducers {
        if flag {
          Reduce<Int, Int> { state, action in
            state += action
            return .none
          }
        } else {
          Reduce<Int, Int> { state, action in
            state -= action
            return .none
          }
        }
      }
    }
    var state = 10
    _ = make(true).reduce(into: &state, action: 3)
    #expect(state == 13)
    _ = make(false).reduce(into: &state, action: 5)
    #expect(state == 8)
  }

  @Test func scopeRunsTheChildOnlyForItsActions() {
    let reducer = Mailbox()
    var state = Mailbox.State()
    _ = reducer.reduce(into: &state, action: .counter(.add(5)))
    #expect(state.counter.count == 5)
    _ = reducer.reduce(into: &state, action: .startDraft)
    #expect(state.counter.count == 5)
  }

  @Test func scopeMapsChildEffectsIntoParentActions() async {
    struct Child: Reducer {
      enum Action: Equatable, Sendable { case ping, pong }
      func reduce(into state: inout Int, action: Action) -> Effect<Action> {
        state += 1
        return action == .ping ? .send(.pong) : .none
      }
    }
    enum Parent: Equatable, Sendable { case child(Child.Action) }
    let path = ActionPath<Parent, Child.Action>(
      embed: Parent.child, extract: { if case .child(let a) = $0 { a } else { nil } })
    let store = Store(initialState: 0, reducer: Scope(state: \Int.self, action: path) { Child() })
    store.send(.child(.ping))
    #expect(store.state == 2)
    let actions = (try? store.journal.events(in: 1...2).map(\.action)) ?? []
    #expect(actions == [.child(.ping), .child(.pong)])
  }

  @Test func forEachAddressesTheElementById() {
    var state = Mailbox.State(mails: [Mail(id: 1, subject: "a"), Mail(id: 2, subject: "b")])
    let effect = Mailbox().reduce(into: &state, action: .mail(IdentifiedAction(id: 2, action: .toggleFlag)))
    #expect(effect.isNone)
    #expect(state.mails[id: 2]?.isFlagged == true)
    #expect(state.mails[id: 1]?.isFlagged == false)
    #expect(state.flaggedCount == 1, "the parent runs after the element and sees its change")
  }

  @Test func forEachReportsAMissingIdAndChangesNothing() {
    let log = DiagnosticLog()
    let store = Store(
      initialState: Mailbox.State(mails: [Mail(id: 1, subject: "a")]), reducer: Mailbox(),
      diagnostics: log.record)
    let before = store.state
    store.send(.mail(IdentifiedAction(id: 99, action: .rename("x"))))
    #expect(store.state == before)
    #expect(log.all.map(\.kind) == [.elementMissing])
    #expect(log.all.first?.message.contains("99") == true)
  }

  @Test func ifLetRunsOnPresentStateAndReportsAbsentState() {
    let log = DiagnosticLog()
    let store = Store(initialState: Mailbox.State(), reducer: Mailbox(), diagnostics: log.record)
    store.send(.draft(.rename("lost")))
    #expect(store.state.draft == nil)
    #expect(log.all.map(\.kind) == [.childStateMissing])

    store.send(.startDraft)
    store.send(.draft(.rename("Hello")))
    #expect(store.state.draft?.subject == "Hello")
    #expect(log.all.count == 1)
  }
}
