/// What an event records: an app action, or a command of the store's history.
public enum EventPayload<Action> {
  /// An action the reducer applied.
  case action(Action)
  /// An undo, redo, restore or transaction bound; applied by the store, not the reducer.
  case command(HistoryCommand)
}

extension EventPayload: Sendable where Action: Sendable {}
extension EventPayload: Equatable where Action: Equatable {}
extension EventPayload: Hashable where Action: Hashable {}
extension EventPayload: Codable where Action: Codable {}

/// A history command recorded in the log. Nothing is ever rewritten: undoing is itself an event.
///
/// The jumps (`undo`, `redo`, `restore`) name the sequence number whose state they bring back, so replaying
/// a log that contains them needs no knowledge of how the undo history was configured.
public enum HistoryCommand: Sendable, Hashable, Codable, CustomStringConvertible {
  /// Undid a step: the state became the state as of event `to`.
  case undo(to: UInt64)
  /// Redid a step: the state became the state as of event `to`.
  case redo(to: UInt64)
  /// Time travel made live: the state became the state as of event `to`.
  case restore(to: UInt64)
  /// Opened a transaction: the actions until the matching end form one undo step named `name`.
  case beginTransaction(name: String)
  /// Closed the innermost open transaction.
  case endTransaction
  /// Marked a moment by name (``Store/mark(_:from:)``, and `"close"` when a fingerprinting store closes):
  /// the state does not change; the event carries the state's fingerprint when the store records them.
  case mark(name: String)

  /// The sequence number whose state a jump brings back; `nil` for transaction bounds.
  public var target: UInt64? {
    switch self {
    case .undo(let target), .redo(let target), .restore(let target): target
    case .beginTransaction, .endTransaction, .mark: nil
    }
  }

  public var description: String {
    switch self {
    case .undo(let target): "undo (to #\(target))"
    case .redo(let target): "redo (to #\(target))"
    case .restore(let target): "restore (to #\(target))"
    case .beginTransaction(let name): "begin transaction \"\(name)\""
    case .endTransaction: "end transaction"
    case .mark(let name): "mark \"\(name)\""
    }
  }
}

extension EventPayload: CustomStringConvertible {
  /// The action as Swift prints it, or the command's description.
  public var description: String {
    switch self {
    case .action(let action): "\(action)"
    case .command(let command): command.description
    }
  }
}
