import Foundation
import Rewind
import RewindComponents
import RewindDiff
import Synchronization
import Testing

struct Note: EditableItem, Hashable, Codable {
  var id: Int
  var text: String
}

@Suite("Editable list")
struct EditableListTests {
  static let template = SwipeCellState(right: [SwipeButton(title: "Delete", width: 90)])

  static func reducer() -> EditableList<Note> {
    var editing = TextEditConfiguration()
    editing.isEditingEnabled = true
    return EditableList(rowTemplate: template, editConfiguration: editing, deleteButton: (.rightToLeft, 0))
  }

  static func initial(_ texts: [String]) -> EditableListState<Note> {
    let reducer = reducer()
    return EditableListState(
      rows: IdentifiedArray(
        uniqueElements: texts.enumerated().map { reducer.makeRow(Note(id: $0.offset + 1, text: $0.element)) })
    )
  }

  func paths(_ elements: [ElementPath]) -> [Int] { elements.map(\.element) }

  @Test("insert, delete, move and edit reach subscribers as changesets")
  func changesets() async throws {
    let store = Store(initialState: Self.initial(["a", "b", "c"]), reducer: Self.reducer())
    var updates = store.changesets(of: \.rows).makeAsyncIterator()
    let first = try #require(await updates.next())
    #expect(first.isInitial)
    #expect(first.elements.map(\.item.text) == ["a", "b", "c"])

    store.send(.insert(Note(id: 4, text: "d"), at: 1))
    let inserted = try #require(await updates.next())
    #expect(inserted.changeset.count == 1)
    #expect(paths(inserted.changeset[0].elementInserted) == [1])

    store.send(.delete(id: 2))
    let deleted = try #require(await updates.next())
    #expect(paths(deleted.changeset[0].elementDeleted) == [2])

    store.send(.move(from: 0, to: 2))
    let moved = try #require(await updates.next())
    #expect(moved.elements.map(\.item.id) == [4, 3, 1])
    #expect(moved.changeset.flatMap(\.elementMoved).isEmpty == false)

    store.send(.edit(IdentifiedAction(id: 3, action: .begin)))
    store.send(.edit(IdentifiedAction(id: 3, action: .setText("C!"))))
    store.send(.edit(IdentifiedAction(id: 3, action: .end)))
    var edited = try #require(await updates.next())
    while edited.sequence < store.sequence { edited = try #require(await updates.next()) }
    #expect(edited.elements.map(\.item.text) == ["d", "C!", "a"])
    #expect(edited.changeset.flatMap(\.elementUpdated).map(\.element) == [1])
    try store.close()
  }

  @Test("a pan changes no row content, so it produces no changeset")
  func panIsNotContent() {
    let state = Self.initial(["a"])
    var moved = state
    _ = Self.reducer().reduce(
      into: &moved,
      action: .swipe(IdentifiedAction(id: 1, action: .panBegan(translation: SwipeVector(x: -1), at: 0))))
    _ = Self.reducer().reduce(
      into: &moved,
      action: .swipe(IdentifiedAction(id: 1, action: .panChanged(translation: SwipeVector(x: -50), at: 0))))
    #expect(moved.rows[0].swipe.offset == -49)
    let changes = StagedChangeset(source: Array(state.rows), target: Array(moved.rows))
    #expect(changes.isEmpty)
  }

  @Test("swipe to delete, then one undo brings the row back")
  func undoDelete() {
    let store = Store(
      initialState: Self.initial(["a", "b"]), reducer: Self.reducer(),
      history: HistoryConfiguration { $0.suggestedUndoPolicy })
    store.send(.swipe(IdentifiedAction(id: 2, action: .show(.rightToLeft, animated: false, at: 0))))
    store.send(.swipe(IdentifiedAction(id: 2, action: .tapButton(index: 0, side: .rightToLeft, at: 0))))
    #expect(store.state.rows.ids == [1])
    #expect(store.state.table.openRowIDs.isEmpty)
    #expect(store.undoStepName == "Swipe Action")
    store.undo()
    #expect(store.state.rows.ids == [1, 2])
    #expect(store.state.rows[id: 2]?.item.text == "b")
  }

  @Test("commit writes the text into the item; cancel restores it")
  func editWritesItem() {
    var state = Self.initial(["a"])
    let reducer = Self.reducer()
    for action: TextEditAction in [.begin, .setText("x"), .commit, .begin, .setText("y"), .cancel] {
      _ = reducer.reduce(into: &state, action: .edit(IdentifiedAction(id: 1, action: action)))
    }
    #expect(state.rows[id: 1]?.item.text == "x")
  }

  @Test("actions and state are Codable, for durable journals")
  func codable() throws {
    let actions: [EditableListAction<Note>] = [
      .insert(Note(id: 5, text: "e"), at: 0), .delete(id: 5), .move(from: 0, to: 1),
      .update(Note(id: 1, text: "z")),
      .swipe(
        IdentifiedAction(
          id: 1, action: .panEnded(translation: SwipeVector(x: -3, y: 1), velocity: .zero, at: 1))),
      .edit(IdentifiedAction(id: 1, action: .input(location: 0, length: 0, replacement: "q"))),
      .edit(IdentifiedAction(id: 1, action: .begin)), .touchDown(rowID: nil, location: .zero, at: 1.5),
      .swipe(IdentifiedAction(id: 1, action: .animationFinished(id: 3))), .closeAll(animated: true, at: 2),
    ]
    let decoded = try JSONDecoder().decode(
      [EditableListAction<Note>].self, from: JSONEncoder().encode(actions))
    #expect(decoded == actions)
    var state = Self.initial(["a", "b"])
    _ = Self.reducer().reduce(
      into: &state,
      action: .swipe(IdentifiedAction(id: 2, action: .show(.rightToLeft, animated: false, at: 0))))
    let restored = try JSONDecoder().decode(EditableListState<Note>.self, from: JSONEncoder().encode(state))
    #expect(restored == state)
  }

  @Test("bad indices and ids are diagnostics or clamped, never crashes")
  func badInput() {
    let seen = Mutex<[Diagnostic.Kind]>([])
    let store = Store(
      initialState: Self.initial(["a", "b"]), reducer: Self.reducer(),
      diagnostics: { diagnostic in seen.withLock { $0.append(diagnostic.kind) } })
    store.send(.delete(id: 9))
    store.send(.move(from: -1, to: 1))
    store.send(.move(from: 0, to: 5))
    store.send(.update(Note(id: 9, text: "z")))
    store.send(.edit(IdentifiedAction(id: 9, action: .begin)))
    store.send(.swipe(IdentifiedAction(id: 9, action: .hide(animated: false, at: 0))))
    #expect(
      seen.withLock { $0 }
        == [.elementMissing, .invalidInput, .invalidInput, .elementMissing, .elementMissing, .elementMissing])
    store.send(.insert(Note(id: 3, text: "c"), at: 99))
    store.send(.insert(Note(id: 4, text: "d"), at: -5))
    store.send(.insert(Note(id: 1, text: "dup"), at: 0))
    #expect(store.state.rows.ids == [4, 1, 2, 3])
    #expect(store.state.rows[id: 1]?.item.text == "a")
  }
}
