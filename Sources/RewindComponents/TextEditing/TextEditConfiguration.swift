/// The data part of MetaCellKit's editing configuration (validation rules and delegate answers live in
/// the ``TextEditor`` reducer).
public struct TextEditConfiguration: Equatable, Sendable, Codable {
  /// Whether editing may begin.
  public var isEditingEnabled = false
  /// The most characters user input may produce; `nil` for no limit, negative counts as 0. Programmatic
  /// `setText` ignores it.
  public var maxTextLength: Int?
  /// Shown while the text is empty. Never part of the text (see Docs/Components.md).
  public var placeholderText: String? = "Enter text..."
  /// The character-count style.
  public var characterCountDisplay: CharacterCountDisplay = .none
  /// Seconds between auto-saves while editing; `nil`, zero, negative or non-finite: no auto-save.
  public var autoSaveInterval: Double?
  /// Whether user input asks the renderer to re-measure the height.
  public var enablesDynamicHeight = true

  /// The upstream defaults.
  public init() {}

  /// The longest interval the auto-save timer sleeps (about 31 years); longer ones are capped.
  public static let longestAutoSaveInterval: Double = 1e9

  /// The maximum length with a negative value counted as 0.
  var effectiveMaxTextLength: Int? { maxTextLength.map { Swift.max(0, $0) } }

  /// The auto-save interval when it is usable.
  var validAutoSaveInterval: Double? {
    guard let interval = autoSaveInterval, interval.isFinite, interval > 0 else { return nil }
    return interval
  }
}
