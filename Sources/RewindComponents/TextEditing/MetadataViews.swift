import Foundation

/// A value shown in a badge (`setBadgeValue`).
public enum BadgeValue: Equatable, Sendable {
  /// Shown as is; hidden when empty.
  case text(String)
  /// Shown when > 0.
  case integer(Int)
  /// Shown with one decimal when > 0.
  case decimal(Double)
  /// Any other type: hidden.
  case unsupported
}

/// The badge and metadata views of a MetaCellKit cell, as pure functions.
public enum MetadataViews {
  /// The most metadata views a cell shows.
  public static let maximumCount = 3

  /// The number of metadata views for a requested count, clamped to 0…3 (upstream traps on a negative
  /// count and creates more than three; see Docs/Components.md).
  public static func count(requested: Int) -> Int { Swift.min(maximumCount, Swift.max(0, requested)) }

  /// Whether a metadata view shows: its text is non-empty or it has an icon.
  public static func isVisible(text: String?, hasIcon: Bool) -> Bool { !(text ?? "").isEmpty || hasIcon }

  /// The badge text for `value`, or `nil` when the badge is hidden.
  public static func badgeText(_ value: BadgeValue) -> String? {
    switch value {
    case .text(let text): return text.isEmpty ? nil : text
    case .integer(let number): return number > 0 ? "\(number)" : nil
    case .decimal(let number): return number > 0 ? String(format: "%.1f", number) : nil
    case .unsupported: return nil
    }
  }

  /// The badge size for text `textWidth` points wide: width max(24, w + 12), height 24, corner radius half
  /// the smaller side.
  public static func badgeSize(textWidth: Double) -> (width: Double, height: Double, cornerRadius: Double) {
    let width = Swift.max(24, textWidth + 12)
    return (width, 24, Swift.min(width, 24) / 2)
  }
}
