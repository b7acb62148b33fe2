import Foundation
import RewindLog

extension JSONValue {
  /// A binary-codec tree as JSON: keyed values become objects (in encoded order), arrays arrays.
  public init(_ value: BinaryValue) {
    switch value {
    case .null: self = .null
    case .bool(let value): self = .bool(value)
    case .int(let value): self = .int(value)
    case .uint(let value): self = .int(value)
    case .double(let value): self = .double(value)
    case .float(let value): self = .double(Double(value))
    case .string(let value): self = .string(value)
    case .array(let values): self = .array(values.map(JSONValue.init))
    case .keyed(let fields): self = .object(fields.map { ($0.key, JSONValue($0.value)) })
    }
  }

  /// The value as an indented tree, one field or element per line, as `show` prints payloads.
  public var tree: String { tree(label: nil) }

  /// The indented tree with `label` before the root.
  public func tree(label: String?) -> String {
    var lines: [String] = []
    render(into: &lines, label: label, indent: "")
    return lines.joined(separator: "\n")
  }

  private func render(into lines: inout [String], label: String?, indent: String) {
    let prefix = indent + (label.map { "\(LogText.escaped($0)): " } ?? "")
    switch self {
    case .array(let values):
      lines.append(prefix + (values.isEmpty ? "[]" : "[\(values.count)]"))
      for (index, value) in values.enumerated() {
        value.render(into: &lines, label: "[\(index)]", indent: indent + "  ")
      }
    case .object(let fields):
      lines.append(prefix + (fields.isEmpty ? "{}" : "{\(fields.count)}"))
      for (key, value) in fields { value.render(into: &lines, label: key, indent: indent + "  ") }
    default:
      lines.append(prefix + serialized())
    }
  }
}
