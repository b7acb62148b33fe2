import Synchronization

/// One step of the path from the root state to the child state that started an effect: the key path of
/// a ``Scope``, ``Reducer/ifLet(_:action:then:)``, ``Reducer/forEach(_:action:element:)`` or navigation
/// reducer, and for a collection the element's id (for a presentation, its presentation id).
///
/// Unchecked `Sendable`: `AnyKeyPath` is not marked `Sendable`, but a key path is immutable and these are
/// made only from the reducers' `& Sendable` key paths. A key path rather than an ``EffectID`` of one: it
/// is compared often and never boxed, which costs a fraction of wrapping it in an `AnyHashable`.
@usableFromInline
struct LifetimeComponent: Equatable, @unchecked Sendable {
  @usableFromInline let scope: AnyKeyPath
  @usableFromInline let element: EffectID?

  @inlinable
  init(scope: AnyKeyPath, element: EffectID?) {
    self.scope = scope
    self.element = element
  }

  @usableFromInline
  static func == (lhs: Self, rhs: Self) -> Bool {
    // Key path literals are instantiated once, so the identity test usually decides.
    (lhs.scope === rhs.scope || lhs.scope == rhs.scope) && lhs.element == rhs.element
  }
}

/// Ends the work of the children of one reducer that are gone: every running effect whose lifetime
/// starts with `prefix`, continues with `scope`, and whose next step's element `isAlive` says is gone.
///
/// Unchecked: `isAlive` may read a copy of state whose type need not be `Sendable` (the elements of a
/// collection as the action left them), and `scope` is an `AnyKeyPath` (see ``LifetimeComponent``). The
/// store calls `isAlive` only while it starts the effects of the action that made it, on the sending
/// thread, and a copy of a value is only read.
@usableFromInline
struct LifetimeEnd: @unchecked Sendable {
  @usableFromInline var prefix: [LifetimeComponent]
  @usableFromInline let scope: AnyKeyPath
  @usableFromInline let isAlive: (EffectID?) -> Bool

  @inlinable
  init(scope: AnyKeyPath, isAlive: @escaping (EffectID?) -> Bool) {
    self.prefix = []
    self.scope = scope
    self.isAlive = isAlive
  }

  /// Whether an effect with `lifetime` belongs to a child this end stops.
  func ends(_ lifetime: [LifetimeComponent]) -> Bool {
    let depth = prefix.count
    guard lifetime.count > depth else { return false }
    for index in 0..<depth where lifetime[index] != prefix[index] { return false }
    let step = lifetime[depth]
    guard step.scope === scope || step.scope == scope else { return false }
    return !isAlive(step.element)
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
  ///
  /// `component` is made only when there is work: an `EffectID` wraps its value in an `AnyHashable`,
  /// whose dynamic casts cost more than the rest of a send.
  @inlinable
  func inLifetime(_ component: @autoclosure () -> LifetimeComponent) -> Effect {
    isNone ? self : placed(in: component())
  }

  @usableFromInline
  func placed(in component: LifetimeComponent) -> Effect {
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
  @inlinable
  func nestingChildLifetimes(in component: @autoclosure () -> LifetimeComponent) -> Effect {
    isNone ? self : nestingChildLifetimes(inComponent: component())
  }

  @usableFromInline
  func nestingChildLifetimes(inComponent component: LifetimeComponent) -> Effect {
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
  static func endLifetimes(under scope: AnyKeyPath, isAlive: @escaping (EffectID?) -> Bool) -> Effect {
    Effect(items: [.endLifetimes(LifetimeEnd(scope: scope, isAlive: isAlive))])
  }
}
