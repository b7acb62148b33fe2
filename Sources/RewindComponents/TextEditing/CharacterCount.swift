/// How a text editor shows its character count.
public enum CharacterCountDisplay: String, Sendable, Codable, Hashable {
  /// No count.
  case none
  /// "N characters remaining" (needs a maximum).
  case remaining
  /// "k/M", or "k" without a maximum.
  case count
  /// "k/M (N remaining)" (needs a maximum).
  case both
}

/// The character-count label: its text and whether it shows the warning colour.
public struct CharacterCountLabel: Equatable, Sendable {
  /// The label text; empty when the style needs a maximum that is not set.
  public var text: String
  /// Whether to show it in the warning (red) colour.
  public var isWarning: Bool

  /// Creates a label.
  public init(text: String, isWarning: Bool) {
    self.text = text
    self.isWarning = isWarning
  }

  /// The label for `count` characters under `style` and `maximum`; `nil` for ``CharacterCountDisplay/none``.
  public static func make(style: CharacterCountDisplay, count: Int, maximum: Int?) -> CharacterCountLabel? {
    switch (style, maximum) {
    case (.none, _): return nil
    case (.remaining, let max?):
      return CharacterCountLabel(text: "\(max - count) characters remaining", isWarning: max - count < 10)
    case (.count, let max?): return CharacterCountLabel(text: "\(count)/\(max)", isWarning: count > max)
    case (.count, nil): return CharacterCountLabel(text: "\(count)", isWarning: false)
    case (.both, let max?):
      return CharacterCountLabel(
        text: "\(count)/\(max) (\(max - count) remaining)", isWarning: max - count < 10)
    case (.remaining, nil), (.both, nil): return CharacterCountLabel(text: "", isWarning: false)
    }
  }
}
