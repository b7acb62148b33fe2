/// The work a reducer asks for after changing state: nothing, an action to send, or async work.
///
/// Effects run once, live; they are never replayed. The actions they send become events whose metadata
/// names the event that caused them (``EventSource/effect(cause:)``), so replay reproduces their results.
public struct Effect<Action: Sendable>: Sendable {
  @usableFromInline
  enum Item: Sendable {
    case send(Action)
    case run(Run)
    case cancel(EffectID)
    case diagnostic(Diagnostic)
    /// Ends the work of children that went away (see ``LifetimeEnd``).
    case endLifetimes(LifetimeEnd)
  }

  @usableFromInline
  struct Run: Sendable {
    // The raw value, not `TaskPriority?`: TaskPriority is a resilient type, which would give every
    // `Effect` a layout known only at run time and make creating and destroying `.none` on each send
    // go through runtime value-witness calls.
    var priorityRawValue: UInt8?
    var priority: TaskPriority? { priorityRawValue.map(TaskPriority.init(rawValue:)) }
    var cancellationIDs: [EffectID] = []
    var cancelInFlight = false
    /// The child state this work belongs to, outermost first; empty for work of the root.
    var lifetime: [LifetimeComponent] = []
    var operation: @Sendable (Send<Action>) async throws -> Void
  }

  /// The work, boxed: `nil` for no effect, the common case, which costs nothing to create, copy, test or
  /// destroy on each send. An inline enum of items was measured costing about a tenth of a `send` in
  /// value-witness calls, because of its multi-payload layout.
  @usableFromInline
  final class Work: Sendable {
    @usableFromInline let items: [Item]

    @usableFromInline
    init(_ items: [Item]) { self.items = items }
  }

  @usableFromInline
  let work: Work?

  @inlinable
  init(work: Work?) { self.work = work }

  @usableFromInline
  var items: [Item] { work?.items ?? [] }

  @inlinable
  init(items: [Item]) { work = items.isEmpty ? nil : Work(items) }

  /// No work.
  @inlinable
  public static var none: Effect { Effect(work: nil) }

  /// Whether this effect does nothing.
  @inlinable
  public var isNone: Bool { work == nil }

  /// Sends `action` right after the current one, before the outer `send` returns.
  @inlinable
  public static func send(_ action: Action) -> Effect { Effect(items: [.send(action)]) }

  /// Runs `operation` as a task; it sends actions through the ``Send`` it is given.
  ///
  /// An error other than `CancellationError` is reported as a ``Diagnostic``.
  public static func run(
    priority: TaskPriority? = nil,
    operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void
  ) -> Effect {
    Effect(items: [.run(Run(priorityRawValue: priority?.rawValue, operation: operation))])
  }

  /// Cancels the running effects marked with `id` by ``cancellable(id:cancelInFlight:)``.
  public static func cancel(id: some Hashable & Sendable) -> Effect {
    Effect(items: [.cancel(EffectID(id))])
  }

  /// Reports `diagnostic` through the store's diagnostics hook.
  @inlinable
  public static func diagnostic(_ diagnostic: Diagnostic) -> Effect {
    Effect(items: [.diagnostic(diagnostic)])
  }

  /// All of `effects`, in order.
  public static func merge(_ effects: Effect...) -> Effect { merge(effects) }

  /// All of `effects`, in order.
  public static func merge(_ effects: some Sequence<Effect>) -> Effect {
    effects.reduce(Effect.none) { $0.merge(with: $1) }
  }

  /// This effect's work followed by `other`'s.
  @inlinable
  public func merge(with other: Effect) -> Effect {
    if isNone { return other }
    if other.isNone { return self }
    return Effect(items: items + other.items)
  }

  /// Marks the async work of this effect with `id`, so that ``cancel(id:)`` can stop it.
  ///
  /// - Parameters:
  ///   - id: any hashable, sendable value naming the work.
  ///   - cancelInFlight: cancel the work already running under `id` before starting this.
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Effect {
    let id = EffectID(id)
    return Effect(
      items: items.map { item in
        guard case .run(var run) = item else { return item }
        run.cancellationIDs.append(id)
        run.cancelInFlight = run.cancelInFlight || cancelInFlight
        return .run(run)
      })
  }

  /// The same work, its actions turned into `T` by `transform`.
  @inlinable
  public func map<T: Sendable>(_ transform: @escaping @Sendable (Action) -> T) -> Effect<T> {
    guard let work else { return .none }
    return Effect<T>(items: work.items.map { $0.map(transform) })
  }
}

extension Effect.Item {
  @usableFromInline
  func map<T: Sendable>(_ transform: @escaping @Sendable (Action) -> T) -> Effect<T>.Item {
    switch self {
    case .send(let action): .send(transform(action))
    case .cancel(let id): .cancel(id)
    case .diagnostic(let diagnostic): .diagnostic(diagnostic)
    case .endLifetimes(let end): .endLifetimes(end)
    case .run(let run):
      .run(
        Effect<T>.Run(
          priorityRawValue: run.priorityRawValue, cancellationIDs: run.cancellationIDs,
          cancelInFlight: run.cancelInFlight, lifetime: run.lifetime,
          operation: { send in try await run.operation(Send { send(transform($0)) }) }))
    }
  }
}

/// The identity of cancellable effect work: any hashable, sendable value.
public struct EffectID: Hashable, Sendable, CustomStringConvertible {
  // AnyHashable is not Sendable, but it only ever wraps a value that is.
  private nonisolated(unsafe) let value: AnyHashable

  /// Wraps `id`.
  public init(_ id: some Hashable & Sendable) { unsafe value = AnyHashable(id) }

  /// The wrapped value.
  @usableFromInline var base: Any { unsafe value.base }

  public var description: String { unsafe "\(value)" }

  /// Whether both wrap equal values. (Written out as the synthesized one would be, so that its read of
  /// `value` is marked `unsafe`: a synthesized one is reported without a place to mark.)
  public static func == (lhs: EffectID, rhs: EffectID) -> Bool { unsafe lhs.value == rhs.value }

  /// Hashes the wrapped value.
  public func hash(into hasher: inout Hasher) { unsafe hasher.combine(value) }
}
