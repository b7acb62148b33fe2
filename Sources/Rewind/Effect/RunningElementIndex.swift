/// The elements of collections whose effects are running, in every store of the process: for each key
/// path of a `forEach` (or navigation stack) collection, the ids of its elements with running work.
///
/// A `forEach` reads it on each action while child work runs, to tell at the cost of a lookup whether an
/// element with running work left its collection, and returns a cancellation only then. The index knows
/// key paths, not where a collection sits in the state: ids of another collection at the same key path
/// (in another scope or store) are looked at too, which can only return a cancellation that ends nothing.
/// It never decides what a reducer does to state, so replay is unaffected.
@usableFromInline
final class RunningElementIndex: Sendable {
  /// Unchecked `Sendable`: see ``LifetimeComponent``.
  private struct Scope: Hashable, @unchecked Sendable {
    let keyPath: AnyKeyPath
  }

  private let table = Locked<[Scope: [EffectID: Int]]>([:])

  /// Records the running work of an effect with `lifetime`.
  func add(_ lifetime: [LifetimeComponent]) {
    table.withLock { table in
      for component in lifetime {
        guard let element = component.element else { continue }
        table[Scope(keyPath: component.scope), default: [:]][element, default: 0] += 1
      }
    }
  }

  /// Forgets the work of an effect with `lifetime`, which ended.
  func remove(_ lifetime: [LifetimeComponent]) {
    table.withLock { table in
      for component in lifetime {
        guard let element = component.element else { continue }
        let scope = Scope(keyPath: component.scope)
        guard let count = table[scope]?[element] else { continue }
        if count > 1 {
          table[scope]?[element] = count - 1
        } else {
          table[scope]?[element] = nil
          if table[scope]?.isEmpty == true { table[scope] = nil }
        }
      }
    }
  }

  /// Whether an element with running work under `keyPath` is one that `isPresent` says is gone.
  ///
  /// `isPresent` runs under the index's lock, once per running element id, and must not use the index.
  @usableFromInline
  func hasGoneElement(under keyPath: AnyKeyPath, isPresent: (EffectID) -> Bool) -> Bool {
    table.withLock { table in
      guard let running = table[Scope(keyPath: keyPath)] else { return false }
      return running.keys.contains { !isPresent($0) }
    }
  }
}

/// The process's index of elements with running work.
@usableFromInline
let runningElements = RunningElementIndex()
