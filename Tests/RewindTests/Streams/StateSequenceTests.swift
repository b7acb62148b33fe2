import RewindTestSupport
import Testing

@testable import Rewind

@Suite(.timeLimit(.minutes(2))) struct StateSequenceTests {
  @Test func aSubscriberGetsTheCurrentStateFirst() async {
    let store = Store(initialState: Counter.State(count: 5), reducer: Counter())
    var iterator = store.states.makeAsyncIterator()
    #expect(await iterator.next()?.count == 5)
  }

  @Test func aSlowSubscriberSkipsToTheNewestState() async {
    let store = Store(initialState: Counter.State(), reducer: Counter())
    var iterator = store.states.makeAsyncIterator()
    #expect(await iterator.next()?.count == 0)
    for _ in 0..<1_000 { store.send(.increment) }
    #expect(await iterator.next()?.count == 1_000, "coalesced into the newest state")
  }

  @Test func aWaitingSubscriberWakesOnSend() async {
    let store = Store(initialState: Counter.State(), reducer: Counter())
    let seen = await withTaskGroup(of: [Int].self) { group in
      group.addTask {
        var seen: [Int] = []
        for await state in store.states {
          seen.append(state.count)
          if state.count == 3 { break }
        }
        return seen
      }
      group.addTask {
        for count in 0..<3 {
          // Each send finds the subscriber parked, having taken the state before it.
          #expect(await eventually { store.hub.parkedAfter == [UInt64(count)] })
          store.send(.increment)
        }
        return []
      }
      var all: [[Int]] = []
      for await result in group { all.append(result) }
      return all.first { !$0.isEmpty } ?? []
    }
    #expect(seen == [0, 1, 2, 3], "each send woke the waiting subscriber with its state")
  }

  @Test func cancellingTheSubscriberEndsItsIteration() async {
    let store = Store(initialState: Counter.State(), reducer: Counter())
    let task = Task {
      var count = 0
      for await _ in store.states { count += 1 }
      return count
    }
    // Cancelled once it has taken the current state and waits, parked, for the next.
    #expect(await eventually { store.hub.parkedAfter == [0] })
    task.cancel()
    #expect(await task.value == 1, "only the current state was delivered before cancellation")
    #expect(store.hub.subscriberCount == 0, "the cancelled subscriber's waiter is gone")
  }

  @Test func releasingTheStoreFinishesEveryStream() async throws {
    var store: Store<Counter.State, Counter.Action>? = Store(
      initialState: Counter.State(), reducer: Counter())
    let states = try #require(store).states
    let hub = try #require(store).hub
    weak let weakStore = store
    let task = Task {
      var last = -1
      for await state in states { last = state.count }
      return last
    }
    // The subscriber has taken the current state and waits, parked, for the next.
    #expect(await eventually { hub.parkedAfter == [0] })
    store?.send(.increment)
    store = nil
    #expect(weakStore == nil, "a subscription does not keep the store alive")
    #expect(await task.value == 1)
  }
}
