import Foundation

/// A value a reducer drew from a recorded dependency while it applied an event's action: a UUID, a date
/// or a random number, kept with the event so that every replay of it draws the same value.
///
/// A reducer draws through ``DependencyValues/uuid``, ``DependencyValues/date`` and
/// ``DependencyValues/random`` (see Docs/Effects.md, "Recorded dependencies"); the store records what it
/// drew in ``Event/draws``, in order, and a replay hands the same values back.
public enum RecordedDraw: Sendable, Hashable, CustomStringConvertible {
  /// A UUID from ``DependencyValues/uuid``.
  case uuid(UUID)
  /// A date from ``DependencyValues/date``.
  case date(Date)
  /// 64 random bits from ``DependencyValues/random``.
  case random(UInt64)

  /// The dependency a value comes from.
  public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
    /// ``DependencyValues/uuid``.
    case uuid
    /// ``DependencyValues/date``.
    case date
    /// ``DependencyValues/random``.
    case random
  }

  /// The dependency this value comes from.
  public var kind: Kind {
    switch self {
    case .uuid: .uuid
    case .date: .date
    case .random: .random
    }
  }

  public var description: String {
    switch self {
    case .uuid(let uuid): "uuid \(uuid.uuidString)"
    case .date(let date): "date \(date.timeIntervalSinceReferenceDate)"
    case .random(let bits): "random \(bits)"
    }
  }
}

extension RecordedDraw: Codable {
  private enum CodingKeys: String, CodingKey {
    case uuid, date, random
  }

  /// Decodes the one-key form ``encode(to:)`` writes.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    guard container.allKeys.count == 1, let key = container.allKeys.first else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: container.codingPath, debugDescription: "a draw has exactly one of uuid, date, random"))
    }
    switch key {
    case .uuid: self = .uuid(try container.decode(UUID.self, forKey: .uuid))
    case .date: self = .date(try container.decode(Date.self, forKey: .date))
    case .random: self = .random(try container.decode(UInt64.self, forKey: .random))
    }
  }

  /// Encodes the value under its kind: `{"uuid": "…"}`, `{"date": 1.5}`, `{"random": 42}`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .uuid(let uuid): try container.encode(uuid, forKey: .uuid)
    case .date(let date): try container.encode(date, forKey: .date)
    case .random(let bits): try container.encode(bits, forKey: .random)
    }
  }
}
