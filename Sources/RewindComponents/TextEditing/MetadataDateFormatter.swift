import Foundation

/// The date styles of MetaCellKit's metadata views.
public enum MetadataDateStyle: String, Sendable, Codable, Hashable {
  /// "15 Jan".
  case short
  /// "15 Jan 2024".
  case medium
  /// The locale's full date, no time.
  case long
  /// The locale's short time.
  case time
  /// "Just now", "5m ago", "3h ago", "2d ago", then medium.
  case relative
}

/// Formats metadata dates with a fixed locale and time zone, so output is deterministic (tests pin
/// `en_US_POSIX` and UTC). `now` is an argument: no clock is read.
public struct MetadataDateFormatter: Sendable {
  /// The locale of month names and the long and time styles.
  public var locale: Locale
  /// The time zone dates are shown in.
  public var timeZone: TimeZone

  /// Creates a formatter.
  public init(
    locale: Locale = Locale(identifier: "en_US_POSIX"),
    timeZone: TimeZone = TimeZone(identifier: "UTC") ?? .current
  ) {
    self.locale = locale
    self.timeZone = timeZone
  }

  /// `date` in `style`; `now` is used by ``MetadataDateStyle/relative`` only.
  public func string(from date: Date, style: MetadataDateStyle = .medium, now: Date) -> String {
    switch style {
    case .short: return pattern("dd MMM", date)
    case .medium: return pattern("dd MMM yyyy", date)
    case .long: return styled(date: .full, time: .none, date)
    case .time: return styled(date: .none, time: .short, date)
    case .relative: return relative(date, now: now)
    }
  }

  /// Relative text with truncating divisions. Future dates read "in 5m", "in 3h", "in 2d" (upstream shows
  /// "Just now" for every future date; see Docs/Components.md).
  func relative(_ date: Date, now: Date) -> String {
    let delta = now.timeIntervalSince(date)
    let magnitude = Swift.abs(delta)
    let future = delta < 0
    func phrase(_ value: Int, _ unit: String) -> String {
      future ? "in \(value)\(unit)" : "\(value)\(unit) ago"
    }
    if magnitude < 60 { return "Just now" }
    if magnitude < 3600 { return phrase(Int(magnitude / 60), "m") }
    if magnitude < 86400 { return phrase(Int(magnitude / 3600), "h") }
    if magnitude < 604800 { return phrase(Int(magnitude / 86400), "d") }
    return pattern("dd MMM yyyy", date)
  }

  private func formatter() -> DateFormatter {
    let formatter = DateFormatter()
    formatter.locale = locale
    formatter.timeZone = timeZone
    return formatter
  }

  private func pattern(_ format: String, _ date: Date) -> String {
    let formatter = formatter()
    formatter.dateFormat = format
    return formatter.string(from: date)
  }

  private func styled(date dateStyle: DateFormatter.Style, time timeStyle: DateFormatter.Style, _ date: Date)
    -> String
  {
    let formatter = formatter()
    formatter.dateStyle = dateStyle
    formatter.timeStyle = timeStyle
    return formatter.string(from: date)
  }
}
