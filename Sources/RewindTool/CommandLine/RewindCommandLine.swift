/// The `rewind` tool: a set of commands, dispatched by the first argument.
///
/// ```swift
/// let status = RewindCommandLine.standard.run(arguments: Array(CommandLine.arguments.dropFirst()))
/// ```
/// Apps add their own commands with ``adding(_:)`` (see ``RewindDebugger``).
public struct RewindCommandLine: Sendable {
  /// The tool's name in usage text.
  public var name: String
  /// The commands, in the order help lists them.
  public var commands: [ToolCommand]

  /// Creates a tool with `commands`.
  public init(name: String = "rewind", commands: [ToolCommand]) {
    self.name = name
    self.commands = commands
  }

  /// The standard log commands.
  public static var standard: RewindCommandLine {
    RewindCommandLine(commands: [
      InfoCommand.command, VerifyCommand.command, EventsCommand.command, ShowCommand.command,
      SnapshotsCommand.command, ExportCommand.command, RepairCommand.command,
      TimelineCommand.command(states: nil), LiveCommand.attach, ShipCommand.command,
      VerifyRemoteCommand.command, ReportCommand.command,
    ])
  }

  /// The same tool with `extra` commands; an extra command replaces a standard one of the same name.
  public func adding(_ extra: [ToolCommand]) -> RewindCommandLine {
    var copy = self
    for command in extra {
      if let index = copy.commands.firstIndex(where: { $0.spec.name == command.spec.name }) {
        copy.commands[index] = command
      } else {
        copy.commands.append(command)
      }
    }
    return copy
  }

  /// The overview `rewind --help` prints.
  public var usage: String {
    let width = commands.map(\.spec.name.count).max() ?? 0
    var lines = [
      "usage: \(name) COMMAND [options] [arguments]", "",
      "Inspect, verify, export, repair, browse and ship Rewind event logs.", "", "commands:",
    ]
    lines += commands.map {
      "  " + $0.spec.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.spec.summary
    }
    lines += [
      "", "Run '\(name) COMMAND --help' for a command's options.", "",
      "exit status: 0 ok, 1 verification failed or log damaged, 64 usage error, 66 missing input, 74 I/O error",
    ]
    return lines.joined(separator: "\n") + "\n"
  }

  /// Runs the command named by `arguments[0]` and returns the exit status.
  public func run(
    arguments: [String], output: any TextOutput = FileDescriptorOutput.standardOutput,
    errors: any TextOutput = FileDescriptorOutput.standardError
  ) -> Int32 {
    defer {
      output.flush()
      errors.flush()
    }
    guard let first = arguments.first else {
      errors.write(usage)
      return ExitStatus.usage.rawValue
    }
    if first == "--help" || first == "-h" || first == "help" {
      if first == "help", arguments.count > 1,
        let command = commands.first(where: { $0.spec.name == arguments[1] })
      {
        output.write(command.spec.usage(tool: name))
      } else {
        output.write(usage)
      }
      return ExitStatus.ok.rawValue
    }
    guard let command = commands.first(where: { $0.spec.name == first }) else {
      errors.line("\(name): unknown command '\(first)'; run '\(name) --help' for the list")
      return ExitStatus.usage.rawValue
    }
    let parsed: ParsedArguments
    do {
      parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), for: command.spec)
    } catch {
      errors.line("\(name) \(first): \(error.message)")
      errors.line("run '\(name) \(first) --help' for usage")
      return ExitStatus.usage.rawValue
    }
    if parsed.helpRequested {
      output.write(command.spec.usage(tool: name))
      return ExitStatus.ok.rawValue
    }
    let status: ExitStatus
    do {
      status = try command.run(Invocation(tool: name, arguments: parsed, output: output, errors: errors))
    } catch {
      let failure = output.writeError ?? ToolError.reading(parsed.positionals.first ?? ".", error)
      output.flush()
      errors.line("\(name) \(first): \(failure)")
      if case .usage = failure { errors.line("run '\(name) \(first) --help' for usage") }
      return failure.status.rawValue
    }
    // Output that could not be written is a failure of the command, whatever it found.
    output.flush()
    if let failure = output.writeError {
      errors.line("\(name) \(first): \(failure)")
      return failure.status.rawValue
    }
    return status.rawValue
  }
}
