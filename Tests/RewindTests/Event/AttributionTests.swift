import Rewind
import Testing

/// A feature whose effects chain: a request starts async work that sends a response, whose reduction
/// starts more work that sends a confirmation; a synchronous effect sends a note at once.
private struct Chain: Reducer {
  struct State: Equatable, Sendable { var log: [String] = [] }
  enum Action: Equatable, Sendable {
    case request, response, confirmation, note
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.log.append("\(action)")
    switch action {
    case .request: return .run { send in send(.response) }
    case .response: return .merge(.send(.note), .run { send in send(.confirmation) })
    case .confirmation, .note: return .none
    }
  }
}

/// Contract 4: an event sent by an effect names as its cause the event whose reduction started the
/// effect, and inherits its actor and correlation id, transitively.
@Suite(.timeLimit(.minutes(1))) struct AttributionTests {
  @Test func effectsInheritTheActorAndCorrelationOfTheEventThatStartedThem() async throws {
    let store = Store(initialState: Chain.State(), reducer: Chain(), actor: "default-actor")
    store.send(.request, from: .user(actor: "alice", correlationID: CorrelationID(rawValue: 77)))
    // Each effect sends before it ends, so the chain's last effect is running until the last event.
    await store.waitForEffects()
    #expect(store.sequence == 4)
    let events = try store.journal.events(in: 1...4)
    let byAction = Dictionary(
      uniqueKeysWithValues: events.compactMap { event in event.action.map { ($0, event) } })
    let request = try #require(byAction[.request])
    let response = try #require(byAction[.response])
    let note = try #require(byAction[.note])
    let confirmation = try #require(byAction[.confirmation])
    #expect(request.metadata.source == .user)
    #expect(response.metadata.source == .effect(cause: request.sequence))
    #expect(note.metadata.source == .effect(cause: response.sequence))
    #expect(confirmation.metadata.source == .effect(cause: response.sequence))
    for event in events {
      #expect(event.metadata.actor == "alice", "\(event)")
      #expect(event.metadata.correlationID == CorrelationID(rawValue: 77), "\(event)")
    }
  }

  @Test func followingCausesFromAnyEffectEventLeadsToWhatAPersonDid() async throws {
    let store = Store(initialState: Chain.State(), reducer: Chain(), actor: "bob")
    store.send(.request)
    store.send(.request, from: .system)
    // Each effect sends before it ends, so the chain's last effect is running until the last event.
    await store.waitForEffects()
    #expect(store.sequence == 8)
    let events = try store.journal.events(in: 1...8)
    for event in events where event.metadata.source.isEffect {
      var current = event
      while case .effect(let cause) = current.metadata.source {
        #expect(cause < current.sequence)
        current = try #require(events.first { $0.sequence == cause })
      }
      // The root is what started the chain: the person's request, or the system's, by name.
      #expect(current.action == .request)
      #expect(current.metadata.correlationID == event.metadata.correlationID)
      #expect(event.metadata.actor == current.metadata.actor)
    }
  }
}
