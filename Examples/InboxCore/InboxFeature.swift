import Rewind
import RewindComponents

/// The inbox reducer: runs the editable list (swipe cells and subject editors) and the carousel, and turns
/// the components' delegate events into the app's decisions.
///
/// - A click on Flag, Archive or Delete (a tap, or the full-swipe expansion of Archive) becomes a
///   `.toggleFlag`, `.archive` or `.delete` action sent as an effect, so it is an event of its own whose
///   cause is the tap, or the end of the swipe's animation (itself caused by the release of the swipe).
/// - An auto-save of the subject being edited stores the text as the mail's `draft`.
/// - A refused edit puts the rule's message in `notice`.
public struct InboxFeature: Reducer, Sendable {
  /// The longest subject, in characters.
  public static let maxSubjectLength = 48
  /// Seconds between auto-saves while a subject is edited.
  public static let autoSaveInterval = 2.0
  /// The width of a row in points; the terminal renderer scales it to columns.
  public static let cellWidth = 320.0

  /// The editable list: the rows' swipe cells and subject editors.
  public let list: EditableList<Mail>
  /// The attachments carousel.
  public let carousel = CarouselReducer()

  /// Creates the reducer with the inbox's buttons, validation rules and auto-save. Its timers (the ends of
  /// swipe animations, auto-save) sleep on the clock dependency.
  public init() {
    // Every click closes the cell: the row is archived, deleted or flagged right after.
    let cell = SwipeCell(tappedButton: { _ in true })
    let editor = TextEditor(rules: [
      .length(min: 1, message: "A subject cannot be empty"),
      .regex("\\S", message: "A subject needs a visible character"),
      .length(max: Self.maxSubjectLength, message: "At most \(Self.maxSubjectLength) characters"),
    ])
    var editing = TextEditConfiguration()
    editing.isEditingEnabled = true
    editing.maxTextLength = Self.maxSubjectLength
    editing.characterCountDisplay = .both
    editing.autoSaveInterval = Self.autoSaveInterval
    editing.placeholderText = "Subject"
    list = EditableList(cell: cell, editor: editor, rowTemplate: Self.rowTemplate, editConfiguration: editing)
  }

  /// The buttons of every row: Flag on the left (swipe right), Archive and Delete on the right (swipe
  /// left); swiping left past the expansion threshold archives.
  public static var rowTemplate: SwipeCellState {
    var cell = SwipeCellState(
      left: [SwipeButton(title: "Flag", width: 80, backgroundColor: "orange")],
      right: [
        SwipeButton(title: "Archive", width: 80, backgroundColor: "blue"),
        SwipeButton(title: "Delete", width: 80, backgroundColor: "red"),
      ],
      cellWidth: cellWidth)
    cell.rightExpansion.buttonIndex = Button.archive.index
    cell.rightExpansion.fillOnTrigger = true
    return cell
  }

  /// The row buttons, by side and index.
  public enum Button: CaseIterable, Sendable {
    /// The left button.
    case flag
    /// The outer right button; also the full-swipe expansion.
    case archive
    /// The inner right button.
    case delete

    /// The side that shows it.
    public var side: SwipeDirection { self == .flag ? .leftToRight : .rightToLeft }
    /// Its index on that side.
    public var index: Int { self == .delete ? 1 : 0 }

    /// The button a click names, if any.
    public init?(_ tap: SwipeButtonTap) {
      guard let button = Self.allCases.first(where: { $0.side == tap.direction && $0.index == tap.index })
      else {
        return nil
      }
      self = button
    }
  }

  /// A carousel with nothing loaded. It does not settle on an item boundary after a layout (the scrolls it
  /// gets already end on one), so loading it starts no animation.
  static var emptyCarousel: CarouselState {
    var properties = CarouselProperties()
    properties.scrollToItemBoundary = false
    return CarouselState(
      itemWidth: 120, bounds: CarouselSize(width: 320, height: 120), type: .linear, properties: properties)
  }

  /// Applies `action`; see the type's documentation.
  public func reduce(into state: inout InboxState, action: InboxAction) -> Effect<InboxAction> {
    // The inbox's clock: the display time of the latest action that carries one (never backwards).
    if let now = action.time, now.isFinite, now > state.now { state.now = now }
    switch action {
    case .list(let listAction):
      return reduceList(&state, listAction)
    case .carousel(let carouselAction):
      // The carousel's scroll is sampled at draw time; its end comes from its timer, on the store's clock.
      return carousel.reduce(into: &state.carousel, action: carouselAction).map(InboxAction.carousel)
    case .select(let id, let now):
      guard state.list.rows[id: id] != nil else { return missing("select", id) }
      let effect = list.reduce(into: &state.list, action: .closeAll(animated: true, at: now)).map(
        InboxAction.list)
      return effect.merge(with: select(id, in: &state))
    case .toggleFlag(let id):
      guard let index = state.list.rows.index(id: id) else { return missing("flag", id) }
      state.list.rows[index].item.isFlagged.toggle()
      return .none
    case .archive(let id):
      guard let (mail, effect) = remove(id, from: &state) else { return missing("archive", id) }
      state.archived.append(mail)
      state.notice = "Archived #\(mail.id) (\(mail.sender))"
      return effect
    case .delete(let id):
      guard let (mail, effect) = remove(id, from: &state) else { return missing("delete", id) }
      state.notice = "Deleted #\(mail.id) (\(mail.sender))"
      return effect
    case .resetToSample:
      let now = state.now
      state = InboxState.sample
      state.now = now
      return .none
    case .getMail:
      // The highest id the inbox has had, archived mail included; deleted mail is not remembered.
      let known = state.list.rows.map(\.id) + state.archived.map(\.id)
      return getMail(after: known.max() ?? 0)
    case .received(let mails):
      return receive(mails, into: &state)
    case .getMailFailed(let message):
      state.notice = "Could not get mail: \(message)"
      return .none
    }
  }

  /// Asks the mail server for the mail after `id`; what it answers comes back as an action.
  func getMail(after id: Int) -> Effect<InboxAction> {
    .run { send in
      @Dependency(\.mailServer) var mailServer
      send(.received(try await mailServer.fetchMail(id)))
    } catch: { error, send in
      send(.getMailFailed("\(error)"))
    }
    .cancellable(id: GetMailID(), cancelInFlight: true)
  }

  /// Appends the mails the inbox does not have yet, at the bottom.
  func receive(_ mails: [Mail], into state: inout InboxState) -> Effect<InboxAction> {
    var effect = Effect<InboxAction>.none
    var added = 0
    for mail in mails where state.list.rows[id: mail.id] == nil && state.archived[id: mail.id] == nil {
      let inserted = list.reduce(into: &state.list, action: .insert(mail, at: state.list.rows.count))
      effect = effect.merge(with: inserted.map(InboxAction.list))
      added += 1
    }
    state.notice = added == 0 ? "No new mail" : "\(added) new mail\(added == 1 ? "" : "s")"
    return effect
  }

  /// The id of the one `getMail` in flight: a new one replaces it.
  struct GetMailID: Hashable, Sendable {}

  /// Runs a list action, then reads the components' events from it.
  func reduceList(_ state: inout InboxState, _ action: EditableListAction<Mail>) -> Effect<InboxAction> {
    let effect = list.reduce(into: &state.list, action: action).map(InboxAction.list)
    switch action {
    case .swipe, .touchDown, .closeAll, .resumeTimers:
      // The table's events are those of this action only when the action went to the table.
      return effect.merge(with: clicks(in: state.list.table.events))
    case .edit(let addressed):
      readEditEvents(&state, id: addressed.id)
      return effect
    case .insert, .delete, .move, .update:
      return effect
    }
  }

  /// The decisions the clicks among `events` ask for, in order.
  func clicks(in events: [SwipeRowEvent<Int>]) -> Effect<InboxAction> {
    var effect = Effect<InboxAction>.none
    for rowEvent in events {
      guard case .buttonTapped(let tap) = rowEvent.event, let button = Button(tap) else { continue }
      let decision: InboxAction =
        switch button {
        case .flag: .toggleFlag(id: rowEvent.id)
        case .archive: .archive(id: rowEvent.id)
        case .delete: .delete(id: rowEvent.id)
        }
      effect = effect.merge(with: .send(decision))
    }
    return effect
  }

  /// Keeps `editingID`, the draft and the notice in step with the editor of row `id`.
  func readEditEvents(_ state: inout InboxState, id: Int) {
    guard let index = state.list.rows.index(id: id) else { return }
    let edit = state.list.rows[index].edit
    if edit.isEditing {
      state.editingID = id
    } else if state.editingID == id {
      state.editingID = nil
    }
    for event in edit.events {
      switch event {
      case .didBeginEditing:
        state.notice = nil
      case .didAutoSave(let text):
        state.list.rows[index].item.draft = text
      case .didEndEditing:
        state.list.rows[index].item.draft = nil
        state.notice = nil
      case .validationFailed(let error):
        state.notice = "Not saved: \(error.message)"
      case .didChangeText, .willChangeHeight:
        break
      }
    }
  }

  /// Removes row `id`, moving the selection to its neighbour; returns its mail, and the effect that stops
  /// the row's timers.
  func remove(_ id: Int, from state: inout InboxState) -> (Mail, Effect<InboxAction>)? {
    guard let index = state.list.rows.index(id: id), var mail = state.list.rows[id: id]?.item else {
      return nil
    }
    var effect = list.reduce(into: &state.list, action: .delete(id: id)).map(InboxAction.list)
    mail.draft = nil
    if state.editingID == id { state.editingID = nil }
    if state.selectedID == id {
      let rows = state.list.rows
      if rows.isEmpty {
        state.selectedID = nil
        effect = effect.merge(with: loadAttachments(0, in: &state))
      } else {
        effect = effect.merge(with: select(rows[Swift.min(index, rows.count - 1)].id, in: &state))
      }
    }
    return (mail, effect)
  }

  /// Selects `id` and loads its attachments into the carousel.
  func select(_ id: Int, in state: inout InboxState) -> Effect<InboxAction> {
    state.selectedID = id
    return loadAttachments(state.list.rows[id: id]?.item.attachments.count ?? 0, in: &state)
  }

  /// Shows `count` attachments from the first: the carousel jumps to 0 (ending a scroll still running, and
  /// its timer with it) and reloads, keeping its clock and its count of motions, so a stale timer can never
  /// end a later scroll.
  func loadAttachments(_ count: Int, in state: inout InboxState) -> Effect<InboxAction> {
    let now = state.now
    return Effect.merge(
      carousel.reduce(into: &state.carousel, action: .setScrollOffset(0, at: now)),
      carousel.reduce(into: &state.carousel, action: .reload(count: count, at: now))
    ).map(InboxAction.carousel)
  }

  func missing(_ verb: String, _ id: Int) -> Effect<InboxAction> {
    .diagnostic(
      Diagnostic(kind: .elementMissing, message: "Inbox: \(verb) mail \(id), which is not in the inbox"))
  }
}
