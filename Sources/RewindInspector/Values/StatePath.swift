import Rewind

/// A path into a state as the protocol writes it: `list.rows[id=3].cell.offset`, `items[2]`,
/// `settings["theme"]`.
struct StatePath: Equatable {
  /// One step of a path.
  enum Component: Equatable {
    /// A field, an enum case's payload, or a tuple element (`.0`).
    case field(String)
    /// A collection's element, or a dictionary's entry, by the text between the brackets.
    case key(String)
  }

  var components: [Component]

  /// The longest path text accepted, and the most components.
  static var lengthLimit: Int { 1_000 }

  /// Parses `text`; `nil` when it is not a path (an empty text is the whole state).
  init?(_ text: String) {
    guard text.utf8.count <= Self.lengthLimit else { return nil }
    var components: [Component] = []
    var characters = Substring(text)
    while let first = characters.first {
      if first == "[" {
        // A key runs to the matching "]"; a quoted key may hold brackets and escaped quotes.
        var key = ""
        var index = characters.index(after: characters.startIndex)
        var inQuotes = false
        var escaped = false
        var closed = false
        while index < characters.endIndex {
          let character = characters[index]
          index = characters.index(after: index)
          if escaped {
            escaped = false
          } else if character == "\\" && inQuotes {
            escaped = true
          } else if character == "\"" {
            inQuotes.toggle()
          } else if character == "]" && !inQuotes {
            closed = true
            break
          }
          key.append(character)
        }
        guard closed, !key.isEmpty else { return nil }
        components.append(.key(key))
        characters = characters[index...]
      } else {
        if first == "." {
          characters = characters.dropFirst()
          guard !characters.isEmpty else { return nil }
        } else if !components.isEmpty {
          return nil
        }
        let name = characters.prefix { $0 != "." && $0 != "[" }
        guard !name.isEmpty else { return nil }
        components.append(.field(String(name)))
        characters = characters.dropFirst(name.count)
      }
    }
    self.components = components
  }

  /// The value at this path in `root`; `nil` when the path leads nowhere.
  func resolve(in root: Any) -> Any? {
    var current = root
    for component in components {
      guard let next = Self.child(of: current, at: component) else { return nil }
      current = next
    }
    return current
  }

  /// The child of `value` at `component`, looking through optionals.
  static func child(of value: Any, at component: Component) -> Any? {
    let mirror = Mirror(reflecting: value)
    if mirror.displayStyle == .optional {
      guard let wrapped = mirror.children.first?.value else { return nil }
      return child(of: wrapped, at: component)
    }
    switch component {
    case .field(let name):
      if mirror.displayStyle == .enum {
        guard ActionTypeName.caseName(of: value) == name else { return nil }
        return mirror.children.first?.value
      }
      if name.hasPrefix("."), let index = Int(name.dropFirst()), index >= 0, index < mirror.children.count {
        return mirror.children[mirror.children.index(mirror.children.startIndex, offsetBy: index)].value
      }
      return mirror.children.first { $0.label == name }?.value
    case .key(let key):
      if let collection = value as? any InspectableCollection {
        if key.hasPrefix("id=") { return collection.inspectionElement(.id(String(key.dropFirst(3)))) }
        guard let position = Int(key) else { return nil }
        return collection.inspectionElement(.position(position))
      }
      switch mirror.displayStyle {
      case .collection:
        guard let position = Int(key), position >= 0, position < mirror.children.count else { return nil }
        return mirror.children[mirror.children.index(mirror.children.startIndex, offsetBy: position)].value
      case .dictionary, .set:
        return StateDiffer.keyed(mirror).values[key]
      default:
        return nil
      }
    }
  }
}
