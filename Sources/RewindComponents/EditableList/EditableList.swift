import Rewind

/// The editable list reducer.
public struct EditableList<Item: EditableItem>: Reducer, Sendable {
  /// Coordinates the rows' swipe cells.
  public var table: SwipeTable<EditableRow<Item>>
  /// Runs each row's editor.
  public var editor: TextEditor
  /// The swipe state (buttons, settings) of new rows.
  public var rowTemplate: SwipeCellState
  /// The editing configuration of new rows.
  public var editConfiguration: TextEditConfiguration
  /// The button whose tap deletes its row ("swipe to delete"), if any.
  public var deleteButton: (side: SwipeDirection, index: Int)?

  /// Creates the reducer.
  public init(
    cell: SwipeCell = SwipeCell(), editor: TextEditor = TextEditor(),
    rowTemplate: SwipeCellState = SwipeCellState(),
    editConfiguration: TextEditConfiguration = TextEditConfiguration(),
    deleteButton: (side: SwipeDirection, index: Int)? = nil
  ) {
    self.table = SwipeTable(cell: cell)
    self.editor = editor
    self.rowTemplate = rowTemplate
    self.editConfiguration = editConfiguration
    self.deleteButton = deleteButton
  }

  /// A new row for `item`, with the template's swipe state and an editor named after the item.
  public func makeRow(_ item: Item) -> EditableRow<Item> {
    EditableRow(
      item: item, swipe: rowTemplate,
      edit: TextEditState(title: item.text, configuration: editConfiguration, editorID: "row-\(item.id)"))
  }

  /// Applies `action` to `state`; see the type's documentation for the rules.
  public func reduce(into state: inout EditableListState<Item>, action: EditableListAction<Item>) -> Effect<
    EditableListAction<Item>
  > {
    switch action {
    case .insert(let item, let index):
      guard state.rows.index(id: item.id) == nil else { return .none }
      state.rows.insert(makeRow(item), at: Swift.min(Swift.max(0, index), state.rows.count))
      return .none
    case .delete(let id):
      guard state.rows.index(id: id) != nil else { return missing("delete", id) }
      return remove(&state, id: id)
    case .move(let from, let to):
      guard state.rows.indices.contains(from), state.rows.indices.contains(to) else {
        return .diagnostic(
          Diagnostic(
            kind: .invalidInput, message: "EditableList: move \(from) → \(to) outside 0..<\(state.rows.count)"
          ))
      }
      state.rows.move(from: from, to: to)
      return .none
    case .update(let item):
      guard let index = state.rows.index(id: item.id) else { return missing("update", item.id) }
      state.rows.updateElement(at: index) { row in
        row.item = item
        if !row.edit.isEditing { row.edit.title = item.text }
      }
      return .none
    case .swipe(let addressed):
      let effect = table.reduce(into: &state.table, action: .row(addressed)).map(Self.fromTable)
      if let deleteButton, let row = state.rows[id: addressed.id],
        row.swipe.events.contains(where: { event in
          if case .buttonTapped(let tap) = event {
            tap.direction == deleteButton.side && tap.index == deleteButton.index
          } else {
            false
          }
        })
      {
        return effect.merge(with: remove(&state, id: addressed.id))
      }
      return effect
    case .edit(let addressed):
      guard let index = state.rows.index(id: addressed.id) else { return missing("edit", addressed.id) }
      let editor = self.editor
      let id = addressed.id
      let embed: @Sendable (TextEditAction) -> EditableListAction<Item> = {
        .edit(IdentifiedAction(id: id, action: $0))
      }
      return state.rows.updateElement(at: index) { row in
        let effect = editor.reduce(into: &row.edit, action: addressed.action)
        if row.edit.events.contains(where: { if case .didEndEditing = $0 { true } else { false } }) {
          row.item.text = row.edit.title
        }
        return effect
      }
      .map(embed)
    case .touchDown(let rowID, let location, let now):
      let touch = SwipeTableAction<Item.ID>.touchDown(rowID: rowID, location: location, at: now)
      return table.reduce(into: &state.table, action: touch).map(Self.fromTable)
    case .closeAll(let animated, let now):
      return table.reduce(into: &state.table, action: .closeAll(animated: animated, at: now)).map(
        Self.fromTable)
    case .resumeTimers(let now):
      var effect = table.reduce(into: &state.table, action: .resumeAnimations(at: now)).map(Self.fromTable)
      for row in state.rows where row.edit.isEditing {
        effect = effect.merge(
          with: reduce(into: &state, action: .edit(IdentifiedAction(id: row.id, action: .resumeAutoSave))))
      }
      return effect
    }
  }

  /// Removes row `id`; returns the cancellation of its timers (its animation's end, its auto-save), which
  /// would otherwise send to a row that is gone.
  func remove(_ state: inout EditableListState<Item>, id: Item.ID) -> Effect<EditableListAction<Item>> {
    guard let row = state.rows.remove(id: id) else { return .none }
    state.table.forget(id)
    var effect = Effect<EditableListAction<Item>>.none
    if row.swipe.isAnimating { effect = .cancel(id: SwipeRowTimerID(rowID: id)) }
    if row.edit.isEditing {
      effect = effect.merge(with: .cancel(id: TextEditor.AutoSaveID(editorID: row.edit.editorID)))
    }
    return effect
  }

  private func missing(_ verb: String, _ id: Item.ID) -> Effect<EditableListAction<Item>> {
    .diagnostic(
      Diagnostic(
        kind: .elementMissing, message: "EditableList: \(verb) for id \(id), which is not in the list"))
  }

  @Sendable static func fromTable(_ action: SwipeTableAction<Item.ID>) -> EditableListAction<Item> {
    switch action {
    case .row(let addressed): .swipe(addressed)
    case .touchDown(let rowID, let location, let now): .touchDown(rowID: rowID, location: location, at: now)
    case .closeAll(let animated, let now): .closeAll(animated: animated, at: now)
    case .resumeAnimations(let now): .resumeTimers(at: now)
    }
  }
}
