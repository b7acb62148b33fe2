/// One subcommand of the tool: its specification and what it does.
public struct ToolCommand: Sendable {
  /// Name, arguments, options and help text.
  public var spec: CommandSpec
  /// Runs the command with parsed arguments; throws ``ToolError`` (or ``UsageError``) on failure.
  public var run: @Sendable (Invocation) throws -> ExitStatus

  /// Creates a command.
  public init(_ spec: CommandSpec, run: @escaping @Sendable (Invocation) throws -> ExitStatus) {
    self.spec = spec
    self.run = run
  }
}

/// What a running command gets: its arguments and where to write.
public struct Invocation: Sendable {
  /// The tool's name, for messages.
  public var tool: String
  /// The parsed arguments.
  public var arguments: ParsedArguments
  /// Standard output (results).
  public var output: any TextOutput
  /// Standard error (progress, warnings, errors).
  public var errors: any TextOutput

  /// Creates an invocation.
  public init(tool: String, arguments: ParsedArguments, output: any TextOutput, errors: any TextOutput) {
    self.tool = tool
    self.arguments = arguments
    self.output = output
    self.errors = errors
  }

  /// The first positional argument: every log command's directory.
  public var directory: String { arguments.positionals.first ?? "." }

  /// A progress bar on standard error, drawn only when it is a terminal.
  public func progress(_ label: String, total: UInt64) -> ProgressBar {
    ProgressBar(label, total: total, output: errors)
  }
}
