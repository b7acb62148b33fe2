extension Effect {
  /// The same effect, its async work run with the current dependency values changed by `update`.
  ///
  /// `update` runs when the work starts, inside the values the store (and outer overrides) installed, so
  /// the innermost override is applied last and wins.
  @usableFromInline
  func withDependencies(_ update: @escaping @Sendable (inout DependencyValues) -> Void) -> Effect {
    mapRuns { run in
      var run = run
      let operation = run.operation
      run.operation = { send in
        var values = DependencyValues.current
        update(&values)
        try await DependencyValues.$taskLocal.withValue(values) { try await operation(send) }
      }
      return run
    }
  }

  /// The same effect with each `.run` item replaced by `transform(run)`.
  func mapRuns(_ transform: (Run) -> Run) -> Effect {
    guard let work else { return self }
    return Effect(
      items: work.items.map { item in
        guard case .run(let run) = item else { return item }
        return .run(transform(run))
      })
  }
}
