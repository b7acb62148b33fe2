import Foundation
import Rewind

/// Turns any value into JSON by reflection, bounded: nesting past ``depthLimit`` and collections past
/// ``childLimit`` are elided, so rendering a value costs what the limits allow, not what the value holds.
///
/// - An optional is its value or `null`; a struct, class or labeled tuple an object of its fields; an
///   unlabeled tuple, array, set or persistent collection an array; a dictionary an object keyed by its
///   keys' descriptions; an enum case without a payload its name, with one `{"case": payload}`.
/// - Numbers, strings and booleans are themselves; a `Date` its description, a `UUID` its text; any other
///   value without fields its description.
/// - What is cut off is `{"$elided": "<type>", "count": n}`; a collection's elements past the limit are
///   replaced by one `{"$more": n}`.
struct ValueRenderer {
  var depthLimit = 4
  var childLimit = 50

  /// The value as JSON.
  func json(_ value: Any) -> InspectorJSON { json(value, depth: 0) }

  func json(_ value: Any, depth: Int) -> InspectorJSON {
    if let leaf = Self.leaf(value) { return leaf }
    if let collection = value as? any InspectableCollection {
      guard depth < depthLimit else { return elided(value, count: collection.inspectionCount) }
      let shown = collection.inspectionElements(in: 0..<childLimit)
      var values = shown.map { json($0.value, depth: depth + 1) }
      if collection.inspectionCount > shown.count {
        values.append(.object([("$more", .integer(Int64(collection.inspectionCount - shown.count)))]))
      }
      return .array(values)
    }
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .optional:
      guard let wrapped = mirror.children.first?.value else { return .null }
      return json(wrapped, depth: depth)
    case .enum:
      let name = ActionTypeName.caseName(of: value) ?? mirror.children.first?.label ?? "\(value)"
      guard let payload = mirror.children.first?.value else { return .string(name) }
      guard depth < depthLimit else { return elided(value, count: nil) }
      return .object([(name, json(payload, depth: depth + 1))])
    case .collection, .set:
      guard depth < depthLimit else { return elided(value, count: Int(mirror.children.count)) }
      var values: [InspectorJSON] = []
      var count = 0
      for child in mirror.children {
        if count < childLimit { values.append(json(child.value, depth: depth + 1)) }
        count += 1
      }
      if count > childLimit { values.append(.object([("$more", .integer(Int64(count - childLimit)))])) }
      return .array(values)
    case .dictionary:
      guard depth < depthLimit else { return elided(value, count: Int(mirror.children.count)) }
      var fields: [(String, InspectorJSON)] = []
      var count = 0
      for child in mirror.children {
        count += 1
        guard count <= childLimit else { continue }
        let pair = Array(Mirror(reflecting: child.value).children)
        guard pair.count == 2 else { continue }
        fields.append((Self.keyText(pair[0].value), json(pair[1].value, depth: depth + 1)))
      }
      if count > childLimit { fields.append(("$more", .integer(Int64(count - childLimit)))) }
      return .object(fields)
    case .tuple where mirror.children.allSatisfy({ $0.label.map { $0.hasPrefix(".") } ?? true }):
      guard depth < depthLimit else { return elided(value, count: nil) }
      return .array(mirror.children.map { json($0.value, depth: depth + 1) })
    case .struct, .class, .tuple:
      if mirror.children.isEmpty { return .string(String(describing: value)) }
      guard depth < depthLimit else { return elided(value, count: nil) }
      return .object(
        mirror.children.enumerated().map { index, child in
          (child.label ?? ".\(index)", json(child.value, depth: depth + 1))
        })
    default:
      return .string(String(describing: value))
    }
  }

  func elided(_ value: Any, count: Int?) -> InspectorJSON {
    var fields: [(String, InspectorJSON)] = [("$elided", .string(Self.typeName(of: value)))]
    if let count { fields.append(("count", .integer(Int64(count)))) }
    return .object(fields)
  }

  /// The JSON of a value that is its own leaf (a number, string, boolean, date, id), or `nil`.
  static func leaf(_ value: Any) -> InspectorJSON? {
    switch value {
    case let text as String: return .string(text)
    case let flag as Bool: return .bool(flag)
    case let number as Int: return .integer(Int64(number))
    case let number as Int64: return .integer(number)
    case let number as Int32: return .integer(Int64(number))
    case let number as Int16: return .integer(Int64(number))
    case let number as Int8: return .integer(Int64(number))
    case let number as UInt: return .unsigned(UInt64(number))
    case let number as UInt64: return .unsigned(number)
    case let number as UInt32: return .integer(Int64(number))
    case let number as UInt16: return .integer(Int64(number))
    case let number as UInt8: return .integer(Int64(number))
    case let number as Double: return .double(number)
    case let number as Float: return .double(Double(number))
    case let text as Substring: return .string(String(text))
    case let character as Character: return .string(String(character))
    case let date as Date: return .string(date.description)
    case let id as UUID: return .string(id.uuidString)
    case let data as Data: return .string("\(data.count) bytes")
    default: return nil
    }
  }

  /// A dictionary key or element as path text.
  static func keyText(_ key: Any) -> String {
    if let text = key as? String { return String(reflecting: text) }
    return String(describing: key)
  }

  /// The type's name without its module, for elided values.
  static func typeName(of value: Any) -> String {
    String(describing: type(of: value))
  }
}
