import Foundation
import Rewind
import RewindComponents

extension InboxAction {
  /// A short readable form for the scripted run's output: `flag #2`, `swipe #2 panBegan(x: 4)`.
  public var summary: String {
    switch self {
    case .list(let action): Self.describe(action)
    case .carousel(let action): "carousel \(Self.describe(action))"
    case .select(let id, _): "select #\(id)"
    case .toggleFlag(let id): "toggle flag of #\(id)"
    case .archive(let id): "archive #\(id)"
    case .delete(let id): "delete #\(id)"
    case .resetToSample: "reset to the sample inbox"
    case .getMail: "get mail"
    case .received(let mails): "received " + mails.map { "#\($0.id)" }.joined(separator: ", ")
    case .getMailFailed(let message): "get mail failed: \(message)"
    }
  }

  static func describe(_ action: EditableListAction<Mail>) -> String {
    switch action {
    case .swipe(let addressed): "swipe #\(addressed.id) \(describe(addressed.action))"
    case .edit(let addressed): "edit #\(addressed.id) \(describe(addressed.action))"
    case .touchDown(let id, _, _): "touch \(id.map { "#\($0)" } ?? "outside the rows")"
    case .closeAll(let animated, _): animated ? "close open cells (animated)" : "close open cells"
    case .resumeTimers: "resume the timers of the recovered state"
    case .insert(let mail, let index): "insert #\(mail.id) at \(index)"
    case .delete(let id): "list delete #\(id)"
    case .move(let from, let to): "move \(from) → \(to)"
    case .update(let mail): "update #\(mail.id)"
    }
  }

  static func describe(_ action: SwipeCellAction) -> String {
    switch action {
    case .panBegan(let translation, _, _, _): "panBegan(x: \(points(translation.x)))"
    case .panChanged(let translation, _): "panChanged(x: \(points(translation.x)))"
    case .panEnded(let translation, _, _): "panEnded(x: \(points(translation.x)))"
    case .animationFinished(let id): "animation \(id) finished"
    case .tapButton(let index, let side, _):
      "tap \(InboxFeature.Button(SwipeButtonTap(index: index, direction: side, fromExpansion: false)).map { "\($0)" } ?? "button \(index)")"
    case .show(let side, _, _): "show \(side == .leftToRight ? "left" : "right") buttons"
    case .hide: "hide"
    default: "\(action)"
    }
  }

  static func describe(_ action: TextEditAction) -> String {
    switch action {
    case .begin: "begin editing"
    case .input(_, _, "\n"): "press Return"
    case .input(_, let length, let replacement):
      replacement.isEmpty ? "delete \(length) character(s)" : "type “\(replacement)”"
    case .end: "end editing"
    case .commit: "commit"
    case .cancel: "cancel"
    case .autoSaveFired: "auto-save timer fired"
    default: "\(action)"
    }
  }

  static func describe(_ action: CarouselAction) -> String {
    switch action {
    case .scrollByItems(let count, _, _): "scroll by \(count)"
    case .scrollToItem(let index, _, _): "scroll to \(index)"
    case .animationFinished(let id): "scroll \(id) finished"
    case .resumeAnimation: "resume the scroll of the recovered state"
    default: "\(action)"
    }
  }

  static func seconds(_ value: Double) -> String {
    let millis = (value * 1000).rounded()
    return "\(Int(millis) / 1000).\(String(format: "%03d", Int(millis) % 1000))s"
  }

  static func points(_ value: Double) -> String {
    value == value.rounded() ? "\(Int(value))" : String(format: "%.1f", value)
  }
}

extension Event where Action == InboxAction {
  /// `#12 [user you] toggle flag of #2`, `#13 [effect of #12] …`, `#14 [undo] back to #9`.
  public var summary: String {
    let source =
      switch metadata.source {
      case .user: "user \(metadata.actor ?? "?")"
      case .system: "system"
      case .effect(let cause): "effect of #\(cause)"
      }
    let what =
      switch payload {
      case .action(let action): action.summary
      case .command(.undo(let target)): "undo: back to the state as of #\(target)"
      case .command(.redo(let target)): "redo: forward to the state as of #\(target)"
      case .command(.restore(let target)): "restore the state as of #\(target)"
      case .command(.beginTransaction(let name)): "begin transaction “\(name)”"
      case .command(.endTransaction): "end transaction"
      case .command(.mark(let name)): "mark “\(name)”"
      }
    return "#\(sequence) [\(source)] \(what)"
  }
}
