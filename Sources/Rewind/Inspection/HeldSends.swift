import Synchronization

/// The sends a store holds back while an inspector looks at the past or has paused the app.
///
/// While holding, every send (an app's action, an undo, an effect's action) is queued here in order
/// instead of being applied; releasing hands them back to the dispatch gate, which applies them in the same
/// order before any later send. Every transition happens while the dispatch gate is held (a send checks the
/// flag inside the gate too), so a send is either applied before a pause or held after it, and never
/// overtakes a held one. At most ``limit`` sends are held: the next one releases them all (see
/// ``StoreEngine/holdOrRelease(_:)``), so a forgotten pause never grows without bound.
package final class HeldSends<State: Sendable, Action: Sendable>: Sendable {
  /// The queue and what to tell when it overflows, behind one lock.
  struct Queue {
    var sends: [PendingEvent<State, Action>] = []
    var limit = 10_000
    /// Told (once per release, outside the gate's work) that the queue overflowed and was released.
    var onOverflow: (@Sendable () -> Void)?
  }

  let queue = Locked(Queue())

  init() {}

  /// The number of sends held now.
  package var count: Int { queue.withLock { $0.sends.count } }

  /// How many sends are held before the next one releases them all.
  package var limit: Int {
    get { queue.withLock { $0.limit } }
    set { queue.withLock { $0.limit = max(0, newValue) } }
  }

  /// Sets what is told when the queue overflows and the store returns to live by itself.
  package func onOverflow(_ body: (@Sendable () -> Void)?) {
    queue.withLock { $0.onOverflow = body }
  }

  /// Queues `pending`; returns the held sends followed by `pending` instead when the queue is full.
  func hold(_ pending: PendingEvent<State, Action>) -> (
    released: [PendingEvent<State, Action>], overflow: (@Sendable () -> Void)?
  )? {
    queue.withLock { queue in
      guard queue.sends.count >= queue.limit else {
        queue.sends.append(pending)
        return nil
      }
      var released: [PendingEvent<State, Action>] = []
      swap(&released, &queue.sends)
      released.append(pending)
      return (released, queue.onOverflow)
    }
  }

  /// Takes every held send, oldest first.
  func takeAll() -> [PendingEvent<State, Action>] {
    queue.withLock { queue in
      var taken: [PendingEvent<State, Action>] = []
      swap(&taken, &queue.sends)
      return taken
    }
  }
}
