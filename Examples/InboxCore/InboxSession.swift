import Foundation
import Rewind
import RewindComponents
import RewindLog
import Synchronization

/// The inbox store on a file journal, with what a user does to it: gestures, edits, scrolling, undo.
///
/// Both front ends (the scripted run and the terminal UI) drive the app through a session, and so do the
/// tests. Time is an input: every method that starts an animation leaves it to ``tick(now:)`` (the
/// terminal UI, with the real time) or ``settle()`` (the script, with simulated frames).
public final class InboxSession {
  /// The store; its journal is ``journal``.
  public let store: Store<InboxState, InboxAction>
  /// The file journal in ``directory``.
  public let journal: FileJournal<InboxAction>
  /// The log directory.
  public let directory: String
  /// Seconds between the frames ``settle()`` simulates.
  public var frameInterval = 1.0 / 60
  private let collected: DiagnosticLog

  private init(
    store: Store<InboxState, InboxAction>, journal: FileJournal<InboxAction>, directory: String,
    collected: DiagnosticLog
  ) {
    self.store = store
    self.journal = journal
    self.directory = directory
    self.collected = collected
  }

  /// Opens (or creates) the inbox log in `directory`; an empty log starts with ``InboxState/sample``.
  ///
  /// - Throws: ``InboxError/directory(_:_:)`` when the directory cannot be created, and the file
  ///   journal's errors (`FileJournalError.locked` when another Inbox has it open, corruption, tampering).
  public static func open(directory: String, actor: String = "you") throws -> InboxSession {
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
      throw InboxError.directory(directory, "\(error.localizedDescription)")
    }
    // Diagnostics are collected, not printed: the terminal UI owns the screen.
    let collected = DiagnosticLog()
    let store = try Store.open(
      directory: directory, initialState: InboxState.sample, reducer: InboxFeature(),
      options: FileJournalOptions(durability: .grouped()), actor: actor, history: InboxAction.history,
      diagnostics: { collected.append($0) })
    guard let journal = store.journal as? FileJournal<InboxAction> else {
      throw InboxError.directory(directory, "the store is not on a file journal")
    }
    return InboxSession(store: store, journal: journal, directory: directory, collected: collected)
  }

  /// The current state.
  public var state: InboxState { store.state }

  /// Sends `action` as the user.
  public func send(_ action: InboxAction) { store.send(action) }

  /// The diagnostics reported since the last call.
  public func takeDiagnostics() -> [Diagnostic] {
    collected.take()
  }

  // MARK: Time

  /// One display frame at `now` seconds (ignored when not later than the last frame).
  public func tick(now: Double) {
    guard now > state.now else { return }
    // A frame comes from the app, not the person: the event's source says so.
    store.send(.tick(now: now), from: .system)
  }

  /// Plays simulated frames until no animation runs; `frame` is called after each.
  public func settle(frame: () -> Void = {}) {
    var frames = 0
    // Bounded: an animation lasts well under a second of simulated time.
    while state.isAnimating && frames < 600 {
      tick(now: state.now + frameInterval)
      frames += 1
      frame()
    }
  }

  /// Lets `seconds` of simulated time pass in one frame (auto-save fires on it).
  public func wait(seconds: Double) {
    tick(now: state.now + seconds)
  }

  // MARK: Selection and carousel

  /// Selects the row `offset` rows below (negative: above) the selected one, clamped to the list.
  public func moveSelection(by offset: Int) {
    let rows = state.list.rows
    guard !rows.isEmpty else { return }
    let current = state.selectedID.flatMap { rows.index(id: $0) } ?? 0
    let target = Swift.min(Swift.max(0, current + offset), rows.count - 1)
    if rows[target].id != state.selectedID || !state.list.table.openRowIDs.isEmpty {
      send(.select(id: rows[target].id))
    }
  }

  /// Scrolls the attachments carousel by `items` (animated).
  public func scrollCarousel(by items: Int) {
    send(.carousel(.scrollByItems(items, animated: true, at: state.now)))
  }

  // MARK: Undo

  /// Undoes the last step, then closes any swipe cell the restored state left open.
  public func undo() {
    guard store.canUndo else { return }
    store.undo()
    closeSwipes()
  }

  /// Redoes the last undone step, then closes any swipe cell the restored state left open.
  public func redo() {
    guard store.canRedo else { return }
    store.redo()
    closeSwipes()
  }

  /// Closes every open swipe cell at once.
  public func closeSwipes() {
    let table = state.list.table
    if !table.openRowIDs.isEmpty || !table.animatingRowIDs.isEmpty {
      send(.list(.closeAll(animated: false)))
    }
  }

  // MARK: Closing

  /// Ends the subscriptions and closes the journal: everything sent is durable when it returns.
  /// - Throws: the journal's error when events could not be made durable.
  public func close() throws {
    if state.editingID != nil { cancelEdit() }
    store.shutdown()
    try journal.close()
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

  public var description: String {
    switch self {
    case .directory(let path, let reason): "cannot use the directory \(path): \(reason)"
    }
  }
}
