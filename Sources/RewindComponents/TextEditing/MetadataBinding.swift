import Foundation

/// What MetaCellKit's reflection binding puts into a cell: title, icon, badge and metadata texts.
public struct MetadataBinding: Equatable, Sendable {
  /// The title, from a `title` or `name` String property (the later one wins).
  public var title: String?
  /// The icon's symbol name, from an `icon` or `image` String property.
  public var icon: String?
  /// The badge text, from a `badge` or `count` String or Int property (0 shows "0").
  public var badge: String?
  /// The metadata views' texts: the configured ones, then free views filled in property order.
  public var metadata: [String?]

  /// Binds `value`'s stored properties in declaration order (labels matched case-insensitively).
  ///
  /// - Parameters:
  ///   - value: the model whose properties fill the cell (by reflection).
  ///   - configured: the metadata views' texts from their configurations (`nil` or empty: free); its
  ///     count is the number of views, clamped to 0…3.
  ///   - formatter: formats other Date properties with the fixed `dd MMM yyyy` pattern.
  public static func bind(
    _ value: Any, configured: [String?], formatter: MetadataDateFormatter = MetadataDateFormatter()
  ) -> MetadataBinding {
    var binding = MetadataBinding(
      title: nil, icon: nil, badge: nil,
      metadata: Array(configured.prefix(MetadataViews.count(requested: configured.count))))
    for child in Mirror(reflecting: value).children {
      guard let label = child.label?.lowercased(), let property = unwrap(child.value) else { continue }
      switch label {
      case "title", "name":
        if let text = property as? String { binding.title = text }
      case "icon", "image":
        if let symbol = property as? String { binding.icon = symbol }
      case "badge", "count":
        if let text = property as? String {
          binding.badge = text
        } else if let number = property as? Int {
          binding.badge = "\(number)"
        }
      default:
        let text: String
        if let date = property as? Date {
          text = formatter.string(from: date, style: .medium, now: date)
        } else if let string = property as? String {
          text = string
        } else {
          continue
        }
        if let free = binding.metadata.firstIndex(where: { ($0 ?? "").isEmpty }) {
          binding.metadata[free] = text
        }
      }
    }
    return binding
  }

  /// The wrapped value of an optional, `nil` for an empty one, the value itself otherwise.
  private static func unwrap(_ value: Any) -> Any? {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .optional else { return value }
    return mirror.children.first.map(\.value)
  }
}
