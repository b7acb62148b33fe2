import Foundation
import Rewind
import RewindComponents
import RewindLog
import Synchronization

/// The inbox store on a file journal, with what a user does to it: gestures, edits, scrolling, undo.
///
/// Both front ends (the scripted run and the terminal UI) drive the app through a session, and so do the
/// tests. Time is an input: every action that can start a motion carries the session's display time
/// ``now``. Animations need no frames: the screen samples them at draw time, and each ends with one event
/// sent by its timer on the store's clock. In ``Timing/realTime`` that is the real clock; in
/// ``Timing/simulated`` it is ``clock``, which only ``settle()`` and ``wait(seconds:)`` move.
public final class InboxSession {
  /// How a session's time passes.
  public enum Timing: Sendable {
    /// The real time: timers fire by themselves (the terminal UI).
    case realTime
    /// Simulated time on a ``SimulatedClock`` that the session moves (the scripted run and the tests).
    case simulated
  }

  /// The store; its journal is ``journal``.
  public let store: Store<InboxState, InboxAction>
  /// The file journal in ``directory``.
  public let journal: FileJournal<InboxAction>
  /// The log directory.
  public let directory: String
  /// The simulated clock the store's timers sleep on; `nil` in real time.
  public let clock: SimulatedClock?
  /// The longest real time ``settle()`` and ``wait(seconds:)`` wait for a timer's event to be recorded.
  public var timerLimit: Duration = .seconds(30)
  private let collected: DiagnosticLog
  private let started = ContinuousClock.now
  private let base: Double

  private init(
    store: Store<InboxState, InboxAction>, journal: FileJournal<InboxAction>, directory: String,
    clock: SimulatedClock?, collected: DiagnosticLog
  ) {
    self.store = store
    self.journal = journal
    self.directory = directory
    self.clock = clock
    self.collected = collected
    base = store.state.now
  }

  /// Opens (or creates) the inbox log in `directory`; an empty log starts with ``InboxState/sample``.
  ///
  /// Timers do not survive the process that started them: when the log ends with a swipe animation
  /// running or a subject being edited, the system resumes their timers (one event).
  ///
  /// - Parameter mailServer: where ``getMail()`` fetches new mail (a test gives its own).
  /// - Throws: ``InboxError/directory(_:_:)`` when the directory cannot be created, and the file
  ///   journal's errors (`FileJournalError.locked` when another Inbox has it open, corruption, tampering).
  public static func open(
    directory: String, actor: String = "you", timing: Timing = .simulated, mailServer: MailServer = .sample
  ) throws -> InboxSession {
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
      throw InboxError.directory(directory, "\(error.localizedDescription)")
    }
    // Diagnostics are collected, not printed: the terminal UI owns the screen.
    let collected = DiagnosticLog()
    let clock = timing == .simulated ? SimulatedClock() : nil
    // The timers sleep on the clock dependency: the real clock, or the simulated one.
    let reducer = InboxFeature().dependency(\.clock, clock ?? ContinuousClock())
      .dependency(\.mailServer, mailServer)
    let store = try Store.open(
      directory: directory, initialState: InboxState.sample, reducer: reducer,
      options: FileJournalOptions(durability: .grouped()), actor: actor, history: InboxAction.history,
      diagnostics: { collected.append($0) })
    guard let journal = store.fileJournal else {
      throw InboxError.directory(directory, "the store is not on a file journal")
    }
    let session = InboxSession(
      store: store, journal: journal, directory: directory, clock: clock, collected: collected)
    session.resumeTimers()
    return session
  }

  /// The current state.
  public var state: InboxState { store.state }

  /// Sends `action` as the user.
  public func send(_ action: InboxAction) { store.send(action) }

  /// Asks the mail server for new mail, and returns once its answer (the mail, or why there is none) is
  /// recorded.
  public func getMail() async { await store.send(.getMail).finish() }

  /// The diagnostics reported since the last call.
  public func takeDiagnostics() -> [Diagnostic] {
    collected.take()
  }

  // MARK: Time

  /// The display time in seconds: the log's latest action time when the session opened, plus the time
  /// elapsed since (simulated, or real).
  public var now: Double {
    if let clock { return base + clock.seconds }
    let elapsed = started.duration(to: .now).components
    return base + Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
  }

  /// Lets simulated time run until nothing moves: each timer due meanwhile (the end of a swipe animation or
  /// a carousel scroll, an auto-save) wakes in deadline order and its event is recorded before the next.
  /// In real time the timers fire by themselves.
  /// - Throws: ``InboxError/timerStalled(_:)`` when a timer's event is not recorded within ``timerLimit``.
  public func settle() async throws {
    var steps = 0
    // Bounded: an animation lasts well under a second of simulated time.
    while state.isAnimating && steps < 600 {
      steps += 1
      if let clock { try await quiesce(clock) }
      if let clock, let deadline = clock.nextDeadline {
        try await advance(clock, to: deadline)
      } else {
        return  // nothing to wait for here: real time, or no timer left
      }
    }
  }

  /// Lets `seconds` of simulated time pass (auto-save fires on it); the timers due meanwhile are recorded
  /// when it returns. Does nothing in real time.
  /// - Throws: ``InboxError/timerStalled(_:)`` when a timer's event is not recorded within ``timerLimit``.
  public func wait(seconds: Double) async throws {
    guard let clock else { return }
    try await advance(clock, to: clock.now.advanced(by: .seconds(Swift.max(0, seconds))))
  }

  /// Moves the simulated clock to `target`, waking the timers due on the way one at a time, in deadline
  /// order, each recorded before the next wakes.
  func advance(_ clock: SimulatedClock, to target: SimulatedClock.Instant) async throws {
    try await quiesce(clock)
    while clock.wakeNext(through: target) { try await quiesce(clock) }
    clock.move(to: target)
  }

  /// Waits until every running effect of the store sleeps on `clock`: whatever a woken timer sends is
  /// recorded, and the timers it starts are asleep. A timer the store cancelled is waited for too: a swipe
  /// animation's finish cancels the timer that sent it, which leaves the running count at once while that
  /// task still processes the archive its send queued.
  func quiesce(_ clock: SimulatedClock) async throws {
    let deadline = ContinuousClock.now.advanced(by: timerLimit)
    var spins = 0
    while store.runningEffectCount != clock.sleeperCount || store.cancelledEffectsStillRunning > 0 {
      guard ContinuousClock.now < deadline else { throw InboxError.timerStalled(timerLimit) }
      spins += 1
      if spins < 64 { await Task.yield() } else { try await Task.sleep(for: .milliseconds(1)) }
    }
  }

  /// Restarts the timers of a state recovered from the log (effects are never replayed).
  func resumeTimers() {
    if state.list.table.isAnimating || state.editingID != nil {
      store.send(.list(.resumeTimers(at: now)), from: .system)
    }
    resumeCarousel()
  }

  /// Restarts the carousel's timer when the state (reopened, or restored by undo or redo) has it scrolling.
  func resumeCarousel() {
    guard state.carousel.runningAnimationID != nil else { return }
    store.send(.carousel(.resumeAnimation(at: now)), from: .system)
  }

  // MARK: Selection and carousel

  /// Selects the row `offset` rows below (negative: above) the selected one, clamped to the list.
  public func moveSelection(by offset: Int) {
    let rows = state.list.rows
    guard !rows.isEmpty else { return }
    let current = state.selectedID.flatMap { rows.index(id: $0) } ?? 0
    let target = Swift.min(Swift.max(0, current + offset), rows.count - 1)
    if rows[target].id != state.selectedID || !state.list.table.openRowIDs.isEmpty {
      send(.select(id: rows[target].id, at: now))
    }
  }

  /// Scrolls the attachments carousel by `items` (animated).
  public func scrollCarousel(by items: Int) {
    send(.carousel(.scrollByItems(items, animated: true, at: now)))
  }

  // MARK: Undo

  /// Undoes the last step, then closes any swipe cell the restored state left open.
  public func undo() {
    guard store.canUndo else { return }
    store.undo()
    closeSwipes()
    resumeCarousel()
  }

  /// Redoes the last undone step, then closes any swipe cell the restored state left open.
  public func redo() {
    guard store.canRedo else { return }
    store.redo()
    closeSwipes()
    resumeCarousel()
  }

  /// Closes every open or moving swipe cell at once.
  public func closeSwipes() {
    let table = state.list.table
    if !table.openRowIDs.isEmpty || table.isAnimating {
      send(.list(.closeAll(animated: false, at: now)))
    }
  }

  // MARK: Closing

  /// Closes the store: its timers stop, its subscriptions end, and everything sent is durable and the
  /// log's directory released when it returns.
  /// - Throws: the journal's error when events could not be made durable.
  public func close() throws {
    if state.editingID != nil { cancelEdit() }
    try store.close()
  }
}

/// The diagnostics a store reported, kept until read (the store may report from any thread).
final class DiagnosticLog: Sendable {
  private let diagnostics = Mutex<[Diagnostic]>([])

  func append(_ diagnostic: Diagnostic) { diagnostics.withLock { $0.append(diagnostic) } }

  func take() -> [Diagnostic] {
    diagnostics.withLock { diagnostics in
      defer { diagnostics.removeAll() }
      return diagnostics
    }
  }
}

/// Errors of the inbox example, naming what and where.
public enum InboxError: Error, CustomStringConvertible {
  /// The log directory cannot be used.
  case directory(String, String)
  /// A timer woke on the simulated clock but its event was not recorded within this much real time.
  case timerStalled(Duration)

  public var description: String {
    switch self {
    case .directory(let path, let reason): "cannot use the directory \(path): \(reason)"
    case .timerStalled(let limit): "a timer's event was not recorded within \(limit) of real time"
    }
  }
}
