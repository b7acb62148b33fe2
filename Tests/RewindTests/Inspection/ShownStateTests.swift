import Foundation
import Observation
import Rewind
import Testing

/// An inspector's jump: views are told of the paths that differ and read the past state, through the same
/// per-path observation as a send; showing the live state again tells them back.
@Suite(.timeLimit(.minutes(1))) struct ShownStateTests {
  @Test func viewsFollowAJumpAndTheReturnToLive() async throws {
    let mails = IdentifiedArray(uniqueElements: (1...3).map { Mail(id: $0, subject: "mail \($0)") })
    let store = Store(initialState: Mailbox.State(mails: mails), reducer: Mailbox(), clock: FixedClock())
    let rows = store.scope(state: \.mails, action: Mailbox.mailPath)
    let rowOne = rows[0]
    let count = InvalidationProbe { store.counter.count }
    let flag = InvalidationProbe { rowOne.isFlagged }
    let subjectTwo = InvalidationProbe { store[dynamicMember: \.mails[id: 2]?.subject] }
    for _ in 0..<5 { store.send(.counter(.increment)) }
    store.send(.mail(IdentifiedAction(id: 1, action: .toggleFlag)))
    await settleViews(store)
    count.resetCount()
    flag.resetCount()
    count.reRenderIfNeeded()
    flag.reRenderIfNeeded()

    let inspection = store.inspection
    inspection.holdSends()
    inspection.show(try inspection.state(at: 2), at: 2)
    await settleViews(store)
    #expect(count.invalidations == 1)
    #expect(flag.invalidations == 1)
    #expect(subjectTwo.invalidations == 0, "a path that is the same in the past is not told")
    count.reRenderIfNeeded()
    flag.reRenderIfNeeded()
    #expect(count.lastValue == 2, "views read the state as of the jump")
    #expect(flag.lastValue == false)
    #expect(store.state.counter.count == 2)
    #expect(store.stateAndSequence.state.counter.count == 5, "the live state is untouched")

    // A held send changes nothing views see.
    store.send(.counter(.increment))
    await settleViews(store)
    #expect(count.invalidations == 1)

    inspection.releaseHeldSends()
    await settleViews(store)
    #expect(count.invalidations == 2)
    count.reRenderIfNeeded()
    flag.reRenderIfNeeded()
    #expect(count.lastValue == 6, "the live state, then the held send")
    #expect(flag.lastValue == true)
  }

  @Test func aStateWithTheSameSequenceButOtherValuesIsStillDelivered() async throws {
    let store = Store(initialState: Counter.State(), reducer: Counter(), clock: FixedClock())
    for _ in 0..<3 { store.send(.increment) }
    let count = InvalidationProbe { store.count }
    let inspection = store.inspection
    inspection.holdSends()
    // The state at 3 without event 2: the same sequence number, another value.
    inspection.show(try inspection.state(at: 3, skipping: [2]), at: 3)
    await settleViews(store)
    #expect(count.invalidations == 1)
    count.reRenderIfNeeded()
    #expect(count.lastValue == 2)
    inspection.releaseHeldSends()
    await settleViews(store)
    count.reRenderIfNeeded()
    #expect(count.lastValue == 3)
  }
}
