/// An editing delegate callback as data, in upstream order.
public enum TextEditEvent: Equatable, Sendable, Codable {
  /// Editing began.
  case didBeginEditing
  /// Editing ended with `text`: the committed text, or the original after a cancel.
  case didEndEditing(text: String)
  /// The text changed.
  case didChangeText(String)
  /// Ending was refused by a rule.
  case validationFailed(ValidationError)
  /// User input may have changed the height; the renderer measures (spring 0.3 s, damping 0.8).
  case willChangeHeight
  /// An auto-save of `text`.
  case didAutoSave(text: String)
}
