import Foundation

// rewind-bench: every Rewind benchmark. `rewind-bench [suite ...] [--json]`.
// Run release builds only: `swift run -c release rewind-bench dispatch --json`.

let suites: [Suite] = [
  dispatchSuite,
  diffSuite,
  historySuite,
  streamsSuite,
  componentsSuite,
  journalSuite,
  checksumSuite,
  effectsSuite,
  viewsSuite,
  scaleSuite,
  inspectSuite,
  shipSuite,
  replaySuite,
]

let usage = """
  usage: rewind-bench [suite ...] [--json] [--list]

  Runs the named suites (all when none is named) and prints one line per measurement:
  a table by default, or one JSON object per line with --json
  ({"name", "unit", "median", and "baseline"/"ratio" where a baseline ran}).

  suites:
  \(suites.map { "  \($0.name.padding(toLength: 12, withPad: " ", startingAt: 0)) \($0.summary)" }.joined(separator: "\n"))
  """

var json = false
var selected: [String] = []
for argument in CommandLine.arguments.dropFirst() {
  switch argument {
  case "--json": json = true
  case "--help", "-h":
    print(usage)
    exit(0)
  case "--list":
    suites.forEach { print($0.name) }
    exit(0)
  case _ where argument.hasPrefix("-"):
    FileHandle.standardError.write(Data("rewind-bench: unknown option '\(argument)'\n\n\(usage)\n".utf8))
    exit(2)
  default: selected.append(argument)
  }
}

let unknown = selected.filter { name in !suites.contains { $0.name == name } }
if !unknown.isEmpty {
  FileHandle.standardError.write(
    Data("rewind-bench: unknown suite '\(unknown.joined(separator: "', '"))'\n\n\(usage)\n".utf8))
  exit(2)
}

#if DEBUG
  FileHandle.standardError.write(
    Data("rewind-bench: warning: debug build; figures are meaningless. Use -c release.\n".utf8))
#endif

let reporter = Reporter(json: json)
for suite in suites where selected.isEmpty || selected.contains(suite.name) {
  do {
    try suite.run(reporter)
  } catch {
    FileHandle.standardError.write(Data("rewind-bench: suite \(suite.name) failed: \(error)\n".utf8))
    exit(1)
  }
}
