import Observation

/// What a read of a store observes: a key path of its state, the whole state, the root's history, the ids
/// of a collection scope, or whether an optional child is present.
@usableFromInline
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
/// read this path. The mutable fields belong to the root's ``ObservationCenter`` and are only touched
/// under its lock. Not generic, so that the nodes' dictionaries of paths have concrete types: generic ones
/// cost a run-time metadata lookup on every read.
@usableFromInline
class PathObservation: Observable, @unchecked Sendable {
  // @unchecked: the `var`s are only touched under the owning ObservationCenter's lock; the registrar is
  // thread-safe.
  let registrar = ObservationRegistrar()
  /// The node whose state this path reads. Weak: a flush can still list a path (forced by a read between a
  /// send and the flush) after its store, and the node with it, went away.
  weak var owner: ScopeNode?
  /// Read since it was last notified: an observer may be registered, so flushes compare it.
  var isInteresting = false
  /// In the list a flush is about to notify.
  var isQueued = false

  @usableFromInline
  init(owner: ScopeNode) { self.owner = owner }

  /// What readers register on; it carries no value.
  var marker: Void { () }

  /// Registers the current observation tracking (a SwiftUI body, `withObservationTracking`) on this path.
  @usableFromInline
  func access() { registrar.access(self, keyPath: \.marker) }

  /// Tells the observers registered on this path that it changed. Call outside any lock.
  func notifyObservers() {
    registrar.willSet(self, keyPath: \.marker)
    registrar.didSet(self, keyPath: \.marker)
  }
}

/// An observed path of a store whose state is `State`, with how to tell whether it changed.
@usableFromInline
final class TypedPathObservation<State>: PathObservation, @unchecked Sendable {
  /// Whether the path's value differs between two states of the store.
  let changed: (State, State) -> Bool

  @usableFromInline
  init(owner: ScopeNode, changed: @escaping (State, State) -> Bool) {
    self.changed = changed
    super.init(owner: owner)
  }

  /// A path that reads `keyPath`, compared with `equal` when given (else by a run-time `Equatable`
  /// conformance), after the identity test of ``ValueIdentity``.
  ///
  /// Inlinable, so that the comparison is specialized for `State` and `Value` where the app reads.
  @inlinable
  static func reading<Value>(
    _ keyPath: KeyPath<State, Value>, owner: ScopeNode, equal: ((Value, Value) -> Bool)?
  ) -> TypedPathObservation {
    TypedPathObservation(owner: owner) { old, new in
      ValueIdentity.changed(old[keyPath: keyPath], new[keyPath: keyPath], equal: equal)
    }
  }
}
