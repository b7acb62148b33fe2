extension Effect {
  /// Runs `operation` as a task, handing any error it throws, other than cancellation, to `handler`,
  /// which may send actions too.
  ///
  /// ```swift
  /// return .run { send in
  ///   send(.loaded(try await mailServer.fetch(folder)))
  /// } catch: { error, send in
  ///   send(.loadFailed("\(error)"))
  /// }
  /// ```
  /// - Parameters:
  ///   - priority: the task's priority.
  ///   - operation: the work; it sends actions through the ``Send`` it is given.
  ///   - handler: called with the error when `operation` throws one that is not a `CancellationError`.
  public static func run(
    priority: TaskPriority? = nil,
    operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: @escaping @Sendable (_ error: any Error, _ send: Send<Action>) async -> Void
  ) -> Effect {
    .run(priority: priority) { send in
      do {
        try await operation(send)
      } catch is CancellationError {
        throw CancellationError()
      } catch {
        await handler(error, send)
      }
    }
  }

  /// Runs `effects` one after another: each one's work finishes before the next one's starts.
  ///
  /// The result is one task. Actions that the parts send directly (``send(_:)``) are sent from it, in
  /// turn, so they arrive after the current `send` has returned. The cancellation ids of the parts mark
  /// the whole sequence: cancelling any of them stops what remains. Work that belongs to a child state
  /// ends with the least nested of the parts' children.
  public static func concatenate(_ effects: Effect...) -> Effect { concatenate(effects) }

  /// Runs `effects` one after another: each one's work finishes before the next one's starts.
  ///
  /// See ``concatenate(_:)-(Effect<Action>...)``.
  public static func concatenate(_ effects: some Collection<Effect>) -> Effect {
    let parts = effects.filter { !$0.isNone }
    guard parts.count > 1 else { return parts.first ?? .none }
    let items = parts.flatMap(\.items)
    let runs = items.compactMap { item -> Run? in
      if case .run(let run) = item { run } else { nil }
    }
    var ids: [EffectID] = []
    for id in runs.flatMap(\.cancellationIDs) where !ids.contains(id) { ids.append(id) }
    let lifetime = runs.dropFirst().reduce(runs.first?.lifetime ?? []) { common, run in
      Array(zip(common, run.lifetime).prefix { $0 == $1 }.map(\.0))
    }
    let sequence = Run(
      priorityRawValue: runs.lazy.compactMap(\.priorityRawValue).first, cancellationIDs: ids,
      cancelInFlight: runs.contains { $0.cancelInFlight }, lifetime: lifetime,
      operation: { send in try await Self.perform(items, send: send) })
    return Effect(items: [.run(sequence)])
  }

  /// Does `items` in order from an effect task, with the store's services that the task has.
  private static func perform(_ items: [Item], send: Send<Action>) async throws {
    let services = DependencyValues.current.services
    for item in items {
      try Task.checkCancellation()
      switch item {
      case .send(let action): send(action)
      case .run(let run): try await run.operation(send)
      case .cancel(let id): services?.effects.cancel(id: id)
      case .diagnostic(let diagnostic):
        if let services { services.report(diagnostic) } else { printToStandardError(diagnostic) }
      case .endLifetimes(let end): services?.effects.end(end)
      }
    }
  }

  /// This effect's work, started only after `duration` passes on the ``DependencyValues/clock`` without
  /// another effect marked `id` starting: the newest one wins.
  ///
  /// ```swift
  /// case .queryChanged(let query):
  ///   state.query = query
  ///   return .send(.search(query)).debounce(id: SearchDebounce(), for: .milliseconds(300))
  /// ```
  /// It is ``concatenate(_:)-(Effect<Action>...)`` of a sleep on the clock and this effect, marked
  /// ``cancellable(id:cancelInFlight:)`` with `cancelInFlight`; in tests, advance the `ManualClock`.
  /// - Parameters:
  ///   - id: names the debounced work; a later effect with the same id replaces it.
  ///   - duration: how long to wait.
  public func debounce(id: some Hashable & Sendable, for duration: Duration) -> Effect {
    guard !isNone else { return self }
    let wait = Effect.run { _ in
      @Dependency(\.clock) var clock
      try await clock.sleep(for: duration)
    }
    return Effect.concatenate(wait, self).cancellable(id: id, cancelInFlight: true)
  }
}
