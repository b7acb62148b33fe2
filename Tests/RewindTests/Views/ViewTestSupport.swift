import Foundation
import Observation
import Rewind

/// Counts how often what `read` reads is reported changed, re-reading (and so tracking again) when told,
/// the way a view re-renders.
final class InvalidationProbe<Value: Sendable>: Sendable {
  private struct Counts {
    var invalidations = 0
    var lastValue: Value?
    var isTracking = false
    var notifiedOnMainActor = true
    var onInvalidate: (@Sendable () -> Void)?
  }

  private let read: @Sendable () -> Value
  private let counts: Locked<Counts>

  init(_ read: @escaping @Sendable () -> Value) {
    self.read = read
    counts = Locked(Counts())
    track()
  }

  /// Times the tracked read was reported changed.
  var invalidations: Int { counts.withLock { $0.invalidations } }
  /// The value the last read saw.
  var lastValue: Value? { counts.withLock { $0.lastValue } }
  /// Whether a read is being tracked (none after a notification, until ``track()``).
  var isTracking: Bool { counts.withLock { $0.isTracking } }
  /// Whether every notification came on the main actor.
  var notifiedOnMainActor: Bool { counts.withLock { $0.notifiedOnMainActor } }

  /// Reads and tracks the read.
  func track() {
    withObservationTracking {
      let value = read()
      counts.withLock {
        $0.lastValue = value
        $0.isTracking = true
      }
    } onChange: { [self] in
      let onMain = Self.isOnMainActor()
      let hook = counts.withLock {
        $0.invalidations += 1
        $0.isTracking = false
        $0.notifiedOnMainActor = $0.notifiedOnMainActor && onMain
        return $0.onInvalidate
      }
      hook?()
    }
  }

  /// Calls `hook` at each notification, as it happens.
  func onInvalidate(_ hook: @escaping @Sendable () -> Void) { counts.withLock { $0.onInvalidate = hook } }

  /// Forgets the count so far (the probe keeps tracking).
  func resetCount() { counts.withLock { $0.invalidations = 0 } }

  /// Re-reads if the last read was reported changed, as a view would re-render.
  func reRenderIfNeeded() { if !isTracking { track() } }

  private static func isOnMainActor() -> Bool { MainQueue.isCurrent }
}

/// Tells whether code runs on the main queue, the main actor's executor on every platform (on Linux a
/// worker thread drains it, so `Thread.isMainThread` does not tell).
enum MainQueue {
  private static let key: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()

  static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) ?? false }
}

/// Lets the main actor tell `store`'s observers of every send so far, and run what that scheduled on it
/// (an `observe` closure's next run).
func settleViews<State, Action>(_ store: ScopedStore<State, Action>) async {
  await store.waitForViewUpdates()
  await MainActor.run {}
}

/// A list of mails that can be reordered and edited, with a search query: the shape of a list screen.
struct Outbox: Reducer {
  struct State: Equatable, Sendable {
    var mails: IdentifiedArray<Mail> = []
    var query = ""
    var edits = 0
  }

  enum Action: Equatable, Sendable {
    case mail(IdentifiedAction<Int, MailRow.Action>)
    case move(from: Int, to: Int)
    case remove(id: Int)
    case queryChanged(String)
  }

  static let mailPath = ActionPath<Action, IdentifiedAction<Int, MailRow.Action>>(
    embed: Action.mail, extract: { if case .mail(let action) = $0 { action } else { nil } })

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .mail: state.edits += 1
      case .move(let from, let to): state.mails.move(from: from, to: to)
      case .remove(let id): state.mails.remove(id: id)
      case .queryChanged(let query): state.query = query
      }
      return .none
    }
    .forEach(\.mails, action: Self.mailPath) { MailRow() }
  }
}
