import Rewind
import Testing

@Suite struct ReplayTests {
  @Test(arguments: [1, 2, 3, 42, 2026] as [UInt64])
  func replayingTheJournalIntoAFreshStoreGivesAnEqualState(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let initial = Mailbox.State(
      mails: IdentifiedArray(uniqueElements: (1...20).map { Mail(id: $0, subject: "m\($0)") }))
    let journal = InMemoryJournal<Mailbox.Action>()
    let live = try Store(initialState: initial, reducer: Mailbox(), journal: journal, diagnostics: { _ in })
    for _ in 0..<500 {
      let id = Int.random(in: 1...25, using: &random)  // some ids are missing on purpose
      let action: Mailbox.Action =
        switch Int.random(in: 0..<6, using: &random) {
        case 0: .mail(IdentifiedAction(id: id, action: .toggleFlag))
        case 1:
          .mail(IdentifiedAction(id: id, action: .rename("s\(Int.random(in: 0..<100, using: &random))")))
        case 2: .counter(.add(Int.random(in: -5...5, using: &random)))
        case 3: .startDraft
        case 4: .draft(.rename("d\(id)"))
        default: .discardDraft
        }
      live.send(action)
    }
    let replayed = try Store(
      initialState: initial, reducer: Mailbox(), journal: journal, diagnostics: { _ in })
    #expect(replayed.state == live.state, "seed \(seed)")
    #expect(replayed.sequence == 500, "seed \(seed)")
  }

  @Test func replayIncludesActionsThatEffectsSentWithoutRunningEffects() throws {
    let journal = InMemoryJournal<Trace.Action>()
    let live = try Store(initialState: Trace.State(), reducer: Trace(), journal: journal)
    live.send(.chain("x", remaining: 2))
    live.send(.tap("y"))
    let replayed = try Store(initialState: Trace.State(), reducer: Trace(), journal: journal)
    #expect(replayed.state == live.state)
    #expect(replayed.state.log == ["x2", "x1", "x0", "y"], "effects are not run again on replay")
  }

  @Test func aJournalWithAGapIsRefused() throws {
    final class GappyJournal: Journal {
      typealias Action = Counter.Action
      var lastSequence: UInt64 { 3 }
      func append(_ event: Event<Counter.Action>) throws {}
      func forEachEvent(from sequence: UInt64, _ body: (Event<Counter.Action>) throws -> Void) throws {
        for number in [1, 3] as [UInt64] {
          try body(
            Event(
              sequence: number, timestamp: .init(timeIntervalSince1970: 0),
              metadata: .init(actor: nil, source: .user, correlationID: .init(rawValue: number)),
              action: .increment))
        }
      }
      func events(in range: ClosedRange<UInt64>) throws -> [Event<Counter.Action>] { [] }
    }
    #expect(throws: JournalError.sequenceGap(expected: 2, received: 3)) {
      _ = try Store(initialState: Counter.State(), reducer: Counter(), journal: GappyJournal())
    }
  }
}
