import Rewind

/// One level of a state's tree for the `state` command: a value's kind and type, and a page of its
/// children, each with its path and a bounded preview, so that a tool browses a state of any size lazily.
enum StateNode {
  /// The most children one page holds.
  static var pageLimit: Int { 1_000 }

  /// The node for `value` at `path`, with children `offset ..< offset + limit`.
  static func json(_ value: Any, path: String, offset: Int, limit: Int) -> InspectorJSON {
    let renderer = ValueRenderer(depthLimit: 1, childLimit: 5)
    var fields: [(String, InspectorJSON)] = [
      ("path", .string(path)), ("type", .string(ValueRenderer.typeName(of: value))),
    ]
    let (children, count) = page(of: value, offset: offset, limit: min(limit, pageLimit))
    if let children {
      fields.append(("count", .integer(Int64(count))))
      fields.append(("offset", .integer(Int64(offset))))
      fields.append(
        (
          "children",
          .array(
            children.map { key, child in
              let childPath = key.hasPrefix("[") ? path + key : StateDiffer.join(path, key)
              return .object([
                ("key", .string(key)), ("path", .string(childPath)),
                ("type", .string(ValueRenderer.typeName(of: child))),
                ("preview", renderer.json(child)), ("hasChildren", .bool(hasChildren(child))),
              ])
            })
        ))
    } else {
      fields.append(("value", ValueRenderer(depthLimit: 4, childLimit: 50).json(value)))
    }
    return .object(fields)
  }

  /// Whether the tree shows `value` with children.
  static func hasChildren(_ value: Any) -> Bool {
    page(of: value, offset: 0, limit: 0).children != nil
  }

  /// A page of `value`'s children with their keys (`label` or `[key]`), and how many there are; `nil`
  /// children for a leaf.
  static func page(of value: Any, offset: Int, limit: Int) -> (children: [(String, Any)]?, count: Int) {
    if ValueRenderer.leaf(value) != nil { return (nil, 0) }
    if let collection = value as? any InspectableCollection {
      let start = max(0, offset)
      let elements = collection.inspectionElements(in: start..<(start + max(0, limit)))
      return (elements.map { ($0.key.pathComponent, $0.value) }, collection.inspectionCount)
    }
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .optional:
      guard let wrapped = mirror.children.first?.value else { return (nil, 0) }
      return page(of: wrapped, offset: offset, limit: limit)
    case .enum:
      guard let payload = mirror.children.first?.value else { return (nil, 0) }
      return ([(ActionTypeName.caseName(of: value) ?? "case", payload)], 1)
    case .struct, .class, .tuple:
      if mirror.children.isEmpty { return (nil, 0) }
      let all = mirror.children.enumerated().map { index, child in (child.label ?? ".\(index)", child.value) }
      return (Array(all.dropFirst(max(0, offset)).prefix(max(0, limit))), all.count)
    case .collection:
      let all = mirror.children.enumerated().map { index, child in ("[\(index)]", child.value) }
      return (Array(all.dropFirst(max(0, offset)).prefix(max(0, limit))), all.count)
    case .dictionary, .set:
      let entries = StateDiffer.keyed(mirror).entries.map { ("[\($0.0)]", $0.1) }
      return (Array(entries.dropFirst(max(0, offset)).prefix(max(0, limit))), entries.count)
    default:
      return (nil, 0)
    }
  }
}
