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
  /// Whether the terminal UI starts an inspector (`rewind attach` watches and steers it).
  var inspect = false
  /// The inspector's loopback port (0: any free one) and token file (`nil`: the default path).
  var inspectPort: UInt16 = 0
  var tokenFile: String?

  static let usage = """
    usage: swift run Inbox [--script | --interactive] [--directory PATH] [--inspect [--inspect-port N] [--token-file PATH]]

      --script        play the scripted session (the default when standard output is not a terminal)
      --interactive   the terminal UI (the default on a terminal)
      --directory     where the event log lives (default: ./inbox-data)
      --inspect       the terminal UI with an inspector: `rewind attach TOKEN-FILE` shows it live in a browser
      --inspect-port  the inspector's loopback port (default: any free port)
      --token-file    where the inspector writes its token file (default: the temporary directory)
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
      case "--inspect":
        inspect = true
        mode = .interactive
      case "--inspect-port":
        guard let text = rest.popFirst(), let port = UInt16(text) else { throw .missingValue(argument) }
        inspectPort = port
      case "--token-file":
        guard let path = rest.popFirst(), !path.isEmpty else { throw .missingValue(argument) }
        tokenFile = path
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
