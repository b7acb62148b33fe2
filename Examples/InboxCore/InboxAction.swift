import Rewind
import RewindComponents

/// Everything that happens to the inbox. Gestures and keystrokes go to the components; the decisions they
/// lead to (flag, archive, delete) are actions of their own, so each is one undo step.
///
/// Display frames are not actions: a swipe animation is a value in the row's state that the screen samples
/// at draw time, and its end is one event sent by the row's timer. Actions that can start a motion carry
/// `at`, the display time in seconds when they happened.
public enum InboxAction: Equatable, Sendable, Codable {
  /// A swipe, a touch, an animation's end or an edit of the rows (the editable list and its swipe table).
  case list(EditableListAction<Mail>)
  /// Input to the attachments carousel (its actions carry their display time), or the end of its scroll.
  case carousel(CarouselAction)
  /// Selects a row (closing any open swipe cell, animated from `at`) and loads its attachments into the
  /// carousel.
  case select(id: Int, at: Double)
  /// Toggles a mail's flag (sent when its Flag button is clicked).
  case toggleFlag(id: Int)
  /// Moves a mail to the archive (its Archive button, or a full swipe).
  case archive(id: Int)
  /// Deletes a mail (its Delete button).
  case delete(id: Int)
  /// Replaces the inbox with ``InboxState/sample`` (the scripted session starts with it).
  case resetToSample
  /// Asks the mail server for new mail (an effect on the ``DependencyValues/mailServer`` dependency).
  case getMail
  /// The mail the server delivered, appended to the inbox (sent by the `getMail` effect).
  case received([Mail])
  /// The server could not be reached; `message` says why.
  case getMailFailed(String)
}

extension InboxAction {
  /// How each action takes part in undo. Decisions are steps; gestures, animation ends, frames, scrolling
  /// and keystrokes are transient. An edit is one step because ``InboxSession`` wraps it in a transaction.
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
    case .received: .step(name: "Get Mail")
    case .list, .carousel, .select, .getMail, .getMailFailed: .ignore
    }
  }

  /// The display time the action carries, if any.
  public var time: Double? {
    switch self {
    case .list(.swipe(let addressed)): addressed.action.time
    case .list(.touchDown(_, _, let now)), .list(.closeAll(_, let now)), .list(.resumeTimers(let now)),
      .select(_, let now):
      now
    case .carousel(let action): action.time
    case .list, .toggleFlag, .archive, .delete, .resetToSample, .getMail, .received, .getMailFailed: nil
    }
  }

  /// The history configuration the inbox runs with.
  public static var history: HistoryConfiguration<InboxAction> {
    HistoryConfiguration(undoLimit: 100) { $0.undoPolicy }
  }
}
