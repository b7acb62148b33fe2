/// The identity of one presentation of a child: the number of presentations before it in its
/// ``PresentationState``, so replaying the recorded events gives the same ids.
public struct PresentationID: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The count.
  public var rawValue: UInt64

  /// Wraps `rawValue`.
  public init(rawValue: UInt64) { self.rawValue = rawValue }

  public var description: String { "presentation #\(rawValue)" }
}

/// Optional state of a presented child (a sheet, a popover, an alert) that knows each presentation apart.
///
/// ```swift
/// struct State { var compose = PresentationState<Compose.State>() }
/// state.compose.present(Compose.State())   // presentation #0
/// state.compose.dismiss()
/// ```
///
/// Run the child's reducer with ``Reducer/presentation(_:action:child:)``: the child's effects are
/// cancelled when it is dismissed or replaced by another presentation.
public struct PresentationState<Child> {
  /// The presented child's state, or `nil`.
  ///
  /// Setting a value while nothing is presented presents it (a new ``id``); setting one while something is
  /// presented changes that presentation; setting `nil` dismisses.
  public var presented: Child? {
    get { current?.child }
    set {
      guard let newValue else { return dismiss() }
      if current != nil {
        current?.child = newValue
      } else {
        present(newValue)
      }
    }
  }

  /// The id of the current presentation, or `nil` when nothing is presented.
  public var id: PresentationID? { current?.id }

  /// How many presentations there have been: the id of the next one.
  public private(set) var presentationCount: UInt64

  @usableFromInline var current: (id: PresentationID, child: Child)?

  /// Nothing presented.
  public init() {
    presentationCount = 0
    current = nil
  }

  /// The state after `presentationCount` presentations, `presented` the current one, for decoders; `nil`
  /// when the current presentation's id is not below the count.
  @usableFromInline
  package init?(presentationCount: UInt64, presented: (id: PresentationID, child: Child)?) {
    if let presented, presented.id.rawValue >= presentationCount { return nil }
    self.presentationCount = presentationCount
    current = presented
  }

  /// `child` presented, as the first presentation.
  public init(presenting child: Child) {
    self.init()
    present(child)
  }

  /// Whether something is presented.
  public var isPresented: Bool { current != nil }

  /// Presents `child`, replacing (and so ending) any current presentation.
  /// - Returns: the new presentation's id.
  @discardableResult
  public mutating func present(_ child: Child) -> PresentationID {
    let id = PresentationID(rawValue: presentationCount)
    presentationCount += 1
    current = (id, child)
    return id
  }

  /// Dismisses the current presentation, if any.
  public mutating func dismiss() { current = nil }
}

extension PresentationState: Sendable where Child: Sendable {}

extension PresentationState: Equatable where Child: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.presentationCount == rhs.presentationCount && lhs.current?.id == rhs.current?.id
      && lhs.current?.child == rhs.current?.child
  }
}

extension PresentationState: Hashable where Child: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(presentationCount)
    hasher.combine(current?.id)
    hasher.combine(current?.child)
  }
}

extension PresentationState: Codable where Child: Codable {
  private enum CodingKeys: String, CodingKey { case presentationCount, id, presented }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    presentationCount = try container.decode(UInt64.self, forKey: .presentationCount)
    let id = try container.decodeIfPresent(PresentationID.self, forKey: .id)
    let child = try container.decodeIfPresent(Child.self, forKey: .presented)
    switch (id, child) {
    case (nil, nil):
      current = nil
    case (let id?, let child?) where id.rawValue < presentationCount:
      current = (id, child)
    default:
      throw DecodingError.dataCorruptedError(
        forKey: .id, in: container,
        debugDescription: "a presentation needs both an id below \(presentationCount) and a state, or neither"
      )
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(presentationCount, forKey: .presentationCount)
    try container.encodeIfPresent(current?.id, forKey: .id)
    try container.encodeIfPresent(current?.child, forKey: .presented)
  }
}

extension PresentationState: CustomStringConvertible {
  public var description: String {
    current.map { "PresentationState(\($0.id): \($0.child))" } ?? "PresentationState(nil)"
  }
}

/// An action of a presented child: for the child, or to dismiss it.
public enum PresentationAction<ChildAction: Sendable>: Sendable {
  /// `action` for the presented child.
  case presented(ChildAction)
  /// Dismisses the child (say, the sheet was swiped away).
  case dismiss
}

extension PresentationAction: Equatable where ChildAction: Equatable {}
extension PresentationAction: Hashable where ChildAction: Hashable {}
extension PresentationAction: Codable where ChildAction: Codable {}

extension ActionPath {
  /// The path from a presentation action to the presented child's action.
  ///
  /// ```swift
  /// await store.receive(AppAction.composePath.appending(.presented()), .sent)
  /// ```
  public static func presented() -> ActionPath where Root == PresentationAction<Value> {
    ActionPath(
      embed: { .presented($0) },
      extract: { if case .presented(let action) = $0 { action } else { nil } })
  }
}
