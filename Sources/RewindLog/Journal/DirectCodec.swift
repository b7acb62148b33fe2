/// The encode and decode functions of an action type that is ``BinaryCodable``, found once per journal so
/// that appending and replaying need no conformance lookup per event.
/// The closures capture nothing but a metatype and keep no state, so sharing them across threads is safe.
@usableFromInline
struct DirectCodec<Action>: @unchecked Sendable {
  /// Writes `action`; false if it is not of the type the codec was made for (it always is).
  let encode: (Action, inout BinaryWriter) -> Bool
  @usableFromInline let decode: (inout BinaryReader) throws -> Action?

  /// The codec of `Action`, when it conforms.
  static func make() -> DirectCodec? {
    guard let type = Action.self as? any BinaryCodable.Type else { return nil }
    return make(type)
  }

  private static func make<T: BinaryCodable>(_ type: T.Type) -> DirectCodec {
    DirectCodec(
      encode: { action, writer in
        guard let value = action as? T else { return false }
        value.encode(to: &writer)
        return true
      },
      decode: { reader in try T(from: &reader) as? Action })
  }
}
