import Foundation
import Observation
import Rewind
import RewindTestSupport
import Testing

/// Several threads send while an observer re-reads the state after each notification: the observer must
/// always end on the final state, with no notification pending (issue #19's lost update).
@Suite(.timeLimit(.minutes(2))) struct LostUpdateTests {
  /// How the observer re-reads after a notification.
  enum ReRead: String, CaseIterable, Sendable {
    /// Inside the notification, as a synchronous UIKit-style observer does.
    case synchronously
    /// On the main actor, after the notification, as a view does.
    case onTheMainActor
  }

  @Test(arguments: ReRead.allCases, [UInt64(1), 2, 3, 0x5EED])
  func anObserverReReadingAfterEachNotificationEndsOnTheFinalState(reRead: ReRead, seed: UInt64) async {
    let threads = 4
    let perThread = 300
    for trial in 0..<5 {
      let trialSeed = seed &* 1_000 &+ UInt64(trial)
      let store = Store(initialState: Counter.State(), reducer: Counter())
      let observer = ReReadingObserver(store: store, reRead: reRead)
      observer.track()
      await sendConcurrently(to: store, threads: threads, perThread: perThread, seed: trialSeed)
      let final = store.state.count
      #expect(final == threads * perThread)
      await store.waitForViewUpdates()
      // The re-read after the last notification may still be on its way (on the main actor): wait for the
      // observer to show the final state; a lost update never does.
      _ = await eventually { observer.status.seen == final && !observer.status.pending }
      let (seen, pending) = observer.status
      #expect(
        seen == final && !pending,
        "seed \(trialSeed) (\(reRead)): the observer saw \(seen) of \(final), notification pending: \(pending)"
      )
      if seen != final { return }
    }
  }

  @Test(arguments: ReRead.allCases, [UInt64(7), 0xFACE])
  func rowObserversReReadingAfterEachNotificationEndOnTheirRowsFinalState(reRead: ReRead, seed: UInt64) async
  {
    let rowCount = 12
    for trial in 0..<3 {
      let trialSeed = seed &* 1_000 &+ UInt64(trial)
      let mails = IdentifiedArray(uniqueElements: (1...rowCount).map { Mail(id: $0, subject: "0") })
      let store = Store(initialState: Outbox.State(mails: mails), reducer: Outbox())
      let rows = store.scope(state: \.mails, action: Outbox.mailPath)
      let observers = rows.map { row in RowObserver(row: row, reRead: reRead) }
      observers.forEach { $0.track() }
      await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        let group = DispatchGroup()
        for thread in 0..<4 {
          group.enter()
          Thread.detachNewThread {
            var random = SeededGenerator(seed: trialSeed &+ UInt64(thread) &* 0x9E37_79B9)
            for step in 0..<200 {
              let id = Int(random.next() % UInt64(rowCount)) + 1
              store.send(.mail(IdentifiedAction(id: id, action: .rename("\(thread)-\(step)"))))
              if random.next() % 8 == 0 { usleep(UInt32(random.next() % 100)) }  // deliberate jitter
            }
            group.leave()
          }
        }
        group.notify(queue: .global()) { done.resume() }
      }
      await store.waitForViewUpdates()
      // Re-reads on their way (on the main actor) may still be due: wait for every row to show its final
      // subject; a lost update never does.
      _ = await eventually {
        observers.indices.allSatisfy { observers[$0].seen == store.mails[$0].subject }
      }
      for (index, observer) in observers.enumerated() {
        let final = store.mails[index].subject
        #expect(
          observer.seen == final,
          "seed \(trialSeed) (\(reRead)): row \(index + 1) shows \(observer.seen), its subject is \(final)")
      }
    }
  }

  /// Sends `perThread` increments from each of `threads` threads, pausing at seeded random moments.
  private func sendConcurrently(
    to store: Store<Counter.State, Counter.Action>, threads: Int, perThread: Int, seed: UInt64
  )
    async
  {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      let group = DispatchGroup()
      for thread in 0..<threads {
        group.enter()
        Thread.detachNewThread {
          var random = SeededGenerator(seed: seed &+ UInt64(thread) &* 0x9E37_79B9)
          for _ in 0..<perThread {
            store.send(.increment)
            switch random.next() % 8 {
            case 0: usleep(UInt32(random.next() % 200))  // deliberate jitter
            case 1: sched_yield()
            default: break
            }
          }
          group.leave()
        }
      }
      group.notify(queue: .global()) { done.resume() }
    }
  }
}

/// Tracks `store.state.count` with `withObservationTracking`, re-reading (and so tracking again) after each
/// notification.
final class ReReadingObserver: Sendable {
  private struct Status {
    var seen = -1
    var pending = false
  }

  private let store: Store<Counter.State, Counter.Action>
  private let reRead: LostUpdateTests.ReRead
  private let statusBox = Locked(Status())

  init(store: Store<Counter.State, Counter.Action>, reRead: LostUpdateTests.ReRead) {
    self.store = store
    self.reRead = reRead
  }

  /// The last count read, and whether a notification came that was not followed by a read yet.
  var status: (seen: Int, pending: Bool) { statusBox.withLock { ($0.seen, $0.pending) } }

  /// Reads the count, tracking it.
  func track() {
    withObservationTracking {
      let count = store.state.count
      statusBox.withLock {
        $0.seen = count
        $0.pending = false
      }
    } onChange: { [self] in
      statusBox.withLock { $0.pending = true }
      switch reRead {
      case .synchronously: track()
      case .onTheMainActor: Task { @MainActor in self.track() }
      }
    }
  }

}

/// Tracks one row store's subject, re-reading after each notification.
final class RowObserver: Sendable {
  private let row: ScopedStore<Mail, MailRow.Action>
  private let reRead: LostUpdateTests.ReRead
  private let seenBox = Locked("")

  init(row: ScopedStore<Mail, MailRow.Action>, reRead: LostUpdateTests.ReRead) {
    self.row = row
    self.reRead = reRead
  }

  var seen: String { seenBox.withLock { $0 } }

  func track() {
    withObservationTracking {
      let subject = row.subject
      seenBox.withLock { $0 = subject }
    } onChange: { [self] in
      switch reRead {
      case .synchronously: track()
      case .onTheMainActor: Task { @MainActor in self.track() }
      }
    }
  }
}
