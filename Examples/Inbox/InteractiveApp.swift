import InboxCore

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
  var directory: String

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
    var loop = EventLoop(session: session, directory: directory)
    loop.run()
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
  var running = true

  init(session: InboxSession, directory: String) {
    self.session = session
    self.directory = directory
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
      let timeout: Int32 =
        session.store.sequence != drawn
        ? 0
        : state.isAnimating ? 16 : effectsRun ? 50 : state.editingID != nil ? 500 : -1
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

  /// Draws the screen; returns the sequence number of the event it shows.
  @discardableResult
  func draw() -> UInt64 {
    // Read together, so the sequence number returned is that of the state drawn.
    let (state, sequence) = session.store.stateAndSequence
    var header =
      "Rewind Inbox · \(state.list.rows.count) mails · \(state.archived.count) archived · event #\(sequence)"
    if let undo = session.store.undoStepName { header += " · undo: \(undo)" }
    var lines = screen.lines(for: state, header: header, at: session.now)
    lines.append(screen.dim("  log: \(directory)"))
    Terminal.write("\u{1B}[H" + lines.map { $0 + "\u{1B}[K" }.joined(separator: "\r\n") + "\u{1B}[J")
    return sequence
  }
}
