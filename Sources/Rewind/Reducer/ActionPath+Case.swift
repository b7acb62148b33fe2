extension ActionPath {
  /// The path to an enum case, made from the case alone: embedding calls the case, extracting reflects on
  /// the enum.
  ///
  /// ```swift
  /// enum AppAction { case counter(Counter.Action), settings(Settings.Action), refresh }
  ///
  /// Scope(state: \.counter, action: ActionPath(AppAction.counter)) { Counter() }
  /// Scope(state: \.counter, action: .case(AppAction.counter)) { Counter() }   // the same
  /// ```
  ///
  /// `embed` must be the case itself (`AppAction.counter`), not a closure that does more: extraction
  /// returns a payload only when embedding it again gives a value of the same case, so that two cases
  /// with the same payload type (`case add(String), rename(String)`) never match each other. Cases with
  /// labeled values (`case select(id: Int)`), several values (`case move(from: Int, to: Int)`, as a tuple
  /// `(Int, Int)`), indirect cases, generic and nested enums all work.
  ///
  /// Cost: the first value of each case is reflected with `Mirror` once per process; after that, finding
  /// a value's case is a call to the enum's `getEnumTag` value witness and an atomic load, and reading a
  /// payload stored in place is a copy. Payloads that are not stored as themselves (indirect cases,
  /// existentials, classes) are read with `Mirror` each time a value of their case is extracted, which
  /// costs microseconds. A hand-written path (``init(embed:extract:)``) stays the cheapest: prefer it for the
  /// actions a hot path sends thousands of times a second (see Docs/Performance.md, `dispatch/scoped-*`).
  ///
  /// - Parameter embed: the enum case, as a function from its payload to the enum.
  /// - Precondition: `Root` is an enum.
  @inlinable
  public init(_ embed: @escaping @Sendable (Value) -> Root) {
    guard let cases = EnumCases.of(Root.self) else {
      preconditionFailure("ActionPath(_:) reads enum cases, and \(Root.self) is not an enum")
    }
    let valueType = unsafe UInt(bitPattern: EnumCases.metadata(of: Value.self))
    self.init(
      embed: embed,
      extract: { root in
        let tag = cases.tag(of: root)
        let slot = cases.slot(tag, of: root)
        let value: Value?
        switch slot & EnumCases.Slot.modeMask {
        case EnumCases.Slot.inPlace:
          let payloadType = slot & ~EnumCases.Slot.modeMask
          guard payloadType == valueType || EnumCases.sameTupleLayout(payloadType, valueType) else {
            return nil
          }
          value = cases.readInPlace(root, tag: tag, as: Value.self)
        case EnumCases.Slot.reflected:
          value = EnumCases.reflectPayload(root, as: Value.self)
        default:
          return nil
        }
        // The payload fits; it is this path's case only if embedding it gives the same case again.
        guard let value, cases.tag(of: embed(value)) == tag else { return nil }
        return value
      })
  }

  /// The path to an enum case, made from the case alone: `.case(AppAction.counter)`. See ``init(_:)``.
  @inlinable
  public static func `case`(_ embed: @escaping @Sendable (Value) -> Root) -> ActionPath {
    ActionPath(embed)
  }
}
