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
  }

  @usableFromInline
  struct Run: Sendable {
    var priority: TaskPriority?
    var cancellationIDs: [EffectID] = []
    var cancelInFlight = false
    var operation: @Sendable (Send<Action>) async throws -> Void
  }

  // No allocation for the common cases of no effect and one effect.
  @usableFromInline
  enum Storage: Sendable {
    case none
    case one(Item)
    case many([Item])
  }

  @usableFromInline
  var storage: Storage

  @inlinable
  init(storage: Storage) { self.storage = storage }

  @usableFromInline
  var items: [Item] {
    switch storage {
    case .none: []
    case .one(let item): [item]
    case .many(let items): items
    }
  }

  @usableFromInline
  init(items: [Item]) {
    switch items.count {
    case 0: storage = .none
    case 1: storage = .one(items[0])
    default: storage = .many(items)
    }
  }

  /// No work.
  @inlinable
  public static var none: Effect { Effect(storage: .none) }

  /// Whether this effect does nothing.
  @inlinable
  public var isNone: Bool {
    if case .none = storage { return true }
    return false
  }

  /// Sends `action` right after the current one, before the outer `send` returns.
  @inlinable
  public static func send(_ action: Action) -> Effect { Effect(storage: .one(.send(action))) }

  /// Runs `operation` as a task; it sends actions through the ``Send`` it is given.
  ///
  /// An error other than `CancellationError` is reported as a ``Diagnostic``.
  public static func run(
    priority: TaskPriority? = nil,
    operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void
  ) -> Effect {
    Effect(storage: .one(.run(Run(priority: priority, operation: operation))))
  }

  /// Cancels the running effects marked with `id` by ``cancellable(id:cancelInFlight:)``.
  public static func cancel(id: some Hashable & Sendable) -> Effect {
    Effect(storage: .one(.cancel(EffectID(id))))
  }

  /// Reports `diagnostic` through the store's diagnostics hook.
  @inlinable
  public static func diagnostic(_ diagnostic: Diagnostic) -> Effect {
    Effect(storage: .one(.diagnostic(diagnostic)))
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
    switch (storage, other.storage) {
    case (.none, _): other
    case (_, .none): self
    default: Effect(items: items + other.items)
    }
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
    switch storage {
    case .none: .none
    case .one(let item): Effect<T>(storage: .one(item.map(transform)))
    case .many(let items): Effect<T>(storage: .many(items.map { $0.map(transform) }))
    }
  }
}

extension Effect.Item {
  @usableFromInline
  func map<T: Sendable>(_ transform: @escaping @Sendable (Action) -> T) -> Effect<T>.Item {
    switch self {
    case .send(let action): .send(transform(action))
    case .cancel(let id): .cancel(id)
    case .diagnostic(let diagnostic): .diagnostic(diagnostic)
    case .run(let run):
      .run(
        Effect<T>.Run(
          priority: run.priority, cancellationIDs: run.cancellationIDs, cancelInFlight: run.cancelInFlight,
          operation: { send in try await run.operation(Send { send(transform($0)) }) }))
    }
  }
}

/// The identity of cancellable effect work: any hashable, sendable value.
public struct EffectID: Hashable, Sendable, CustomStringConvertible {
  // AnyHashable is not Sendable, but it only ever wraps a value that is.
  private nonisolated(unsafe) let value: AnyHashable

  /// Wraps `id`.
  public init(_ id: some Hashable & Sendable) { value = AnyHashable(id) }

  public var description: String { "\(value)" }
}
