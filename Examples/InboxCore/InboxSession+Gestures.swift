import Rewind
import RewindComponents

/// What a finger does to a row, as the swipe cell's pan actions.
extension InboxSession {
  /// Which way a row is swiped.
  public enum Swipe: Sendable {
    /// The finger moves left: reveals Archive and Delete.
    case left
    /// The finger moves right: reveals Flag.
    case right

    var direction: SwipeDirection { self == .left ? .rightToLeft : .leftToRight }
  }

  /// Swipes row `id` far enough to open its buttons on that side (or, if that side is open, back closed).
  public func swipe(_ id: Int, _ swipe: Swipe) {
    guard let cell = state.list.rows[id: id]?.swipe.presentation(at: now) else { return }
    let width = cell.containerWidth(swipe.direction)
    let isOpenOtherWay = cell.isOverlayShown && SwipeDirection(offset: cell.offset) != swipe.direction
    // From an open cell, dragging back by its offset closes it; otherwise drag 80 % past the threshold.
    pan(id, by: swipe.direction.sign * (isOpenOtherWay ? Swift.abs(cell.offset) : width * 0.8))
  }

  /// Swipes row `id` left past the expansion threshold: the Archive button expands and fires.
  public func fullSwipe(_ id: Int) {
    guard let cell = state.list.rows[id: id]?.swipe.presentation(at: now) else { return }
    let threshold = cell.containerWidth(.rightToLeft) * cell.rightExpansion.threshold
    pan(id, by: -(threshold + 20 - Swift.max(0, -cell.offset)))
  }

  /// Taps `button` of row `id`, first swiping its side open if it is not.
  public func tap(_ button: InboxFeature.Button, on id: Int) {
    guard let cell = state.list.rows[id: id]?.swipe.presentation(at: now) else { return }
    if !(cell.isOpen && SwipeDirection(offset: cell.offset) == button.side) {
      let now = now
      if cell.isOverlayShown { send(.swipe(.hide(animated: false, at: now)), toRow: id) }
      send(.swipe(.show(button.side, animated: false, at: now)), toRow: id)
    }
    send(.swipe(.tapButton(index: button.index, side: button.side, at: now)), toRow: id)
  }

  /// A pan of `distance` points on row `id`: began, two moves, ended at rest.
  func pan(_ id: Int, by distance: Double) {
    let sign: Double = distance < 0 ? -1 : 1
    let start = 4 * sign
    let location = SwipeVector(x: InboxFeature.cellWidth / 2, y: 20)
    let steps: [SwipeCellAction] = [
      .panBegan(translation: SwipeVector(x: start), location: location, at: now),
      .panChanged(translation: SwipeVector(x: start + distance / 2), at: now),
      .panChanged(translation: SwipeVector(x: start + distance), at: now),
      .panEnded(translation: SwipeVector(x: start + distance), velocity: .zero, at: now),
    ]
    for step in steps { send(.swipe(step), toRow: id) }
  }
}

/// Editing the selected row's subject: one transaction from begin to commit or cancel, so the whole edit
/// is one undo step and undoing it never lands inside an editing session.
extension InboxSession {
  /// Starts editing the subject of the selected row.
  public func beginEdit() {
    guard state.editingID == nil, let id = state.selectedID else { return }
    closeSwipes()
    store.beginTransaction("Edit Subject")
    edit(id, .begin)
    if state.editingID == nil { store.endTransaction() }
  }

  /// Types `text` at the end of the subject being edited; refused past the maximum length.
  public func type(_ text: String) {
    guard let id = state.editingID, let session = state.list.rows[id: id]?.edit.session else { return }
    edit(id, .input(location: session.text.utf16.count, length: 0, replacement: text))
  }

  /// Deletes the last character of the subject being edited.
  public func deleteBackward() {
    guard let id = state.editingID, let text = state.list.rows[id: id]?.edit.session?.text,
      let last = text.last
    else { return }
    let length = String(last).utf16.count
    edit(id, .input(location: text.utf16.count - length, length: length, replacement: ""))
  }

  /// Deletes the whole subject being edited.
  public func clearText() {
    // Through the subject field's binding, as a text field clears it: `setText("")`, an ordinary action.
    subjectField?.send("")
  }

  /// Presses Return: the subject is validated and committed, or refused (see ``InboxState/notice``).
  /// - Returns: whether the edit was committed.
  @discardableResult
  public func commitEdit() -> Bool {
    guard let id = state.editingID else { return false }
    edit(id, .input(location: 0, length: 0, replacement: "\n"))
    guard state.editingID == nil else { return false }
    store.endTransaction()
    return true
  }

  /// Presses Escape: the subject goes back to what it was.
  public func cancelEdit() {
    guard let id = state.editingID else { return }
    edit(id, .cancel)
    store.endTransaction()
  }

  func edit(_ id: Int, _ action: TextEditAction) {
    send(.edit(action), toRow: id)
  }
}
