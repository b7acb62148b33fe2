import RewindComponents

/// A file attached to a mail, shown in the attachments carousel.
public struct Attachment: Equatable, Sendable, Codable {
  /// The file name.
  public var name: String
  /// Its size in kilobytes.
  public var kilobytes: Int

  /// Creates an attachment.
  public init(name: String, kilobytes: Int) {
    self.name = name
    self.kilobytes = kilobytes
  }
}

/// One mail: what a row of the inbox shows. Its subject is the text the row's editor changes.
public struct Mail: EditableItem, Codable {
  /// The mail's identity.
  public var id: Int
  /// Who sent it.
  public var sender: String
  /// The subject line, edited in place.
  public var subject: String
  /// Whether it is flagged.
  public var isFlagged: Bool
  /// Its attachments, in carousel order.
  public var attachments: [Attachment]
  /// The text last auto-saved while its subject is being edited; `nil` when not editing.
  public var draft: String?

  /// Creates a mail.
  public init(
    id: Int, sender: String, subject: String, isFlagged: Bool = false, attachments: [Attachment] = [],
    draft: String? = nil
  ) {
    self.id = id
    self.sender = sender
    self.subject = subject
    self.isFlagged = isFlagged
    self.attachments = attachments
    self.draft = draft
  }

  /// The subject, under the name ``EditableItem`` uses (not encoded: it is the same stored value).
  public var text: String {
    get { subject }
    set { subject = newValue }
  }
}
