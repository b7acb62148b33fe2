import Rewind

/// Finds the changes between two versions of a state, by path, stepping over what they share.
///
/// At every level a value identical to its old version (the same storage, or equal by `Equatable`) is
/// skipped whole, so the work follows what changed, not the size of the state; a persistent collection is
/// diffed through its trees (``InspectableCollection``), so a one-row edit of a million rows costs
/// O(log n). Values are described by reflection (see ``ValueRenderer``), each at most about 256 characters.
struct StateDiffer {
  /// The most changes listed for one event.
  var limit = 1_000
  /// The most characters of JSON a changed value is sent with; a longer one is elided.
  var valueLimit = 256
  /// How deep paths are followed; below, a change is reported at the deepest path.
  var depthLimit = 32
  let renderer = ValueRenderer(depthLimit: 4, childLimit: 20)

  private(set) var changes: [StateChange] = []
  /// Changes found past ``limit``.
  private(set) var omitted = 0

  /// The changes that turn `old` into `new`.
  static func changes(from old: Any, to new: Any, limit: Int = 1_000) -> (
    changes: [StateChange], omitted: Int
  ) {
    var differ = StateDiffer(limit: limit)
    differ.diff(old, new, path: "", depth: 0)
    return (differ.changes, differ.omitted)
  }

  mutating func record(_ operation: StateChange.Operation, _ path: String, old: Any?, new: Any?) {
    guard changes.count < limit else {
      omitted += 1
      return
    }
    changes.append(
      StateChange(
        operation: operation, path: path.isEmpty ? "(state)" : path, old: old.map(describe),
        new: new.map(describe)))
  }

  /// A value as JSON, elided past ``valueLimit`` characters.
  func describe(_ value: Any) -> InspectorJSON {
    let json = renderer.json(value)
    if case .string(let text) = json, text.utf8.count > valueLimit {
      return .string(String(text.prefix(valueLimit)) + "…")
    }
    let size = json.bytes.count
    guard size > valueLimit else { return json }
    return .object([("$elided", .string(ValueRenderer.typeName(of: value))), ("size", .integer(Int64(size)))])
  }

  static func join(_ path: String, _ label: String) -> String { path.isEmpty ? label : path + "." + label }

  mutating func diff(_ old: Any, _ new: Any, path: String, depth: Int) {
    // A persistent collection answers for itself, stepping over what the two versions share; comparing it
    // with `==` first would walk the same trees once more.
    if let collection = new as? any InspectableCollection {
      guard depth < depthLimit, changes.count < limit else {
        if !inspectionUnchanged(old, new) { record(.set, path, old: old, new: new) }
        return
      }
      if let found = collection.inspectionChanges(from: old, limit: limit - changes.count) {
        record(found, at: path, depth: depth)
        return
      }
    }
    if inspectionUnchanged(old, new) { return }
    guard depth < depthLimit, changes.count < limit else {
      record(.set, path, old: old, new: new)
      return
    }
    diffByReflection(old, new, path: path, depth: depth)
  }

  /// Records a collection's element changes, diffing each changed element further.
  mutating func record(_ found: InspectionCollectionChanges, at path: String, depth: Int) {
    for change in found.changes {
      let elementPath = path + change.key.pathComponent
      switch (change.old, change.new) {
      case (let before?, let after?): diff(before, after, path: elementPath, depth: depth + 1)
      case (nil, let after?): record(.insert, elementPath, old: nil, new: after)
      case (let before?, nil): record(.remove, elementPath, old: before, new: nil)
      case (nil, nil): break
      }
    }
    omitted += found.omitted
    if found.reordered { record(.move, path, old: nil, new: nil) }
  }

  /// The changes between two values of another kind than a persistent collection, found by reflection.
  mutating func diffByReflection(_ old: Any, _ new: Any, path: String, depth: Int) {
    let oldMirror = Mirror(reflecting: old)
    let newMirror = Mirror(reflecting: new)
    guard oldMirror.displayStyle == newMirror.displayStyle, type(of: old) == type(of: new) else {
      record(.set, path, old: old, new: new)
      return
    }
    switch newMirror.displayStyle {
    case .optional:
      if let before = oldMirror.children.first?.value, let after = newMirror.children.first?.value {
        diff(before, after, path: path, depth: depth + 1)
      } else {
        record(.set, path, old: old, new: new)
      }
    case .enum:
      let oldCase = ActionTypeName.caseName(of: old)
      let newCase = ActionTypeName.caseName(of: new)
      guard oldCase == newCase, let before = oldMirror.children.first?.value,
        let after = newMirror.children.first?.value
      else {
        record(.set, path, old: old, new: new)
        return
      }
      diff(before, after, path: Self.join(path, newCase ?? "case"), depth: depth + 1)
    case .struct, .class, .tuple:
      // Values of one type have the same fields: walked in step, without copying the children out.
      guard !newMirror.children.isEmpty else {
        record(.set, path, old: old, new: new)
        return
      }
      for (index, (a, b)) in zip(oldMirror.children, newMirror.children).enumerated() {
        diff(a.value, b.value, path: Self.join(path, b.label ?? "\(index)"), depth: depth + 1)
      }
    case .collection:
      let before = Array(oldMirror.children)
      let after = Array(newMirror.children)
      for index in 0..<max(before.count, after.count) {
        let elementPath = path + "[\(index)]"
        if index < before.count, index < after.count {
          diff(before[index].value, after[index].value, path: elementPath, depth: depth + 1)
        } else if index < after.count {
          record(.insert, elementPath, old: nil, new: after[index].value)
        } else {
          record(.remove, elementPath, old: before[index].value, new: nil)
        }
      }
    case .dictionary, .set:
      let before = Self.keyed(oldMirror)
      let after = Self.keyed(newMirror)
      for (key, value) in after.entries {
        let entryPath = path + "[\(key)]"
        if let previous = before.values[key] {
          diff(previous, value, path: entryPath, depth: depth + 1)
        } else {
          record(.insert, entryPath, old: nil, new: value)
        }
      }
      for (key, value) in before.entries where after.values[key] == nil {
        record(.remove, path + "[\(key)]", old: value, new: nil)
      }
    default:
      record(.set, path, old: old, new: new)
    }
  }

  /// A dictionary's entries (or a set's elements) by their key's text, in the mirror's order.
  static func keyed(_ mirror: Mirror) -> (entries: [(String, Any)], values: [String: Any]) {
    var entries: [(String, Any)] = []
    var values: [String: Any] = [:]
    for child in mirror.children {
      let entry: (String, Any)
      if mirror.displayStyle == .dictionary {
        let pair = Array(Mirror(reflecting: child.value).children)
        guard pair.count == 2 else { continue }
        entry = (ValueRenderer.keyText(pair[0].value), pair[1].value)
      } else {
        entry = (ValueRenderer.keyText(child.value), child.value)
      }
      entries.append(entry)
      values[entry.0] = entry.1
    }
    return (entries, values)
  }
}
