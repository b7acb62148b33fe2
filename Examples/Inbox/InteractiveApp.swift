import Foundation
import InboxCore
import Rewind
import RewindInspector

#if canImport(Glibc)
  import Glibc
#else
  import Darwin
#endif

/// The terminal UI: the list with its swipe buttons, the carousel and the editor, redrawn after every key
/// and, while something moves, about 60 times a second. A redraw samples the swipe animations at the
/// current time and sends nothing; their ends arrive as events from their timers on the real clock. Only
/// a scrolling carousel still gets frames.
struct InteractiveApp {
  var options: Options
  var directory: String { options.directory }

  func run() -> Int32 {
    // The terminal first: without one, nothing (not even the log directory) is created.
    do {
      try Terminal.enterRawMode()
    } catch {
      printError("Inbox: \(error)")
      return 2
    }
    let session: InboxSession
    do {
      session = try InboxSession.open(directory: directory, timing: .realTime)
    } catch {
      Terminal.restore()
      printError("Inbox: \(error)")
      return 1
    }
    var inspector: Inspector<InboxState, InboxAction>?
    let notes = InspectorNotes()
    if options.inspect {
      do {
        inspector = try session.store.inspect(
          InspectorOptions(port: options.inspectPort, tokenFile: options.tokenFile, announce: notes.add),
          allowing: InboxInspection.allowedActions)
      } catch {
        Terminal.restore()
        printError("Inbox: the inspector could not start: \(error)")
        return 1
      }
    }
    var loop = EventLoop(session: session, directory: directory, inspector: inspector, notes: notes)
    loop.run()
    inspector?.stop()
    Terminal.restore()
    do {
      try session.close()
    } catch {
      printError("Inbox: the log could not be closed: \(error)")
      return 1
    }
    print(
      "Inbox: \(session.store.sequence) events in \(directory). Run again to continue where you left off.")
    return 0
  }
}

/// Reads keys, sends them to the session and redraws, until quit.
struct EventLoop {
  let session: InboxSession
  let directory: String
  let screen = InboxScreen(styled: true)
  let inspector: Inspector<InboxState, InboxAction>?
  let notes: InspectorNotes
  var running = true

  init(
    session: InboxSession, directory: String, inspector: Inspector<InboxState, InboxAction>? = nil,
    notes: InspectorNotes = InspectorNotes()
  ) {
    self.session = session
    self.directory = directory
    self.inspector = inspector
    self.notes = notes
  }

  mutating func run() {
    while running {
      let drawn = draw()
      let state = session.state
      // Redraws at about 60 Hz while something moves; every 50 ms while an effect runs, since its actions
      // arrive by themselves (a finished swipe's archive comes after the animation's end); twice a second
      // while editing, to show an auto-save (its timer records it by itself). Waits for a key only when
      // nothing can change the state meanwhile: no effect runs (read first: only a running effect sends
      // without a key), and nothing was recorded since the screen was drawn.
      let effectsRun = session.store.runningEffectCount > 0
      // With an inspector, a tool may jump the app at any time: the screen is redrawn every 100 ms.
      let timeout: Int32 =
        session.store.sequence != drawn
        ? 0
        : state.isAnimating
          ? 16 : effectsRun ? 50 : inspector != nil ? 100 : state.editingID != nil ? 500 : -1
      guard let bytes = Terminal.read(timeout: timeout) else { break }
      for key in Key.parse(bytes) where running { handle(key) }
      _ = session.takeDiagnostics()
    }
  }

  mutating func handle(_ key: Key) {
    if session.state.editingID != nil {
      handleEditing(key)
      return
    }
    let selected = session.state.selectedID
    switch key {
    case .up, .character("k"): session.moveSelection(by: -1)
    case .down, .character("j"): session.moveSelection(by: 1)
    case .left, .character("h"): selected.map { session.swipe($0, .left) }
    case .right, .character("l"): selected.map { session.swipe($0, .right) }
    case .character("a"): selected.map { session.fullSwipe($0) }
    case .character("f"): selected.map { session.tap(.flag, on: $0) }
    case .character("d"): selected.map { session.tap(.delete, on: $0) }
    case .character("e"), .enter: session.beginEdit()
    case .character("["): session.scrollCarousel(by: -1)
    case .character("]"): session.scrollCarousel(by: 1)
    case .character("u"): session.undo()
    case .character("r"): session.redo()
    case .escape: session.closeSwipes()
    case .character("q"), .interrupt, .endOfInput: running = false
    default: break
    }
  }

  mutating func handleEditing(_ key: Key) {
    switch key {
    case .enter: session.commitEdit()
    case .escape: session.cancelEdit()
    case .backspace: session.deleteBackward()
    case .character(let character): session.type(String(character))
    case .interrupt, .endOfInput:
      session.cancelEdit()
      running = false
    case .up, .down, .left, .right: break
    }
  }

  /// Draws the screen; returns the sequence number of the newest event when it was drawn.
  ///
  /// The state drawn is the one views see (`store.state`): while an inspector shows the past, the state as
  /// of the event it shows, and the header says so.
  @discardableResult
  func draw() -> UInt64 {
    let newest = session.store.sequence
    let state = session.store.state
    let mode = inspector?.mode ?? .live
    let shown = mode.shown ?? newest
    var header =
      "Rewind Inbox · \(state.list.rows.count) mails · \(state.archived.count) archived · event #\(shown)"
    if mode == .live, let undo = session.store.undoStepName { header += " · undo: \(undo)" }
    var lines = screen.lines(for: state, header: header, at: session.now)
    if let inspector, mode != .live {
      let skipped = inspector.skipped
      var banner = "  inspector: showing event #\(shown) of #\(newest)"
      if !skipped.isEmpty {
        banner += ", without #" + skipped.sorted().map(String.init).joined(separator: ", #")
      }
      banner += "; keys are held until the tool returns to live"
      lines.insert(screen.dim(banner), at: 1)
    }
    for note in notes.recent { lines.append(screen.dim("  " + note)) }
    lines.append(screen.dim("  log: \(directory)"))
    Terminal.write("\u{1B}[H" + lines.map { $0 + "\u{1B}[K" }.joined(separator: "\r\n") + "\u{1B}[J")
    return newest
  }
}

/// The inspector's announcements (where it listens, tools attaching and leaving), shown under the screen.
final class InspectorNotes: Sendable {
  private let lock = NSLock()
  private nonisolated(unsafe) var lines: [String] = []

  /// Keeps `line`, the newest two shown.
  @Sendable func add(_ line: String) {
    lock.withLock {
      lines.append(line)
      if lines.count > 2 { lines.removeFirst() }
    }
  }

  var recent: [String] { lock.withLock { lines } }
}

/// What the Inbox lets a tool do.
enum InboxInspection {
  /// The action types a tool may dispatch: the decisions, not the gestures.
  static let allowedActions = ["toggleFlag", "archive", "select", "getMail"]
}
