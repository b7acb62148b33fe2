/// Parses a command's arguments against its ``CommandSpec``.
///
/// Accepted forms: positionals in order; `--name value` and `--name=value`; `-x value` for a short alias;
/// flags `--name`; repeated options when the spec allows; `--` ends options; `--help` and `-h` anywhere.
public enum ArgumentParser {
  /// Parses `arguments` (without the command's name).
  /// - Throws: ``UsageError`` for an unknown option, a missing or unexpected value, a repeated option that
  ///   is not repeatable, or too many or too few positionals (unless help was requested).
  public static func parse(_ arguments: [String], for spec: CommandSpec) throws(UsageError) -> ParsedArguments
  {
    var parsed = ParsedArguments()
    var index = 0
    var onlyPositionals = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
        parsed.positionals.append(argument)
        continue
      }
      if argument == "--" {
        onlyPositionals = true
        continue
      }
      if argument == "--help" || argument == "-h" {
        parsed.helpRequested = true
        continue
      }
      let option: CommandSpec.Option
      var inline: String?
      if argument.hasPrefix("--") {
        let body = argument.dropFirst(2)
        let name: Substring
        if let equals = body.firstIndex(of: "=") {
          name = body[..<equals]
          inline = String(body[body.index(after: equals)...])
        } else {
          name = body
        }
        guard let found = spec.option(named: String(name)) else {
          throw UsageError("unknown option '--\(name)' for '\(spec.name)'")
        }
        option = found
      } else {
        let letters = argument.dropFirst()
        guard letters.count == 1, let letter = letters.first, let found = spec.option(short: letter) else {
          throw UsageError("unknown option '\(argument)' for '\(spec.name)'")
        }
        option = found
      }
      if option.value == nil {
        if inline != nil { throw UsageError("option '--\(option.name)' takes no value") }
        parsed.flags.insert(option.name)
        continue
      }
      let value: String
      if let inline {
        value = inline
      } else {
        guard index < arguments.count else {
          throw UsageError("option '--\(option.name)' needs a value (\(option.value ?? "VALUE"))")
        }
        value = arguments[index]
        index += 1
      }
      if !option.repeatable, parsed.values[option.name] != nil {
        throw UsageError("option '--\(option.name)' may be given only once")
      }
      parsed.values[option.name, default: []].append(value)
    }
    if parsed.helpRequested { return parsed }
    let required = spec.positionals.filter { !$0.optional }.count
    if parsed.positionals.count < required {
      let missing = spec.positionals[parsed.positionals.count]
      throw UsageError("'\(spec.name)' needs \(missing.name): \(missing.help)")
    }
    if parsed.positionals.count > spec.positionals.count {
      throw UsageError(
        "unexpected argument '\(parsed.positionals[spec.positionals.count])' for '\(spec.name)'")
    }
    return parsed
  }
}
