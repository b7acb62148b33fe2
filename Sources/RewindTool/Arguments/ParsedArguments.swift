/// A command line after parsing: positional values, option values and flags.
public struct ParsedArguments: Sendable, Equatable {
  /// Positional arguments in order.
  public var positionals: [String] = []
  /// Every value given for each option, in order.
  public var values: [String: [String]] = [:]
  /// The flags that were given.
  public var flags: Set<String> = []
  /// Whether `--help` or `-h` was given.
  public var helpRequested = false

  /// Creates empty arguments.
  public init() {}

  /// The last value of option `name`, if given.
  public func value(_ name: String) -> String? { values[name]?.last }

  /// Every value of a repeatable option.
  public func allValues(_ name: String) -> [String] { values[name] ?? [] }

  /// Whether flag `name` was given.
  public func flag(_ name: String) -> Bool { flags.contains(name) }

  /// The value of option `name` as an unsigned integer.
  /// - Throws: ``UsageError`` when it is not one.
  public func unsigned(_ name: String) throws(UsageError) -> UInt64? {
    guard let text = value(name) else { return nil }
    guard let number = UInt64(text) else {
      throw UsageError("--\(name) expects a non-negative integer, not '\(text)'")
    }
    return number
  }

  /// Positional argument `index` as a sequence number (a `SEQ` argument).
  /// - Throws: ``UsageError`` when it is not a non-negative integer.
  func sequence(positional index: Int) throws(UsageError) -> UInt64 {
    let text = index < positionals.count ? positionals[index] : ""
    guard let value = UInt64(text) else {
      throw UsageError("SEQ must be a non-negative integer, not '\(text)'")
    }
    return value
  }
}

/// A command line the tool cannot act on; exits with status 64 (`EX_USAGE`).
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong.
  public var message: String

  /// Creates an error.
  public init(_ message: String) { self.message = message }

  public var description: String { message }
}
