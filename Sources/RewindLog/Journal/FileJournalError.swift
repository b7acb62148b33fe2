/// Why a file journal could not be opened, read or written. Each case names what and where.
public enum FileJournalError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Another journal (in this or another process) has the directory open for writing.
  case locked(directory: String)
  /// A write or sync failed earlier; the journal acknowledges nothing more until it is reopened.
  case durabilityLost(IOError)
  /// The journal was closed.
  case closed
  /// Durability or progress was asked of event `sequence`, which the journal never took: it holds events
  /// through `lastAppended` only.
  case notAppended(sequence: UInt64, lastAppended: UInt64)
  /// A file operation failed while opening, reading or repairing.
  case io(IOError)
  /// A frame or segment header is damaged somewhere other than an incomplete tail.
  case corrupted(segment: String, offset: UInt64, lastGoodSequence: UInt64, reason: String)
  /// A frame whose checksum is valid but whose chain value is not: the log was modified, not torn.
  case tampered(segment: String, offset: UInt64, lastGoodSequence: UInt64)
  /// An event that frames correctly but cannot be decoded as the app's action type.
  case undecodableEvent(sequence: UInt64, typeName: String, schemaVersion: UInt64, reason: String)
  /// An encoded event larger than a frame may hold.
  case eventTooLarge(sequence: UInt64, bytes: Int)
  /// An event that cannot be encoded.
  case unencodableEvent(sequence: UInt64, reason: String)
  /// The log's chain is keyed (HMAC-SHA-256) but no ``ChainKey`` was given.
  case keyRequired(segment: String)
  /// The given ``ChainKey`` is not the one the log was written with (or the header's key check was altered).
  case wrongKey(segment: String)
  /// A ``ChainKey`` was given but the log's chain is not keyed: its frames are not authenticated.
  case notKeyed(segment: String)
  /// An event whose type the app's action type does not know, even after upcasting.
  case unknownEventType(String, schemaVersion: UInt64, at: EventLocation, reason: String)
  /// An event written with a schema version that no chain of registered upcasters leads from to the
  /// version the app reads (`missingStep` is the version that has no upcaster for this type).
  case noUpcastPath(String, from: UInt64, to: UInt64, missingStep: UInt64, at: EventLocation)
  /// An upcaster threw while converting an event.
  case upcastFailed(String, schemaVersion: UInt64, at: EventLocation, reason: String)

  public var description: String {
    switch self {
    case .locked(let directory): "the log at \(directory) is already open for writing"
    case .durabilityLost(let error): "durability lost: \(error); reopen the journal to recover"
    case .closed: "the journal is closed"
    case .notAppended(let sequence, let last):
      "event \(sequence) was never appended to the journal, which holds events through \(last); it is not durable"
    case .io(let error): String(describing: error)
    case .corrupted(let segment, let offset, let last, let reason):
      "corrupted log: \(reason) in \(segment) at byte \(offset); last good event is \(last)"
    case .tampered(let segment, let offset, let last):
      "tampered log: frame in \(segment) at byte \(offset) has a valid checksum but a wrong chain value; last good event is \(last)"
    case .undecodableEvent(let sequence, let typeName, let version, let reason):
      "event \(sequence) (\(typeName) v\(version)) cannot be decoded: \(reason)"
    case .eventTooLarge(let sequence, let bytes):
      "event \(sequence) encodes to \(bytes) bytes, more than a frame holds"
    case .unencodableEvent(let sequence, let reason): "event \(sequence) cannot be encoded: \(reason)"
    case .keyRequired(let segment):
      "the log is keyed (segment \(segment)); open or verify it with its chain key"
    case .wrongKey(let segment):
      "the chain key does not match the key the log was written with (segment \(segment))"
    case .notKeyed(let segment):
      "a chain key was given but the log is not keyed (segment \(segment)); its chain is plain SHA-256"
    case .unknownEventType(let name, let version, let location, let reason):
      "unknown event type \"\(name)\" (schema version \(version)) at \(location): \(reason)"
    case .noUpcastPath(let name, let from, let to, let missing, let location):
      from > to
        ? "event type \"\(name)\" at \(location) was written with schema version \(from), newer than version \(to) that this app reads"
        : "no upcaster for event type \"\(name)\" from schema version \(missing) (the event is v\(from), the app reads v\(to)) at \(location)"
    case .upcastFailed(let name, let version, let location, let reason):
      "upcasting event type \"\(name)\" from schema version \(version) failed at \(location): \(reason)"
    }
  }
}

/// Where an event is in a log: its sequence number, its segment file and the byte offset of its frame.
public struct EventLocation: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The event's sequence number.
  public var sequence: UInt64
  /// The segment file's name.
  public var segment: String
  /// The byte offset of the frame that holds the event.
  public var offset: UInt64

  /// Creates a location.
  public init(sequence: UInt64, segment: String, offset: UInt64) {
    self.sequence = sequence
    self.segment = segment
    self.offset = offset
  }

  public var description: String { "event \(sequence) (\(segment), frame at byte \(offset))" }
}
