import Observation
import Rewind
import RewindComponents
import Synchronization

/// The inbox list's views as a SwiftUI `List` or a table view holds them: the list, which lays its rows out
/// by id, and one view per row, which draws its row from the row's own store
/// (`ScopedStore<EditableRow<Mail>, InboxRowAction>`). Each is re-rendered only when it is told that what it
/// read changed; the scripted session prints which were told after each step. An edit of row #1 tells row
/// #1's view and nothing else; an archived row tells the list.
@MainActor
public final class InboxListViews {
  private let store: Store<InboxState, InboxAction>
  private let list = Told()
  private var rows: [Int: RowView] = [:]
  private var order: [Int] = []

  /// Makes the list's view and a view for each row, and renders them.
  public init(store: Store<InboxState, InboxAction>) {
    self.store = store
    renderList()
  }

  /// Waits until the views were told of every send so far, re-renders those that were, and names them.
  public func update() async -> String {
    await store.waitForViewUpdates()
    var told: [String] = []
    if list.take() {
      told.append("the list")
      renderList()
    }
    for id in order {
      guard let view = rows[id], view.told.take() else { continue }
      told.append("row #\(id)")
      view.render()
    }
    return told.isEmpty ? "none" : told.joined(separator: ", ")
  }

  /// Lays the rows out: tracks the ids, keeps the views of rows still there (their stores are cached by
  /// id, so a moved row keeps its view) and makes views for new ones.
  private func renderList() {
    let collection = withObservationTracking {
      store.scope(state: \.list.rows, action: InboxFeature.rowPath)
    } onChange: { [list] in
      list.mark()
    }
    order = collection.elements.map(\.id)
    var views: [Int: RowView] = [:]
    for (index, id) in order.enumerated() { views[id] = rows[id] ?? RowView(store: collection[index]) }
    rows = views
  }
}

/// One row's view: it reads what it draws (the mail, its swipe cell, its editor) from its row store, and
/// notes when it is told that changed.
final class RowView: Sendable {
  let store: ScopedStore<EditableRow<Mail>, InboxRowAction>
  let told = Told()

  init(store: ScopedStore<EditableRow<Mail>, InboxRowAction>) {
    self.store = store
    render()
  }

  func render() {
    withObservationTracking {
      _ = (store.item, store.swipe, store.edit)
    } onChange: { [told] in
      told.mark()
    }
  }
}

/// Whether a view was told of a change since it last looked.
final class Told: Sendable {
  private let flag = Atomic<Bool>(false)

  func mark() { flag.store(true, ordering: .releasing) }

  /// Whether it was told, forgetting it.
  func take() -> Bool { flag.exchange(false, ordering: .acquiringAndReleasing) }
}
