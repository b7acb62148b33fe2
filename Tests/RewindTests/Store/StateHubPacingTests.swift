import Testing

@testable import Rewind

/// How the hub hands states to subscribers: the newest at once after a quiet moment, and during a burst at
/// most one fresh snapshot per `StateHub.handOutInterval`, shared by the subscribers behind it.
@Suite(.timeLimit(.minutes(2))) struct StateHubPacingTests {
  typealias Hub = StateHub<Int>
  let interval = Hub.handOutInterval

  /// A core whose state is its sequence number, as if `sequence` sends had happened.
  func core(at sequence: UInt64) -> Hub.Core {
    let history = StoreHistory(
      origin: 0, sequence: 0, undoLimit: 0, checkpointInterval: 1_024, checkpointLimit: 4)
    return Hub.Core(state: Int(sequence), sequence: sequence, history: history, nextCheckpoint: 1_024)
  }

  /// Stands in for a send: the next state, without anyone being woken.
  func send(_ core: inout Hub.Core) {
    core.sequence += 1
    core.state = Int(core.sequence)
  }

  func delivered(_ offer: Hub.Offer) -> UInt64? {
    if case .snapshot(let snapshot) = offer { return snapshot.sequence }
    return nil
  }

  @Test func aNewSubscriberGetsTheCurrentStateAtOnce() {
    var core = core(at: 7)
    #expect(delivered(core.offer(after: nil, now: 1_000)) == 7)
    send(&core)
    // Even right after another hand-out: the first delivery is the current state.
    #expect(delivered(core.offer(after: nil, now: 1_001)) == 8)
  }

  @Test func aSubscriberThatHasTheNewestWaits() {
    var core = core(at: 3)
    _ = core.offer(after: nil, now: 1_000)
    guard case .nothingNewer = core.offer(after: 3, now: 5_000_000) else {
      Issue.record("expected nothing newer")
      return
    }
  }

  @Test func duringABurstFreshSnapshotsAreHandedOutAtMostOncePerInterval() {
    var core = core(at: 0)
    let start: UInt64 = 1_000_000
    #expect(delivered(core.offer(after: nil, now: start)) == 0)
    for _ in 0..<10 { send(&core) }
    // Within the interval the subscriber that has snapshot 0 is told when it may have a fresh one.
    guard case .notBefore(let time) = core.offer(after: 0, now: start + interval / 2) else {
      Issue.record("expected pacing within the interval")
      return
    }
    #expect(time == start + interval)
    // Once the interval is over, the newest state.
    #expect(delivered(core.offer(after: 0, now: start + interval)) == 10)
    // Subscribers still behind share that snapshot instead of making another.
    for _ in 0..<5 { send(&core) }
    #expect(delivered(core.offer(after: 4, now: start + interval + 1)) == 10)
    #expect(delivered(core.offer(after: nil, now: start + interval + 2)) == 15, "new subscribers: current")
  }

  @Test func theNewestSnapshotIsSharedWhateverItsAge() {
    var core = core(at: 0)
    _ = core.offer(after: nil, now: 1_000)
    send(&core)
    send(&core)
    #expect(delivered(core.offer(after: 0, now: 1_000 + interval)) == 2)
    // Later, a subscriber still at 1 takes the same snapshot: it is the newest.
    #expect(delivered(core.offer(after: 1, now: 1_000 + 50 * interval)) == 2)
  }

  @Test func anOldSnapshotIsNotHandedOutWhenTheIntervalIsOver() {
    var core = core(at: 0)
    _ = core.offer(after: nil, now: 1_000)
    send(&core)
    #expect(delivered(core.offer(after: 0, now: 1_000 + interval)) == 1)
    for _ in 0..<4 { send(&core) }
    // Snapshot 1 is newer than this subscriber's 0, but stale: it gets the newest instead.
    #expect(delivered(core.offer(after: 0, now: 1_000 + 3 * interval)) == 5)
  }

  @Test func theIntervalGrowsWithTheSubscribersWokenAtOnce() {
    var core = core(at: 0)
    let start: UInt64 = 1_000_000
    _ = core.offer(after: nil, now: start)
    core.didWake(100)
    send(&core)
    let longer = interval + 100 * Hub.handOutIntervalPerSubscriber
    guard case .notBefore(let time) = core.offer(after: 0, now: start + interval) else {
      Issue.record("expected pacing past the base interval after waking 100 subscribers")
      return
    }
    #expect(time == start + longer)
    #expect(delivered(core.offer(after: 0, now: start + longer)) == 1)
    core.didWake(0)
    send(&core)
    #expect(delivered(core.offer(after: 1, now: start + longer + interval)) == 2, "back to the base")
  }

  @Test func onceFinishedASubscriberBehindGetsTheNewestWithoutWaiting() {
    var core = core(at: 0)
    _ = core.offer(after: nil, now: 1_000)
    send(&core)
    core.isFinished = true
    #expect(delivered(core.offer(after: 0, now: 1_001)) == 1)
    guard case .finished = core.offer(after: 1, now: 1_002) else {
      Issue.record("expected the end")
      return
    }
  }

  @Test(arguments: [1, 10, 200])
  func theLastStateOfABurstReachesEverySubscriber(subscribers: Int) async {
    let store = Store(initialState: Counter.State(), reducer: Counter())
    let sends = 20_000
    let last = await withTaskGroup(of: Int.self) { group in
      for _ in 0..<subscribers {
        group.addTask {
          var seen = -1
          for await state in store.states {
            seen = state.count
            if seen == sends { break }
          }
          return seen
        }
      }
      group.addTask {
        for _ in 0..<sends { store.send(.increment) }
        return sends
      }
      var results: [Int] = []
      for await value in group { results.append(value) }
      return results
    }
    #expect(last.allSatisfy { $0 == sends })
  }
}
