// The containers of `CanonicalEncoder`: each write digests the value written (a scalar at once, anything
// else through its own encoding) and hands the digest to the encoder.

extension CanonicalEncoder {
  struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: CanonicalEncoder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws { encoder.addField(key, .value(CanonicalValue.null())) }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
      encoder.addField(key, .value(CanonicalValue.bool(value)))
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
      encoder.addField(key, .value(CanonicalValue.string(value)))
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
      encoder.addField(key, .value(CanonicalValue.float(value)))
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
      encoder.addField(key, .value(CanonicalValue.float(Double(value))))
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { try encodeSigned(Int64(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try encodeSigned(Int64(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try encodeSigned(Int64(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try encodeSigned(Int64(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try encodeSigned(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try encodeUnsigned(UInt64(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try encodeUnsigned(UInt64(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try encodeUnsigned(UInt64(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try encodeUnsigned(UInt64(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try encodeUnsigned(value, key) }
    mutating func encode(_ value: Int128, forKey key: Key) throws {
      encoder.addField(key, .value(CanonicalValue.wideInteger(value)))
    }
    mutating func encode(_ value: UInt128, forKey key: Key) throws {
      encoder.addField(
        key, .value(CanonicalValue.wideInteger(value)))
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
      encoder.addField(key, .value(try CanonicalEncoder.fingerprint(of: value)))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
      -> KeyedEncodingContainer<NestedKey>
    {
      encoder.nestedField(key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
      encoder.nestedField(key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { encoder.nestedField(SuperKey.super) }

    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder.nestedField(key) }

    private func encodeSigned(_ value: Int64, _ key: Key) throws {
      encoder.addField(key, .value(CanonicalValue.integer(value)))
    }

    private func encodeUnsigned(_ value: UInt64, _ key: Key) throws {
      encoder.addField(key, .value(CanonicalValue.integer(value)))
    }
  }

  /// The key `superEncoder()` writes under, as `JSONEncoder` names it.
  enum SuperKey: String, CodingKey {
    case `super`
  }

  struct UnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: CanonicalEncoder
    private(set) var count = 0
    var codingPath: [any CodingKey] { [] }

    init(encoder: CanonicalEncoder) { self.encoder = encoder }

    private mutating func add(_ fingerprint: StateFingerprint) {
      encoder.addElement(.value(fingerprint))
      count += 1
    }

    mutating func encodeNil() throws { add(CanonicalValue.null()) }
    mutating func encode(_ value: Bool) throws { add(CanonicalValue.bool(value)) }
    mutating func encode(_ value: String) throws { add(CanonicalValue.string(value)) }
    mutating func encode(_ value: Double) throws { add(CanonicalValue.float(value)) }
    mutating func encode(_ value: Float) throws { add(CanonicalValue.float(Double(value))) }
    mutating func encode(_ value: Int) throws { add(CanonicalValue.integer(Int64(value))) }
    mutating func encode(_ value: Int8) throws { add(CanonicalValue.integer(Int64(value))) }
    mutating func encode(_ value: Int16) throws { add(CanonicalValue.integer(Int64(value))) }
    mutating func encode(_ value: Int32) throws { add(CanonicalValue.integer(Int64(value))) }
    mutating func encode(_ value: Int64) throws { add(CanonicalValue.integer(value)) }
    mutating func encode(_ value: UInt) throws { add(CanonicalValue.integer(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { add(CanonicalValue.integer(UInt64(value))) }
    mutating func encode(_ value: UInt16) throws { add(CanonicalValue.integer(UInt64(value))) }
    mutating func encode(_ value: UInt32) throws { add(CanonicalValue.integer(UInt64(value))) }
    mutating func encode(_ value: UInt64) throws { add(CanonicalValue.integer(value)) }
    mutating func encode(_ value: Int128) throws {
      add(CanonicalValue.wideInteger(value))
    }
    mutating func encode(_ value: UInt128) throws {
      add(CanonicalValue.wideInteger(value))
    }
    mutating func encode<T: Encodable>(_ value: T) throws {
      add(try CanonicalEncoder.fingerprint(of: value))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
      -> KeyedEncodingContainer<NestedKey>
    {
      count += 1
      return encoder.nestedElement().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
      count += 1
      return encoder.nestedElement().unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
      count += 1
      return encoder.nestedElement()
    }
  }

  struct SingleValueContainer: SingleValueEncodingContainer {
    let encoder: CanonicalEncoder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws { encoder.setSingle(CanonicalValue.null()) }
    mutating func encode(_ value: Bool) throws { encoder.setSingle(CanonicalValue.bool(value)) }
    mutating func encode(_ value: String) throws { encoder.setSingle(CanonicalValue.string(value)) }
    mutating func encode(_ value: Double) throws { encoder.setSingle(CanonicalValue.float(value)) }
    mutating func encode(_ value: Float) throws { encoder.setSingle(CanonicalValue.float(Double(value))) }
    mutating func encode(_ value: Int) throws { encoder.setSingle(CanonicalValue.integer(Int64(value))) }
    mutating func encode(_ value: Int8) throws { encoder.setSingle(CanonicalValue.integer(Int64(value))) }
    mutating func encode(_ value: Int16) throws { encoder.setSingle(CanonicalValue.integer(Int64(value))) }
    mutating func encode(_ value: Int32) throws { encoder.setSingle(CanonicalValue.integer(Int64(value))) }
    mutating func encode(_ value: Int64) throws { encoder.setSingle(CanonicalValue.integer(value)) }
    mutating func encode(_ value: UInt) throws { encoder.setSingle(CanonicalValue.integer(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { encoder.setSingle(CanonicalValue.integer(UInt64(value))) }
    mutating func encode(_ value: UInt16) throws { encoder.setSingle(CanonicalValue.integer(UInt64(value))) }
    mutating func encode(_ value: UInt32) throws { encoder.setSingle(CanonicalValue.integer(UInt64(value))) }
    mutating func encode(_ value: UInt64) throws { encoder.setSingle(CanonicalValue.integer(value)) }
    mutating func encode(_ value: Int128) throws {
      encoder.setSingle(CanonicalValue.wideInteger(value))
    }
    mutating func encode(_ value: UInt128) throws {
      encoder.setSingle(CanonicalValue.wideInteger(value))
    }
    mutating func encode<T: Encodable>(_ value: T) throws {
      encoder.setSingle(try CanonicalEncoder.fingerprint(of: value))
    }
  }
}
