import Rewind
import RewindComponents

/// Everything that happens to the inbox. Gestures, frames and keystrokes go to the components; the
/// decisions they lead to (flag, archive, delete) are actions of their own, so each is one undo step.
public enum InboxAction: Equatable, Sendable, Codable {
  /// A swipe, a touch, a frame or an edit of the rows (the editable list and its swipe table).
  case list(EditableListAction<Mail>)
  /// Input to the attachments carousel.
  case carousel(CarouselAction)
  /// Selects a row (closing any open swipe cell) and loads its attachments into the carousel.
  case select(id: Int)
  /// Toggles a mail's flag (sent when its Flag button is clicked).
  case toggleFlag(id: Int)
  /// Moves a mail to the archive (its Archive button, or a full swipe).
  case archive(id: Int)
  /// Deletes a mail (its Delete button).
  case delete(id: Int)
  /// A display frame at `now` seconds: advances swipe animations, the carousel and auto-save.
  case tick(now: Double)
  /// Replaces the inbox with ``InboxState/sample`` (the scripted session starts with it).
  case resetToSample
}

extension InboxAction {
  /// How each action takes part in undo. Decisions are steps; gestures, frames, scrolling and keystrokes
  /// are transient. An edit is one step because ``InboxSession`` wraps it in a transaction.
  public var undoPolicy: UndoPolicy {
    switch self {
    case .toggleFlag: .step(name: "Flag")
    case .archive: .step(name: "Archive")
    case .delete: .step(name: "Delete")
    case .list(.edit(let addressed)):
      // Changes to the text are undoable; the transaction makes the whole edit one step. Beginning and
      // cancelling are not, so an edit cancelled before any change leaves no step behind.
      switch addressed.action {
      case .input, .setText, .end, .commit: .step(name: "Edit Subject")
      default: .ignore
      }
    case .resetToSample: .barrier
    case .list, .carousel, .select, .tick: .ignore
    }
  }

  /// The history configuration the inbox runs with.
  public static var history: HistoryConfiguration<InboxAction> {
    HistoryConfiguration(undoLimit: 100) { $0.undoPolicy }
  }
}
