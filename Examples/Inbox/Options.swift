#if canImport(Glibc)
  import Glibc
#else
  import Darwin
#endif

/// The command line: `Inbox [--script | --interactive] [--directory PATH]`.
struct Options {
  /// Which front end runs.
  enum Mode { case scripted, interactive }

  var mode: Mode
  var directory = "inbox-data"

  static let usage = """
    usage: swift run Inbox [--script | --interactive] [--directory PATH]

      --script        play the scripted session (the default when standard output is not a terminal)
      --interactive   the terminal UI (the default on a terminal)
      --directory     where the event log lives (default: ./inbox-data)
    """

  /// Parses `arguments` (without the program name); the mode defaults from whether stdin and stdout are
  /// terminals.
  init(_ arguments: [String]) throws(OptionsError) {
    mode = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 ? .interactive : .scripted
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      switch argument {
      case "--script", "--scripted": mode = .scripted
      case "--interactive": mode = .interactive
      case "--directory", "-d":
        guard let path = rest.popFirst(), !path.isEmpty else { throw .missingValue(argument) }
        directory = path
      case "--help", "-h": throw .help
      default: throw .unknown(argument)
      }
    }
  }
}

/// A command line that cannot be used.
enum OptionsError: Error, CustomStringConvertible {
  case help
  case missingValue(String)
  case unknown(String)

  var description: String {
    switch self {
    case .help: Options.usage
    case .missingValue(let option): "\(option) needs a value\n\(Options.usage)"
    case .unknown(let argument): "unknown argument \(argument)\n\(Options.usage)"
    }
  }
}
