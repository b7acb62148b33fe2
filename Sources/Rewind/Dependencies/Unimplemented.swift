/// A closure for a test value that fails the test when called: it reports `name` as an unimplemented
/// dependency, then throws ``UnimplementedDependencyError``.
///
/// ```swift
/// static let testValue = MailServer(fetch: unimplemented("MailServer.fetch"))
/// ```
///
/// A closure of any arity converts: `@Sendable (String) async throws -> [Mail]` or one without `async`.
/// - Parameter name: names the dependency and its endpoint in the failure.
public func unimplemented<each Argument, Result>(
  _ name: String
) -> @Sendable (repeat each Argument) async throws -> Result {
  { (_: repeat each Argument) in
    DependencyValues.current.reportUnimplemented("Unimplemented: \(name) was called")
    throw UnimplementedDependencyError(name: name)
  }
}

/// A closure for a test value that fails the test when called, then returns `placeholder`: for
/// endpoints that cannot throw.
///
/// - Parameters:
///   - name: names the dependency and its endpoint in the failure.
///   - placeholder: returned after the report, so the effect can go on.
public func unimplemented<each Argument, Result: Sendable>(
  _ name: String, placeholder: Result
) -> @Sendable (repeat each Argument) -> Result {
  { (_: repeat each Argument) in
    DependencyValues.current.reportUnimplemented("Unimplemented: \(name) was called")
    return placeholder
  }
}

/// Thrown by an ``unimplemented(_:)`` closure after it reported the call.
public struct UnimplementedDependencyError: Error, Hashable, CustomStringConvertible {
  /// The dependency endpoint that was called.
  public var name: String

  /// Creates the error for `name`.
  public init(name: String) { self.name = name }

  public var description: String { "unimplemented dependency: \(name)" }
}
