/// Why a file journal could not be opened, read or written. Each case names what and where.
public enum FileJournalError: Error, Sendable, CustomStringConvertible {
  /// Another journal (in this or another process) has the directory open for writing.
  case locked(directory: String)
  /// A write or sync failed earlier; the journal acknowledges nothing more until it is reopened.
  case durabilityLost(IOError)
  /// The journal was closed.
  case closed
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

  public var description: String {
    switch self {
    case .locked(let directory): "the log at \(directory) is already open for writing"
    case .durabilityLost(let error): "durability lost: \(error); reopen the journal to recover"
    case .closed: "the journal is closed"
    case .io(let error): String(describing: error)
    case .corrupted(let segment, let offset, let last, let reason):
      "corrupted log: \(reason) in \(segment) at byte \(offset); last good event is \(last)"
    case .tampered(let segment, let offset, let last):
      "tampered log: frame in \(segment) at byte \(offset) has a valid checksum but a wrong chain value; last good event is \(last)"
    case .undecodableEvent(let sequence, let typeName, let version, let reason):
      "event \(sequence) (\(typeName) v\(version)) cannot be decoded: \(reason)"
    case .eventTooLarge(let sequence, let bytes): "event \(sequence) encodes to \(bytes) bytes, more than a frame holds"
    case .unencodableEvent(let sequence, let reason): "event \(sequence) cannot be encoded: \(reason)"
    }
  }
}
