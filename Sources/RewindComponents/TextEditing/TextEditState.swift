/// The state of an editable title (MetaCellKit's editing state machine): idle, or editing a session.
public struct TextEditState: Equatable, Sendable, Codable {
  /// An editing session.
  public struct Session: Equatable, Sendable, Codable {
    /// Names the session in ``TextEditAction/autoSaveFired(session:)``: the editor's count of sessions begun.
    public var id: Int
    /// The title when editing began; restored by cancel.
    public var original: String
    /// The editor's text (never the placeholder).
    public var text: String
    /// Whether the editor has focus.
    public var isFocused = false
  }

  /// The committed title.
  public var title: String
  /// The editing configuration.
  public var configuration: TextEditConfiguration
  /// Names the auto-save effect; unique per editor in one store (an editable list uses the row id).
  public var editorID: String
  /// Whether a delegate listens: when `false` events are dropped and auto-save is off (cleared on reuse).
  public var isDelegateAttached = true
  /// The session while editing.
  public internal(set) var session: Session?
  /// The first failing rule for the current text, refreshed on user input (upstream discards it).
  public internal(set) var liveValidation: ValidationError?
  /// Whether the last `commit` went through; `nil` before any.
  public internal(set) var lastCommitSucceeded: Bool?
  /// How many editing sessions have begun: the next one's ``Session/id`` is this plus 1.
  public internal(set) var sessionCount = 0
  /// The events the last action emitted, in order.
  public internal(set) var events: [TextEditEvent] = []

  /// An idle editor showing `title`.
  public init(
    title: String = "", configuration: TextEditConfiguration = TextEditConfiguration(),
    editorID: String = "text-edit"
  ) {
    self.title = title
    self.configuration = configuration
    self.editorID = editorID
  }

  /// Whether a session is open (`isInEditMode`).
  public var isEditing: Bool { session != nil }

  /// The editor text while editing, otherwise the title (`getText()`).
  public var text: String { session?.text ?? title }

  /// The placeholder to draw, when the text is empty.
  public var visiblePlaceholder: String? { text.isEmpty ? configuration.placeholderText : nil }

  /// The character-count label while editing.
  public var characterCount: CharacterCountLabel? {
    guard let session else { return nil }
    return CharacterCountLabel.make(
      style: configuration.characterCountDisplay, count: session.text.count,
      maximum: configuration.effectiveMaxTextLength)
  }
}
