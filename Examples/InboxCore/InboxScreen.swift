import Foundation
import RewindComponents

/// Draws the inbox as lines of text: the list with open swipe buttons, the carousel, the editor, the
/// notice and the keys. A pure function of the state and the display time (a moving swipe cell is drawn
/// where its animation is at that time), so the terminal UI and the tests draw the same.
public struct InboxScreen: Sendable {
  /// The columns a row's content takes; the swipe offset is scaled from the cell width to these.
  public var rowColumns = 64
  /// Whether to add ANSI colours (off for tests and logs).
  public var styled: Bool

  /// Creates a screen.
  public init(styled: Bool) {
    self.styled = styled
  }

  /// The horizontal rule that opens and closes the list.
  public static let rule = String(repeating: "─", count: 68)

  /// The screen for `state` as a frame at display time `now` draws it; `header` is the first line.
  public func lines(for state: InboxState, header: String, at now: Double) -> [String] {
    var lines = [bold(header), Self.rule]
    if state.list.rows.isEmpty { lines.append("   (inbox zero: nothing left to read)") }
    for row in state.list.rows { lines.append(line(for: row, selected: row.id == state.selectedID, at: now)) }
    lines.append(Self.rule)
    lines.append(carouselLine(state, at: now))
    lines.append(editorLine(state))
    lines.append(state.notice.map { "  \(styled ? "\u{1B}[33m\($0)\u{1B}[0m" : $0)" } ?? "")
    lines.append(dim("  ↑↓ select  ←→ swipe  a archive  f flag  d delete  e edit  [ ] attachments"))
    lines.append(dim("  u undo  r redo  q quit"))
    return lines
  }

  /// One row: the content slid by the swipe offset at `now`, with the revealed buttons beside it.
  func line(for row: EditableRow<Mail>, selected: Bool, at now: Double) -> String {
    let mail = row.item
    let files =
      mail.attachments.isEmpty
      ? "" : "+\(mail.attachments.count) file\(mail.attachments.count == 1 ? "" : "s")"
    let subject = row.edit.isEditing ? row.edit.text + "▏" : mail.subject
    let content = fit(
      "\(mail.isFlagged ? "⚑" : " ") \(fit(mail.sender, 9)) \(fit(subject, 40)) \(fit(files, 8))", rowColumns)
    let marker = selected ? "▸ " : "  "
    let cell = row.swipe.presentation(at: now)
    let revealed = Swift.min(
      rowColumns, Int((Swift.abs(cell.offset) / cell.cellWidth * Double(rowColumns)).rounded()))
    guard cell.isOverlayShown, revealed > 0 else { return marker + (selected ? reverse(content) : content) }
    let side = SwipeDirection(offset: cell.offset)
    let buttons: String
    if cell.activeExpansion == side, let expanded = cell.buttons(side)[safe: cell.expansion(side).buttonIndex]
    {
      buttons = center("◀ \(expanded.title) ◀", revealed)
    } else {
      // The outer button (index 0) sits at the cell's edge.
      let titles = cell.buttons(side).map { "[\($0.title)]" }
      let text = side == .rightToLeft ? titles.reversed().joined() : titles.joined()
      buttons = side == .rightToLeft ? String(text.suffix(revealed)) : String(text.prefix(revealed))
    }
    let padded = side == .rightToLeft ? leftPad(buttons, revealed) : fit(buttons, revealed)
    let shown = highlight(padded)
    if side == .rightToLeft {
      return marker + String(content.dropFirst(revealed)) + shown
    }
    return marker + shown + String(content.prefix(rowColumns - revealed))
  }

  /// The attachments, the one at the carousel's centre at `now` highlighted (a scroll is sampled, too).
  func carouselLine(_ state: InboxState, at now: Double) -> String {
    guard let mail = state.selectedMail else { return "" }
    guard !mail.attachments.isEmpty else { return "  Attachments (\(mail.sender)): none" }
    let current = state.carousel.currentItemIndex(at: now)
    let items = mail.attachments.enumerated().map { index, file in
      index == current ? "[\(file.name) \(file.kilobytes) KB]" : " \(file.name) "
    }
    let position = "\(current + 1)/\(mail.attachments.count)"
    return "  Attachments (\(mail.sender)): ‹ \(items.joined(separator: " ")) ›  \(position)"
  }

  func editorLine(_ state: InboxState) -> String {
    guard let id = state.editingID, let row = state.list.rows[id: id] else { return "" }
    var parts = ["  Editing #\(id): \(row.edit.text)▏"]
    if let count = row.edit.characterCount { parts.append(count.text) }
    if row.item.draft != nil { parts.append("draft saved") }
    parts.append("(Enter saves, Esc cancels)")
    return parts.joined(separator: "   ")
  }

  func fit(_ text: String, _ width: Int) -> String {
    text.count > width
      ? String(text.prefix(Swift.max(0, width - 1))) + "…"
      : text + String(repeating: " ", count: width - text.count)
  }

  func leftPad(_ text: String, _ width: Int) -> String {
    text.count >= width
      ? String(text.suffix(width)) : String(repeating: " ", count: width - text.count) + text
  }

  func center(_ text: String, _ width: Int) -> String {
    guard text.count < width else { return String(text.prefix(width)) }
    let left = (width - text.count) / 2
    return String(repeating: " ", count: left) + text
      + String(repeating: " ", count: width - text.count - left)
  }

  func bold(_ text: String) -> String { styled ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
  /// `text` dimmed when styled.
  public func dim(_ text: String) -> String { styled ? "\u{1B}[2m\(text)\u{1B}[0m" : text }
  func reverse(_ text: String) -> String { styled ? "\u{1B}[7m\(text)\u{1B}[0m" : text }
  func highlight(_ text: String) -> String { styled ? "\u{1B}[30;46m\(text)\u{1B}[0m" : text }
}

extension Array {
  subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
