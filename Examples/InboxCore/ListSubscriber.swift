import Rewind
import RewindComponents
import RewindDiff

/// A subscriber of the inbox rows, as a table view would be: it receives the diffed changesets of
/// `store.changesets(of: \.list.rows)` and keeps the rows it was last given.
///
/// The script pulls one update whenever the rows changed in a way a table view sees (a row added,
/// removed, moved, or with new content), so the output is deterministic; a real view would iterate in a
/// task and receive the same updates, coalesced if it fell behind.
public struct ListSubscriber {
  private var iterator: ChangesetSequence<InboxState, EditableRow<Mail>>.Iterator
  /// The rows as of the last update received.
  public private(set) var rows: [EditableRow<Mail>] = []

  /// Subscribes to the rows of `store`.
  public init(_ store: Store<InboxState, InboxAction>) {
    iterator = store.changesets(of: \.list.rows).makeAsyncIterator()
  }

  /// Whether `current` differs from the last rows received in identity or content: exactly when the
  /// stream has an update to deliver.
  public func hasUpdate(for current: IdentifiedArray<EditableRow<Mail>>) -> Bool {
    guard rows.count == current.count else { return true }
    return zip(rows, current).contains { old, new in old.id != new.id || !new.isContentEqual(to: old) }
  }

  /// The next update; `nil` when the stream has ended.
  public mutating func next() async -> CollectionUpdate<EditableRow<Mail>>? {
    guard let update = await iterator.next() else { return nil }
    rows = Array(update.elements)
    return update
  }
}

extension CollectionUpdate where Element == EditableRow<Mail> {
  /// `initial: 4 rows #1 #2 #3 #4`, or `events #5…#21: deleted #3 · updated #2 (⚑ Compiler review)`.
  public func summary(previous: [EditableRow<Mail>]) -> String {
    guard let events else {
      return "initial: \(elements.count) rows " + elements.map { "#\($0.id)" }.joined(separator: " ")
    }
    var parts: [String] = []
    var before = previous
    for stage in changeset {
      // A stage's deletions index the rows before it; everything else indexes its own data.
      for path in stage.elementDeleted where before.indices.contains(path.element) {
        parts.append("deleted #\(before[path.element].id)")
      }
      for path in stage.elementInserted {
        parts.append("inserted #\(stage.data[path.element].id) at \(path.element)")
      }
      for path in stage.elementUpdated {
        let row = stage.data[path.element]
        parts.append("updated #\(row.id) (\(Self.describe(row)))")
      }
      for move in stage.elementMoved { parts.append("moved #\(stage.data[move.target.element].id)") }
      before = Array(stage.data)
    }
    let range =
      events.lowerBound == events.upperBound
      ? "event #\(events.lowerBound)" : "events #\(events.lowerBound)…#\(events.upperBound)"
    return "\(range): " + parts.joined(separator: " · ")
  }

  static func describe(_ row: EditableRow<Mail>) -> String {
    var text = (row.item.isFlagged ? "⚑ " : "") + "“\(row.edit.text)”"
    if row.edit.isEditing { text += ", editing" }
    if row.item.draft != nil { text += ", draft saved" }
    return text
  }
}
