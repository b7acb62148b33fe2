import Observation

/// A store as a view sees it: its state, read path by path, and a way to send actions.
///
/// The root ``Store`` is one; `scope(state:action:)` makes others, for a part of the state (a feature, an optional child, each element of a collection), whose
/// sends go through the root: one log, one sequence, the child's action recorded inside its parent's.
/// A feature's views take a `ScopedStore` of the feature's own types, so they can live in their own module.
///
/// Reads through key paths are observed one path at a time:
///
/// ```swift
/// Text(store.subject)        // registers `\.subject` only
/// Toggle("Flagged", isOn: store.binding(\.isFlagged, send: Row.Action.setFlagged))
/// ```
///
/// After a send, only the observers of the paths whose values changed are notified, on the main actor,
/// once per turn of the main run loop however many sends came in (Docs/Views.md says how). Values are compared with `==` when they are `Equatable`, and first by identity of
/// their storage, which is O(1) for a collection that did not change. A send that changes nothing notifies
/// nobody.
///
/// A member of the store itself (``state``, ``send(_:)``…) hides a state property of the same name;
/// read that one through ``state`` or a scope.
@dynamicMemberLookup
public class ScopedStore<State: Sendable, Action: Sendable>: @unchecked Sendable {
  // @unchecked: every stored property is immutable and Sendable; a non-final class cannot state that
  // otherwise. Only `Store` subclasses it, and the initializer is internal.

  /// What this store sends through: the engine (the root store) or its parent (a scope).
  @usableFromInline let backing: StoreBacking<State, Action>
  /// How this store reads its state and registers its readers.
  @usableFromInline let observation: any StoreObserving<State>

  init(backing: StoreBacking<State, Action>, observation: any StoreObserving<State>) {
    self.backing = backing
    self.observation = observation
  }

  deinit {
    // A scope's node in the observation tree goes with it; the root's goes with the engine.
    if case .scope = backing { observation.detach() }
  }

  // MARK: Reading

  /// The current state. Reading it inside `withObservationTracking` (or a SwiftUI body) tracks all of it:
  /// prefer reading the properties a view needs (`store.title`), which are tracked one by one.
  public final var state: State {
    let (path, state) = observation.read(
      .whole, alias: nil,
      make: { owner in TypedPathObservation(owner: owner) { ValueIdentity.changed($0, $1, equal: nil) } },
      value: { $0 })
    path.access()
    return state
  }

  /// The value at `keyPath` in the current state, tracked by itself: its observers are notified only when
  /// it changes.
  @inlinable
  public final subscript<Value>(dynamicMember keyPath: KeyPath<State, Value> & Sendable) -> Value {
    read(keyPath, equal: nil)
  }

  /// The value at `keyPath` in the current state, tracked by itself and compared with `==`: its observers
  /// are notified only when it changes.
  @inlinable
  public final subscript<Value: Equatable>(dynamicMember keyPath: KeyPath<State, Value> & Sendable) -> Value {
    read(keyPath, equal: ==)
  }

  /// Reads `keyPath`, registering it with its comparison.
  ///
  /// Inlinable, so that the comparison a flush makes for this path is specialized for the app's types.
  @inlinable
  final func read<Value>(_ keyPath: KeyPath<State, Value> & Sendable, equal: ((Value, Value) -> Bool)?)
    -> Value
  {
    let (path, value) = observation.read(
      .keyPath(keyPath), alias: keyPath,
      make: { owner in TypedPathObservation.reading(keyPath, owner: owner, equal: equal) },
      value: { $0[keyPath: keyPath] })
    path.access()
    return value
  }

  // MARK: Sending

  /// Dispatches `action` from a person (the store's default actor): records it as an event, reduces it,
  /// and starts its effects.
  ///
  /// Synchronous and callable from any thread. When it returns, ``state`` reflects `action` and every
  /// action sent synchronously because of it. A scoped store's action is wrapped in its parent's actions
  /// up to the root, and recorded there.
  ///
  /// - Returns: the effects the action started, to await or cancel; ignore it when they should run on
  ///   their own.
  @inlinable @discardableResult
  public final func send(_ action: Action) -> StoreTask {
    switch backing {
    case .root(let engine):
      // A separate entry from `send(_:from:)`: a defaulted `Origin` argument, needed whole by the scoped
      // branch, was copied out of its global and destroyed on every send (about 50 instructions).
      return engine.dispatch(
        PendingEvent(payload: .action(action), actor: nil, source: .user, correlationID: nil))
    case .scope(let parent):
      return parent.send(action, from: .user, transaction: nil)
    }
  }

  /// Dispatches `action` like ``send(_:)``, recorded as sent from `origin`.
  ///
  /// - Parameters:
  ///   - action: what happened.
  ///   - origin: who sent it: a person (optionally named, with a correlation to continue) or the system.
  /// - Returns: the effects the action started, to await or cancel.
  @inlinable @discardableResult
  public final func send(_ action: Action, from origin: Origin) -> StoreTask {
    switch backing {
    case .root(let engine):
      return engine.dispatch(
        PendingEvent(
          payload: .action(action), actor: origin.actor, source: origin.source,
          correlationID: origin.correlationID))
    case .scope(let parent):
      return parent.send(action, from: origin, transaction: nil)
    }
  }

  /// Dispatches `action` like ``send(_:from:)``; the view updates it causes are applied inside
  /// `transaction` (an animation, for instance).
  @discardableResult
  public final func send(_ action: Action, from origin: Origin = .user, transaction: ViewTransaction)
    -> StoreTask
  {
    switch backing {
    case .root(let engine):
      return engine.dispatch(PendingEvent(action: action, from: origin), transaction: transaction)
    case .scope(let parent):
      return parent.send(action, from: origin, transaction: transaction)
    }
  }

  // MARK: Waiting for views

  /// Waits until the observers of this store's root have been told of every change made before the call,
  /// on the main actor: for tests of what views are told.
  public final func waitForViewUpdates() async {
    while true {
      await MainActor.run {}
      guard observation.hasPendingNotifications else { return }
      try? await Task.sleep(for: .microseconds(200))
    }
  }

}

extension ScopedStore: Observable {}
