import Rewind
import RewindComponents

/// The whole state of the inbox: the rows (each with its swipe cell and subject editor), the archive, the
/// selection, the attachments carousel of the selected mail, and the display time of the latest action.
///
/// Everything here is data: `Equatable` to compare a replayed state with the live one, `Codable` so the
/// file journal can snapshot it. Closures (validation rules, button handlers) live in ``InboxFeature``.
public struct InboxState: Equatable, Sendable, Codable {
  /// The rows in display order, coordinated as a swipe table (one open cell at a time).
  public var list: EditableListState<Mail>
  /// Archived mails, most recent last.
  public var archived: IdentifiedArray<Mail>
  /// The selected row, whose attachments the carousel shows.
  public var selectedID: Int?
  /// The row whose subject is being edited.
  public var editingID: Int?
  /// The attachments carousel of the selected mail.
  public var carousel: CarouselState
  /// The display time, in seconds, of the latest action that carried one: where a reopened session's
  /// clock continues from.
  public var now: Double
  /// A one-line message for the user (a refused edit, what was archived); cleared by the next message.
  public var notice: String?

  /// An inbox showing `mails`, the first one selected.
  public init(mails: [Mail], now: Double = 0) {
    let feature = InboxFeature()
    list = EditableListState(rows: IdentifiedArray(uniqueElements: mails.map(feature.list.makeRow)))
    archived = []
    editingID = nil
    carousel = InboxFeature.emptyCarousel
    self.now = now
    notice = nil
    selectedID = nil
    // Nothing moves in a new inbox, so selecting starts no timer: its effect is empty.
    if let first = mails.first { _ = feature.select(first.id, in: &self) }
  }

  /// The mails in display order.
  public var mails: [Mail] { list.rows.map(\.item) }

  /// The selected mail.
  public var selectedMail: Mail? { selectedID.flatMap { list.rows[id: $0]?.item } }

  /// Whether something moves, so the screen should be redrawn each frame: a swipe animation or a carousel
  /// scroll, both sampled at draw time.
  public var isAnimating: Bool { list.table.isAnimating || carousel.isAnimating(at: now) }

}

extension InboxState {
  /// The sample inbox every scripted run starts from.
  public static var sample: InboxState {
    InboxState(mails: [
      Mail(
        id: 1, sender: "Ada", subject: "Lunch on Friday?",
        attachments: [
          Attachment(name: "menu.pdf", kilobytes: 84), Attachment(name: "map.png", kilobytes: 412),
        ]),
      Mail(
        id: 2, sender: "Grace", subject: "Compiler review",
        attachments: [Attachment(name: "diff.patch", kilobytes: 9)]),
      Mail(id: 3, sender: "Linus", subject: "Patch v2"),
      Mail(
        id: 4, sender: "Margaret", subject: "Launch checklist",
        attachments: [
          Attachment(name: "checklist.md", kilobytes: 3), Attachment(name: "orbit.csv", kilobytes: 220),
          Attachment(name: "crew.jpg", kilobytes: 1_536),
        ]),
    ])
  }
}
