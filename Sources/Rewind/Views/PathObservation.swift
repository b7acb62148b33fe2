import Observation

/// What a read of a store observes: a key path of its state, the whole state, the root's history, or the
/// ids of a collection scope.
enum PathKey: Hashable {
  case keyPath(AnyKeyPath)
  case whole
  /// Anything the undo history reports (``Store/canUndo``…): changed by every event.
  case history
  /// The ids of a collection, in order.
  case ids
  /// Whether the optional at a key path is present (an optional scope).
  case presence(AnyKeyPath)
}

/// One observed path of one store: what a view's read registers with, and what a flush notifies.
///
/// Each path has its own `ObservationRegistrar`, so a notification reaches exactly the observers that
/// read this path. The mutable fields belong to the ``ObservationCenter`` of the root store and are only
/// touched under its lock.
class PathObservation: Observable, @unchecked Sendable {
  // @unchecked: the `var`s are only touched under the owning ObservationCenter's lock; the registrar is
  // thread-safe.
  let registrar = ObservationRegistrar()
  /// Read since it was last notified: an observer may be registered, so flushes compare it.
  var isInteresting = false
  /// In the list a flush is about to notify.
  var isQueued = false

  /// What readers register on; it carries no value.
  var marker: Void { () }

  /// Registers the current observation tracking (a SwiftUI body, `withObservationTracking`) on this path.
  func access() { registrar.access(self, keyPath: \.marker) }

  /// Tells the observers registered on this path that it changed. Call outside any lock.
  func notifyObservers() {
    registrar.willSet(self, keyPath: \.marker)
    registrar.didSet(self, keyPath: \.marker)
  }

  /// Ends this path's interest after a notification: its observers were told, and a registration is
  /// one-shot. Overridden by the typed path, which knows its owner.
  func clearInterest() {}
}

/// An observed path of a store whose state is `State`, with how to tell whether it changed.
final class TypedPathObservation<State>: PathObservation, @unchecked Sendable {
  /// Whether the path's value differs between two states of the store.
  let changed: (State, State) -> Bool
  unowned let owner: ScopeNode<State>

  init(owner: ScopeNode<State>, changed: @escaping (State, State) -> Bool) {
    self.owner = owner
    self.changed = changed
  }

  override func clearInterest() { owner.clearInterest(in: self) }
}

extension TypedPathObservation {
  /// A path that reads `keyPath`, compared with `equal` when given (else by a run-time `Equatable`
  /// conformance), after the identity test of ``ValueIdentity``.
  static func reading<Value>(
    _ keyPath: KeyPath<State, Value>, owner: ScopeNode<State>, equal: ((Value, Value) -> Bool)?
  ) -> TypedPathObservation {
    TypedPathObservation(owner: owner) { old, new in
      ValueIdentity.changed(old[keyPath: keyPath], new[keyPath: keyPath], equal: equal)
    }
  }
}
