import InboxCore

#if canImport(Glibc)
  import Glibc
#else
  import Darwin
#endif

// The Inbox example: a mail inbox built from Rewind's headless components, persisted to a file journal.
// `swift run Inbox` plays a scripted session when not on a terminal, and opens the terminal UI on one.

let options: Options
do {
  options = try Options(Array(CommandLine.arguments.dropFirst()))
} catch .help {
  print(Options.usage)
  exit(0)
} catch {
  printError("\(error)")
  exit(2)
}

switch options.mode {
case .scripted:
  exit(await ScriptedSession(directory: options.directory).run())
case .interactive:
  exit(InteractiveApp(options: options).run())
}
