import Rewind
import RewindComponents

/// What one row of the inbox list sends, as its view would: its swipe cell's gestures, its subject editor's
/// input, and the decisions its buttons make.
///
/// A row view holds a store of its own row (`ScopedStore<EditableRow<Mail>, InboxRowAction>`) and never the
/// inbox's: ``InboxFeature/rowPath`` embeds these actions into ``InboxAction``, so they are recorded exactly as
/// the inbox's own actions would be.
public enum InboxRowAction: Equatable, Sendable {
  /// A gesture or an animation's end on the row's swipe cell.
  case swipe(SwipeCellAction)
  /// Input to the row's subject editor.
  case edit(TextEditAction)
  /// The row was selected at display time `at`.
  case select(at: Double)
  /// The row's Flag button.
  case toggleFlag
  /// The row's Archive button, or a full swipe.
  case archive
  /// The row's Delete button.
  case delete
}

extension InboxFeature {
  /// How a row's action sits inside the inbox's: the row's swipe and editor actions go to the list, its
  /// decisions are the inbox's own actions for its id.
  public static let rowPath = ActionPath<InboxAction, IdentifiedAction<Int, InboxRowAction>>(
    embed: { addressed in
      let id = addressed.id
      switch addressed.action {
      case .swipe(let action): return .list(.swipe(IdentifiedAction(id: id, action: action)))
      case .edit(let action): return .list(.edit(IdentifiedAction(id: id, action: action)))
      case .select(let at): return .select(id: id, at: at)
      case .toggleFlag: return .toggleFlag(id: id)
      case .archive: return .archive(id: id)
      case .delete: return .delete(id: id)
      }
    },
    extract: { action in
      switch action {
      case .list(.swipe(let addressed)): IdentifiedAction(id: addressed.id, action: .swipe(addressed.action))
      case .list(.edit(let addressed)): IdentifiedAction(id: addressed.id, action: .edit(addressed.action))
      case .select(let id, let at): IdentifiedAction(id: id, action: .select(at: at))
      case .toggleFlag(let id): IdentifiedAction(id: id, action: .toggleFlag)
      case .archive(let id): IdentifiedAction(id: id, action: .archive)
      case .delete(let id): IdentifiedAction(id: id, action: .delete)
      case .list, .carousel, .resetToSample, .getMail, .received, .getMailFailed: nil
      }
    })
}

extension InboxSession {
  /// One store per row, in display order, addressed by id: what the list's row views hold. Reading it
  /// tracks the ids (rows inserted, removed, moved), not the rows' contents.
  public var rows: StoreCollection<EditableRow<Mail>, InboxRowAction> {
    store.scope(state: \.list.rows, action: InboxFeature.rowPath)
  }

  /// The store of row `id`, while the list holds it.
  public func row(_ id: Int) -> ScopedStore<EditableRow<Mail>, InboxRowAction>? { rows[id: id] }

  /// Sends `action` through row `id`'s store: recorded as the inbox's action for that row. A row that is
  /// gone gets the same action through the root, whose reducer reports it.
  func send(_ action: InboxRowAction, toRow id: Int) {
    if let row = row(id) {
      row.send(action)
    } else {
      send(InboxFeature.rowPath.embed(IdentifiedAction(id: id, action: action)))
    }
  }

  /// The subject being edited, as a text field binds it: it reads the editor's text, and a write sends
  /// ``InboxRowAction/edit(_:)`` with `setText` to the row, an ordinary action in the log. `nil` while no
  /// subject is being edited.
  public var subjectField: StoreBinding<String>? {
    state.editingID.flatMap(row).map { $0.binding(\.edit.text, send: { .edit(.setText($0)) }) }
  }
}
