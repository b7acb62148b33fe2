/// The identity of an element of a ``StackState``: the value of the stack's counter when it was pushed.
///
/// Ids are never reused within one stack, and because the counter is part of the state, replaying the
/// recorded events gives every element the same id again.
public struct StackElementID: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
  /// The counter value.
  public var rawValue: UInt64

  /// Wraps `rawValue`.
  public init(rawValue: UInt64) { self.rawValue = rawValue }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

  public var description: String { "#\(rawValue)" }
}

/// A navigation stack of screens' states, bottom first, each with a ``StackElementID``.
///
/// ```swift
/// struct State { var path = StackState<Screen.State>() }
/// state.path.push(.detail(Detail.State(mailID: 7)))   // id #0
/// state.path.pop(from: id)                             // that screen and the ones above it
/// ```
///
/// Run the screens' reducer with ``Reducer/navigationStack(_:action:element:)``: a screen's effects are
/// cancelled when it is popped.
public struct StackState<Element> {
  @usableFromInline var entries: [Entry]
  /// The id the next pushed element gets.
  public private(set) var nextID: StackElementID

  @usableFromInline
  struct Entry {
    @usableFromInline var id: StackElementID
    @usableFromInline var element: Element

    @inlinable
    init(id: StackElementID, element: Element) {
      self.id = id
      self.element = element
    }
  }

  /// An empty stack whose first element will get id #0.
  public init() {
    entries = []
    nextID = StackElementID(rawValue: 0)
  }

  /// A stack of `elements` with their ids, bottom first, whose next element gets `nextID`, for decoders;
  /// `nil` unless the ids increase from the bottom and stay below `nextID`.
  @usableFromInline
  package init?(elements: [(id: StackElementID, element: Element)], nextID: StackElementID) {
    for (lower, upper) in zip(elements, elements.dropFirst()) where !(lower.id < upper.id) { return nil }
    if let last = elements.last, !(last.id < nextID) { return nil }
    entries = elements.map { Entry(id: $0.id, element: $0.element) }
    self.nextID = nextID
  }

  /// A stack of `elements`, bottom first, with ids #0, #1, …
  public init(_ elements: some Sequence<Element>) {
    self.init()
    for element in elements { push(element) }
  }

  /// The ids, bottom first.
  public var ids: [StackElementID] { entries.map(\.id) }

  /// The element with `id`; setting `nil` pops it and the elements above it.
  ///
  /// - Complexity: O(depth).
  public subscript(id id: StackElementID) -> Element? {
    get { entries.first { $0.id == id }?.element }
    set {
      guard let index = entries.firstIndex(where: { $0.id == id }) else { return }
      if let newValue {
        entries[index].element = newValue
      } else {
        entries.removeSubrange(index...)
      }
      checkInvariantsIfEnabled()
    }
  }

  /// Whether an element has `id`.
  public func contains(id: StackElementID) -> Bool { entries.contains { $0.id == id } }

  /// The id of the element at `position`.
  public func id(at position: Int) -> StackElementID { entries[position].id }

  /// Pushes `element` on top with the next id.
  /// - Returns: its id.
  @discardableResult
  public mutating func push(_ element: Element) -> StackElementID {
    let id = nextID
    nextID.rawValue += 1
    entries.append(Entry(id: id, element: element))
    checkInvariantsIfEnabled()
    return id
  }

  /// Pops the top element.
  /// - Returns: it, or `nil` when the stack is empty.
  @discardableResult
  public mutating func popLast() -> Element? {
    defer { checkInvariantsIfEnabled() }
    return entries.popLast()?.element
  }

  /// Pops the element with `id` and every element above it.
  /// - Returns: whether `id` was in the stack.
  @discardableResult
  public mutating func pop(from id: StackElementID) -> Bool {
    guard let index = entries.firstIndex(where: { $0.id == id }) else { return false }
    entries.removeSubrange(index...)
    checkInvariantsIfEnabled()
    return true
  }

  /// Pops every element above the one with `id`, which stays on top.
  /// - Returns: whether `id` was in the stack.
  @discardableResult
  public mutating func pop(to id: StackElementID) -> Bool {
    guard let index = entries.firstIndex(where: { $0.id == id }) else { return false }
    entries.removeSubrange((index + 1)...)
    checkInvariantsIfEnabled()
    return true
  }

  /// Pops every element; ids keep counting.
  public mutating func removeAll() {
    entries.removeAll()
    checkInvariantsIfEnabled()
  }
}

extension StackState: RandomAccessCollection {
  public var startIndex: Int { 0 }
  public var endIndex: Int { entries.count }

  /// The element at `position`, bottom first.
  public subscript(position: Int) -> Element { entries[position].element }
}

extension StackState.Entry: Sendable where Element: Sendable {}
extension StackState: Sendable where Element: Sendable {}
extension StackState.Entry: Equatable where Element: Equatable {}
extension StackState: Equatable where Element: Equatable {}
extension StackState.Entry: Hashable where Element: Hashable {}
extension StackState: Hashable where Element: Hashable {}
extension StackState.Entry: Codable where Element: Codable {}

extension StackState: Codable where Element: Codable {
  private enum CodingKeys: String, CodingKey { case entries, nextID }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let entries = try container.decode([Entry].self, forKey: .entries)
    let nextID = try container.decode(StackElementID.self, forKey: .nextID)
    for (lower, upper) in zip(entries, entries.dropFirst()) where !(lower.id < upper.id) {
      throw DecodingError.dataCorruptedError(
        forKey: .entries, in: container,
        debugDescription: "stack ids must increase from the bottom: \(lower.id) is below \(upper.id)")
    }
    if let last = entries.last, !(last.id < nextID) {
      throw DecodingError.dataCorruptedError(
        forKey: .nextID, in: container, debugDescription: "next id \(nextID) is not past the top's \(last.id)"
      )
    }
    self.entries = entries
    self.nextID = nextID
    checkInvariantsIfEnabled()
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(entries, forKey: .entries)
    try container.encode(nextID, forKey: .nextID)
  }
}

extension StackState: CustomStringConvertible {
  public var description: String {
    "StackState(" + entries.map { "\($0.id): \($0.element)" }.joined(separator: ", ") + ")"
  }
}
