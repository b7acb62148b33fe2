import Foundation

extension SnapshotFile {
  /// The bytes of `state` in a snapshot of `codec`, and whether they were written by its
  /// ``BinaryCodable`` conformance: binary snapshots of a state that has one are (format version 3), so
  /// that an open reads them back without `Codable`, a window at a time.
  static func encode<State: Encodable>(_ state: State, codec: EventCodec) throws -> (
    bytes: [UInt8], binaryCodable: Bool
  ) {
    switch codec {
    case .binary:
      if let binary = state as? any BinaryCodable { return (binary.binaryEncoded, true) }
      return (try BinaryEncoder().encode(state), false)
    case .json:
      return (Array(try JSONEncoder().encode(state)), false)
    }
  }

  /// The state of this snapshot as a `State`, or why it cannot be used.
  ///
  /// A version 3 state written by `State`'s ``BinaryCodable`` conformance is decoded as it is read from
  /// `path`, a window at a time; any other is read into one buffer, then decoded through `Codable`.
  /// Either way its checksum is checked once it has been read, and a state whose checksum does not match
  /// is `damaged`, whatever its decoding gave.
  func decodeState<State: Decodable>(_ type: State.Type, path: String, fileSystem: any LogFileSystem)
    -> Result<State, SnapshotRejection.Reason>
  {
    guard let range = stateRange else { return Self.decode(type, from: state, codec: codec) }
    let file: any LogFile
    do { file = try fileSystem.openForReading(path) } catch { return .failure(.damaged("\(error)")) }
    defer { file.close() }
    let source = SnapshotStateReader(file: file, path: path, range: range)
    let decoded: Result<State, SnapshotRejection.Reason>
    if isBinaryCodable, codec == .binary, let binary = State.self as? any BinaryCodable.Type {
      var reader = BinaryReader(streaming: source)
      do {
        guard let state = try Self.decodeWhole(binary, from: &reader) as? State else {
          return .failure(.undecodable("the state decoded as another type"))
        }
        decoded = .success(state)
      } catch {
        decoded = .failure(.undecodable("\(error)"))
      }
    } else {
      decoded = Self.decode(type, from: source.readRest(), codec: codec)
    }
    // Damage is reported as damage, even when it made the decoding fail.
    do {
      if let damage = try source.damage() { return .failure(damage) }
    } catch {
      return .failure(.damaged("\(error)"))
    }
    return decoded
  }

  /// A `T` read through its ``BinaryCodable`` conformance, spanning everything `reader` holds.
  private static func decodeWhole<T: BinaryCodable>(_ type: T.Type, from reader: inout BinaryReader) throws
    -> T
  {
    let value = try reader.decode(T.self)
    guard reader.isAtEnd else { throw BinaryCodecError.trailingBytes(offset: reader.position) }
    return value
  }

  /// A `State` decoded through `Codable` from `bytes` of `codec`.
  private static func decode<State: Decodable>(_ type: State.Type, from bytes: [UInt8], codec: EventCodec)
    -> Result<State, SnapshotRejection.Reason>
  {
    do {
      switch codec {
      case .binary: return .success(try BinaryDecoder().decode(State.self, from: bytes))
      case .json: return .success(try JSONDecoder().decode(State.self, from: Data(bytes)))
      }
    } catch {
      return .failure(.undecodable("\(error)"))
    }
  }
}
