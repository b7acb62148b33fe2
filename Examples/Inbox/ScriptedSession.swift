import InboxCore

#if canImport(Glibc)
  import Glibc
#else
  import Darwin
#endif

/// The scripted front end: plays ``InboxScript`` to standard output; exit status 1 if replay differed.
struct ScriptedSession {
  var directory: String

  func run() async -> Int32 {
    do {
      let outcome = try await InboxScript(directory: directory) { print($0) }.run()
      return outcome.sameState ? 0 : 1
    } catch {
      printError("Inbox: \(error)")
      return 1
    }
  }
}
