import Synchronization

/// One step of the path from the root state to the child state that started an effect: the key path of
/// a ``Scope``, ``Reducer/ifLet(_:action:then:)``, ``Reducer/forEach(_:action:element:)`` or navigation
/// reducer, and for a collection the element's id (for a presentation, its presentation id).
@usableFromInline
struct LifetimeComponent: Hashable, Sendable {
  @usableFromInline let scope: EffectID
  @usableFromInline let element: EffectID?

  @inlinable
  init(scope: EffectID, element: EffectID?) {
    self.scope = scope
    self.element = element
  }
}

/// Ends the work of the children of one reducer that are gone: every running effect whose lifetime
/// starts with `prefix`, continues with `scope`, and whose next step's element `isAlive` says is gone.
///
/// Unchecked: `isAlive` may read a copy of state whose type need not be `Sendable` (the elements of a
/// collection as the action left them). The store calls it only while it starts the effects of the
/// action that made it, on the sending thread, and a copy of a value is only read.
@usableFromInline
struct LifetimeEnd: @unchecked Sendable {
  @usableFromInline var prefix: [LifetimeComponent]
  @usableFromInline let scope: EffectID
  @usableFromInline let isAlive: (EffectID?) -> Bool

  @inlinable
  init(scope: EffectID, isAlive: @escaping (EffectID?) -> Bool) {
    self.prefix = []
    self.scope = scope
    self.isAlive = isAlive
  }

  /// Whether an effect with `lifetime` belongs to a child this end stops.
  func ends(_ lifetime: [LifetimeComponent]) -> Bool {
    guard lifetime.count > prefix.count, lifetime.starts(with: prefix) else { return false }
    let step = lifetime[prefix.count]
    return step.scope == scope && !isAlive(step.element)
  }
}

/// The number of running effects, in every store of the process, that belong to a child state.
///
/// Reducers that can remove children read it: when it is zero no child work can be running, so they skip
/// looking for children that went away, and a send pays nothing for lifetimes. It only decides whether a
/// reducer returns a cancellation, never what it does to state, so replay is unaffected.
@usableFromInline
let childEffectCount = Atomic<Int>(0)

extension Effect {
  /// Whether any work belonging to a child state may be running, or this effect starts some: when
  /// false, no child can have work to end.
  @inlinable
  static func mayHaveChildWork(besides effect: Effect) -> Bool {
    !effect.isNone || childWorkMayRun
  }

  /// Whether any effect that belongs to a child state runs, in any store.
  @inlinable
  static var childWorkMayRun: Bool { childEffectCount.load(ordering: .relaxed) > 0 }

  /// The same effect, its work placed inside the child state `component` names: ending that child ends
  /// the work.
  @usableFromInline
  func inLifetime(_ component: LifetimeComponent) -> Effect {
    guard let work else { return self }
    return Effect(
      items: work.items.map { item in
        switch item {
        case .run(var run):
          run.lifetime.insert(component, at: 0)
          return .run(run)
        case .endLifetimes(var end):
          end.prefix.insert(component, at: 0)
          return .endLifetimes(end)
        case .send, .cancel, .diagnostic:
          return item
        }
      })
  }

  /// The same effect, the work that already belongs to a child placed inside `component` too: for a
  /// ``Scope``, whose child state never goes away, so only the paths of grandchildren need it to stay
  /// apart from those of another scope.
  @usableFromInline
  func nestingChildLifetimes(in component: LifetimeComponent) -> Effect {
    guard let work,
      work.items.contains(where: { item in
        switch item {
        case .run(let run): !run.lifetime.isEmpty
        case .endLifetimes: true
        case .send, .cancel, .diagnostic: false
        }
      })
    else { return self }
    return Effect(
      items: work.items.map { item in
        switch item {
        case .run(var run) where !run.lifetime.isEmpty:
          run.lifetime.insert(component, at: 0)
          return .run(run)
        case .endLifetimes(var end):
          end.prefix.insert(component, at: 0)
          return .endLifetimes(end)
        default:
          return item
        }
      })
  }

  /// Ends the running work of the children under `scope` for which `isAlive` is false.
  @inlinable
  static func endLifetimes(
    under scope: some Hashable & Sendable, isAlive: @escaping (EffectID?) -> Bool
  ) -> Effect {
    Effect(items: [.endLifetimes(LifetimeEnd(scope: EffectID(scope), isAlive: isAlive))])
  }
}
