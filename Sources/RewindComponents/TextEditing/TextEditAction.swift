import Rewind

/// What happens to an editable title.
public enum TextEditAction: Equatable, Sendable, Codable {
  /// Begin editing; with an auto-save interval, the reducer starts the session's auto-save timer.
  case begin
  /// The editor gained focus.
  case focus
  /// Programmatic text: the editor's while editing, else the title. No validation, no length limit.
  case setText(String)
  /// User input replacing the UTF-16 range `location..<location+length` with `replacement`; a lone "\n"
  /// is the Return key.
  case input(location: Int, length: Int, replacement: String)
  /// End editing: validate (reporting a failure), then commit.
  case end
  /// Commit silently: nothing happens when a rule fails.
  case commit
  /// Cancel: restore the original title.
  case cancel
  /// The auto-save timer of editing session `session` fired (sent by the timer effect `begin` started, so
  /// its cause is the `begin` event). One for another session (a timer that outlived its session) is
  /// ignored.
  case autoSaveFired(session: Int)
  /// Restarts the auto-save timer of the open session, which effects do not survive: after the state was
  /// restored from a log or by time travel. Nothing happens when idle or without an auto-save interval.
  case resumeAutoSave
  /// The row is reused: cancel any edit, clear the title, detach the delegate.
  case prepareForReuse
  /// A delegate listens again.
  case attachDelegate
}

extension TextEditAction {
  /// The suggested undo policy: typing coalesces per second, ending and committing are steps, the rest is
  /// transient.
  public var suggestedUndoPolicy: UndoPolicy {
    switch self {
    case .input, .setText: .coalesce(key: "typing", window: .seconds(1), name: "Typing")
    case .end, .commit, .cancel: .step(name: "Edit")
    default: .ignore
    }
  }
}
