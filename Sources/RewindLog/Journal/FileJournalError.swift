/// Why a file journal could not be opened, read or written: a ``Code`` that says what went wrong, the
/// place in the log it is about (``location``, given one way for every error), the underlying file
/// error when one caused it, and a ``description`` that names what and where.
///
/// ```swift
/// do {
///   let journal = try FileJournal<Action>(directory: path)
/// } catch let error as FileJournalError where error.code == .tampered {
///   print("refusing a modified log:", error.location?.segment ?? "?")
/// }
/// ```
public struct FileJournalError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What kind of failure.
  public var code: Code
  /// What went wrong, naming what and where: the error's ``description``.
  public var message: String
  /// The place in the log the error is about (segment, byte offset, event), as far as it is known.
  public var location: LogLocation?
  /// For damage (``Code/corrupted``, ``Code/tampered``): the newest event before it, which a repair keeps.
  public var lastGoodSequence: UInt64?
  /// For decoding, upcasting and encoding errors: the event's recorded type name.
  public var eventType: String?
  /// For decoding and upcasting errors: the schema version the event was written with.
  public var schemaVersion: UInt64?
  /// The file operation whose failure caused this one (``Code/io``, ``Code/durabilityLost``).
  public var underlying: IOError?

  public var description: String { message }

  init(
    _ code: Code, _ message: String, location: LogLocation? = nil, lastGoodSequence: UInt64? = nil,
    eventType: String? = nil, schemaVersion: UInt64? = nil, underlying: IOError? = nil
  ) {
    self.code = code
    self.message = message
    self.location = location
    self.lastGoodSequence = lastGoodSequence
    self.eventType = eventType
    self.schemaVersion = schemaVersion
    self.underlying = underlying
  }

  /// The kinds of ``FileJournalError``.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    /// The code's name, e.g. "tampered".
    public let name: String
    public var description: String { name }

    /// Another journal (in this or another process) has the directory open for writing.
    public static let locked = Code(name: "locked")
    /// A write or sync failed earlier; the journal acknowledges nothing more until it is reopened.
    public static let durabilityLost = Code(name: "durabilityLost")
    /// The journal was closed.
    public static let closed = Code(name: "closed")
    /// Durability or progress was asked of an event the journal never took.
    public static let notAppended = Code(name: "notAppended")
    /// A file operation failed while opening, reading or repairing.
    public static let io = Code(name: "io")
    /// A frame, segment header or cut record is damaged somewhere other than an incomplete tail.
    public static let corrupted = Code(name: "corrupted")
    /// A frame whose checksum is valid but whose chain value is not: the log was modified, not torn.
    public static let tampered = Code(name: "tampered")
    /// An event that frames correctly but cannot be decoded as the app's action type.
    public static let undecodableEvent = Code(name: "undecodableEvent")
    /// An encoded event larger than a frame may hold.
    public static let eventTooLarge = Code(name: "eventTooLarge")
    /// An event that cannot be encoded.
    public static let unencodableEvent = Code(name: "unencodableEvent")
    /// The log's chain is keyed (HMAC-SHA-256) but no ``ChainKey`` was given.
    public static let keyRequired = Code(name: "keyRequired")
    /// The given ``ChainKey`` is not the one the log was written with (or the header's key check was altered).
    public static let wrongKey = Code(name: "wrongKey")
    /// A ``ChainKey`` was given but the log's chain is not keyed: its frames are not authenticated.
    public static let notKeyed = Code(name: "notKeyed")
    /// An event whose type the app's action type does not know, even after upcasting.
    public static let unknownEventType = Code(name: "unknownEventType")
    /// An event of a schema version from which no chain of registered upcasters leads to the app's.
    public static let noUpcastPath = Code(name: "noUpcastPath")
    /// An upcaster threw while converting an event.
    public static let upcastFailed = Code(name: "upcastFailed")
    /// Events were asked for that retention removed from the log (see ``RetentionPolicy``).
    public static let eventsCut = Code(name: "eventsCut")
    /// Retention could not remove segments now (the archive hook or a file operation failed); nothing
    /// was removed that the cut record does not account for, and the cut is retried later.
    public static let cutFailed = Code(name: "cutFailed")
  }
}

/// Where in a log an error is: the segment file, the byte offset in it and the event, each when known.
public struct LogLocation: Sendable, Hashable, CustomStringConvertible {
  /// The segment file's name (or the cut record's, `cut.anchor`).
  public var segment: String?
  /// The byte offset in the segment (of the frame, for an event).
  public var offset: UInt64?
  /// The event's sequence number.
  public var sequence: UInt64?

  /// Creates a location.
  public init(segment: String? = nil, offset: UInt64? = nil, sequence: UInt64? = nil) {
    self.segment = segment
    self.offset = offset
    self.sequence = sequence
  }

  /// The location of `event`.
  public init(_ event: EventLocation) {
    self.init(segment: event.segment, offset: event.offset, sequence: event.sequence)
  }

  public var description: String {
    var parts: [String] = []
    if let sequence { parts.append("event \(sequence)") }
    if let segment { parts.append(offset.map { "\(segment) at byte \($0)" } ?? segment) }
    return parts.joined(separator: ", ")
  }
}

// The errors by kind, each with the message that names what and where. Thrown as `.tampered(...)`.
extension FileJournalError {
  /// Another journal has the log in `directory` open for writing.
  public static func locked(directory: String) -> Self {
    Self(.locked, "the log at \(directory) is already open for writing")
  }

  /// A write or sync failed (`error`); nothing more is acknowledged until the journal is reopened.
  public static func durabilityLost(_ error: IOError) -> Self {
    Self(.durabilityLost, "durability lost: \(error); reopen the journal to recover", underlying: error)
  }

  /// The journal was closed.
  public static var closed: Self { Self(.closed, "the journal is closed") }

  /// Event `sequence` was asked for, but the journal holds events through `lastAppended` only.
  public static func notAppended(sequence: UInt64, lastAppended: UInt64) -> Self {
    Self(
      .notAppended,
      "event \(sequence) was never appended to the journal, which holds events through \(lastAppended); it is not durable",
      location: LogLocation(sequence: sequence))
  }

  /// A file operation failed.
  public static func io(_ error: IOError) -> Self { Self(.io, String(describing: error), underlying: error) }

  /// Damage in `segment` at byte `offset`, after event `lastGoodSequence`; `reason` says what.
  public static func corrupted(segment: String, offset: UInt64, lastGoodSequence: UInt64, reason: String)
    -> Self
  {
    Self(
      .corrupted,
      "corrupted log: \(reason) in \(segment) at byte \(offset); last good event is \(lastGoodSequence)",
      location: LogLocation(segment: segment, offset: offset), lastGoodSequence: lastGoodSequence)
  }

  /// A frame in `segment` at byte `offset` with a valid checksum and a wrong chain value.
  public static func tampered(segment: String, offset: UInt64, lastGoodSequence: UInt64) -> Self {
    Self(
      .tampered,
      "tampered log: frame in \(segment) at byte \(offset) has a valid checksum but a wrong chain value; last good event is \(lastGoodSequence)",
      location: LogLocation(segment: segment, offset: offset), lastGoodSequence: lastGoodSequence)
  }

  /// Event `sequence` (`typeName`, version `schemaVersion`) does not decode; `reason` says why.
  public static func undecodableEvent(
    sequence: UInt64, typeName: String, schemaVersion: UInt64, reason: String
  ) -> Self {
    Self(
      .undecodableEvent, "event \(sequence) (\(typeName) v\(schemaVersion)) cannot be decoded: \(reason)",
      location: LogLocation(sequence: sequence), eventType: typeName, schemaVersion: schemaVersion)
  }

  /// Event `sequence` encodes to `bytes` bytes, more than a frame holds.
  public static func eventTooLarge(sequence: UInt64, bytes: Int) -> Self {
    Self(
      .eventTooLarge, "event \(sequence) encodes to \(bytes) bytes, more than a frame holds",
      location: LogLocation(sequence: sequence))
  }

  /// Event `sequence` cannot be encoded; `reason` says why.
  public static func unencodableEvent(sequence: UInt64, reason: String) -> Self {
    Self(
      .unencodableEvent, "event \(sequence) cannot be encoded: \(reason)",
      location: LogLocation(sequence: sequence))
  }

  /// The log is keyed (`segment` says so) and no key was given.
  public static func keyRequired(segment: String) -> Self {
    Self(
      .keyRequired, "the log is keyed (segment \(segment)); open or verify it with its chain key",
      location: LogLocation(segment: segment))
  }

  /// The key does not match the one `segment` was written with.
  public static func wrongKey(segment: String) -> Self {
    Self(
      .wrongKey, "the chain key does not match the key the log was written with (segment \(segment))",
      location: LogLocation(segment: segment))
  }

  /// A key was given but `segment` is not keyed.
  public static func notKeyed(segment: String) -> Self {
    Self(
      .notKeyed,
      "a chain key was given but the log is not keyed (segment \(segment)); its chain is plain SHA-256",
      location: LogLocation(segment: segment))
  }

  /// The event at `location`, of type `name` and version `schemaVersion`, is not one the app knows.
  public static func unknownEventType(
    _ name: String, schemaVersion: UInt64, at location: EventLocation, reason: String
  )
    -> Self
  {
    Self(
      .unknownEventType,
      "unknown event type \"\(name)\" (schema version \(schemaVersion)) at \(location): \(reason). If the case was"
        + " removed, retire it (EventUpcasters.retire(_:as:) reads it as a current action, or as a tombstone"
        + " case the reducer ignores); if it was renamed or changed, register an upcaster for it"
        + " (EventUpcasters.register) and open with upcasters:",
      location: LogLocation(location), eventType: name, schemaVersion: schemaVersion)
  }

  /// No upcaster leads event type `name` from version `from` to `to` (`missingStep` has none).
  public static func noUpcastPath(
    _ name: String, from: UInt64, to: UInt64, missingStep: UInt64, at location: EventLocation
  )
    -> Self
  {
    let message =
      from > to
      ? "event type \"\(name)\" at \(location) was written with schema version \(from), newer than version \(to) that this app reads"
      : "no upcaster for event type \"\(name)\" from schema version \(missingStep) (the event is v\(from), the app reads v\(to)) at \(location)"
    return Self(.noUpcastPath, message, location: LogLocation(location), eventType: name, schemaVersion: from)
  }

  /// The upcaster of `name` from `schemaVersion` threw `reason` for the event at `location`.
  public static func upcastFailed(
    _ name: String, schemaVersion: UInt64, at location: EventLocation, reason: String
  ) -> Self {
    Self(
      .upcastFailed,
      "upcasting event type \"\(name)\" from schema version \(schemaVersion) failed at \(location): \(reason)",
      location: LogLocation(location), eventType: name, schemaVersion: schemaVersion)
  }
}

// The errors of retention (Docs/Persistence.md, "Retention").
extension FileJournalError {
  /// Event `requested` was asked for, but events 1 through `cut.throughSequence` were cut from the log.
  public static func eventsCut(requested: UInt64, cut: LogCut) -> Self {
    Self(
      .eventsCut,
      "event \(requested) was cut from the log: events 1...\(cut.throughSequence) were removed by retention (\(cut.date)); the log starts at event \(cut.throughSequence + 1)",
      location: LogLocation(segment: CutAnchor.fileName, sequence: requested),
      lastGoodSequence: cut.throughSequence)
  }

  /// The cut record `cut.anchor` is damaged (`reason` says how): the log cannot say where it starts.
  public static func corruptedCut(reason: String) -> Self {
    Self(
      .corrupted, "corrupted log: the cut record \(CutAnchor.fileName) is damaged: \(reason)",
      location: LogLocation(segment: CutAnchor.fileName, offset: 0), lastGoodSequence: 0)
  }

  /// The cut record does not match the log (`reason` says how): it was forged or edited, or segments
  /// after the cut were removed or replaced.
  public static func tamperedCut(reason: String, lastGoodSequence: UInt64) -> Self {
    Self(
      .tampered, "tampered log: the cut record \(CutAnchor.fileName) does not match the log: \(reason)",
      location: LogLocation(segment: CutAnchor.fileName, offset: 0), lastGoodSequence: lastGoodSequence)
  }

  /// A cut could not be made (`reason`); it is retried at the next opportunity.
  public static func cutFailed(_ reason: String, underlying: IOError? = nil) -> Self {
    Self(.cutFailed, "retention cut not made: \(reason); retried later", underlying: underlying)
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

  /// The event location `location` gives, when it names an event, its segment and its frame's offset.
  public init?(_ location: LogLocation) {
    guard let sequence = location.sequence, let segment = location.segment, let offset = location.offset
    else {
      return nil
    }
    self.init(sequence: sequence, segment: segment, offset: offset)
  }

  public var description: String { "event \(sequence) (\(segment), frame at byte \(offset))" }
}
