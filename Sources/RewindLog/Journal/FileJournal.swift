import Foundation
import Rewind
import Synchronization

/// A durable `Journal`: a directory of segment files holding checksummed, hash-chained frames.
///
/// ```swift
/// let journal = try FileJournal<Counter.Action>(directory: "/path/to/log")
/// let store = try Store(initialState: .init(), reducer: Counter(), journal: journal)
/// store.send(.increment)
/// try await journal.waitForDurability(through: store.sequence)
/// ```
///
/// Only one journal may have a directory open at a time; a second fails at once with
/// ``FileJournalError/locked(directory:)``. Opening recovers the log (see ``recoveryReport``).
public final class FileJournal<Action: Codable & Sendable>: Journal {
  /// The log directory.
  public let directory: String
  /// The options the journal was opened with.
  public let options: FileJournalOptions
  /// What recovery found and did when the journal was opened.
  public let recoveryReport: RecoveryReport
  /// The steps that convert events of older schema versions when they are read.
  public let upcasters: EventUpcasters

  let fileSystem: any LogFileSystem
  let logID: [UInt8]
  let committer: Committer
  private let lock: any LogFileLock
  private let closed = Atomic<Bool>(false)
  private let restoredFrom = Locked<SnapshotRecovery?>(nil)
  /// `Action` as a ``VersionedAction``, when it is one: checked once, not per event.
  private let isVersioned = Action.self is any VersionedAction.Type
  /// Turns records into events, as every reader of a log does.
  @usableFromInline let decoder: EventDecoder<Action>
  /// Whether `Action` is an enum, found by reflection on the first action: 0 unknown, 1 no, 2 yes.
  private let isEnum = Atomic<UInt8>(0)
  /// Checks the hash chain read on open, on another thread (see ``finishChainCheck()``).
  private let chainCheck: ChainCheck
  /// The codec of a ``BinaryCodable`` action type, which bypasses `Codable`.
  private var direct: DirectCodec<Action>? { decoder.direct }

  private func actionIsEnum(_ action: Action) -> Bool {
    switch isEnum.load(ordering: .relaxed) {
    case 1: return false
    case 2: return true
    default:
      let found = Mirror(reflecting: action).displayStyle == .enum
      isEnum.store(found ? 2 : 1, ordering: .relaxed)
      return found
    }
  }

  /// Which snapshot `Store.open` restored the state from, and which it passed over; `nil` when the store
  /// was not opened from snapshots.
  public var snapshotRecovery: SnapshotRecovery? { restoredFrom.withLock { $0 } }

  @usableFromInline
  func setSnapshotRecovery(_ recovery: SnapshotRecovery) { restoredFrom.withLock { $0 = recovery } }

  /// Opens (or creates) the log in `directory`, recovering it.
  ///
  /// - Throws: ``FileJournalError/locked(directory:)`` when another journal has it open;
  ///   ``FileJournalError/corrupted(segment:offset:lastGoodSequence:reason:)`` or
  ///   ``FileJournalError/tampered(segment:offset:lastGoodSequence:)`` for damage that is not a torn
  ///   tail (see ``repair(directory:key:)``); ``FileJournalError/keyRequired(segment:)``,
  ///   ``FileJournalError/wrongKey(segment:)`` or ``FileJournalError/notKeyed(segment:)`` when
  ///   `options.chainKey` does not fit the log; ``FileJournalError/io(_:)`` when a file operation fails.
  ///
  /// Events written with an older schema version of `Action` are converted by `upcasters` when read (see
  /// ``EventUpcasters``).
  public convenience init(
    directory: String, options: FileJournalOptions = FileJournalOptions(),
    upcasters: EventUpcasters = EventUpcasters()
  ) throws {
    try self.init(directory: directory, options: options, upcasters: upcasters, fileSystem: POSIXFileSystem())
  }

  /// Opens the journal like ``init(directory:options:upcasters:)`` but returns before the hash chain is
  /// checked (unless `options.checksChainBeforeReplay`): the check goes on on another thread while the
  /// caller replays, and the caller must call ``finishChainCheck()`` before it hands the journal (or
  /// anything read from it) to anyone.
  @usableFromInline
  convenience init(
    directory: String, options: FileJournalOptions, upcasters: EventUpcasters,
    checkingChainWhileReplaying: Void
  ) throws {
    try self.init(
      directory: directory, options: options, upcasters: upcasters, fileSystem: POSIXFileSystem(),
      finishingChainCheck: options.checksChainBeforeReplay)
  }

  package init(
    directory: String, options: FileJournalOptions, upcasters: EventUpcasters = EventUpcasters(),
    fileSystem: any LogFileSystem, finishingChainCheck: Bool = true
  ) throws {
    self.directory = directory
    self.options = options
    self.upcasters = upcasters
    decoder = EventDecoder(upcasters: upcasters)
    self.fileSystem = fileSystem
    let chainCheck = ChainCheck(key: options.chainKey)
    self.chainCheck = chainCheck
    do { try fileSystem.createDirectory(directory) } catch { throw FileJournalError.io(error) }
    do {
      lock = try fileSystem.lock(directory + "/LOCK")
    } catch {
      // Only a lock held elsewhere is "locked"; a lock file that cannot be opened is an I/O error.
      throw error.code == EWOULDBLOCK || error.code == EAGAIN
        ? FileJournalError.locked(directory: directory) : FileJournalError.io(error)
    }
    do {
      let scanned: ScannedLog
      do {
        scanned = try LogScanner(fileSystem: fileSystem, directory: directory, key: options.chainKey)
          .scan(chainCheck: chainCheck)
      } catch {
        try chainCheck.finish()
        throw error
      }
      if let torn = scanned.tornTail {
        // Nothing is cut off a log whose chain is wrong.
        try chainCheck.finish()
        try Self.cutOff(torn, in: directory, fileSystem: fileSystem)
      }
      if finishingChainCheck { try chainCheck.finish() }
      let writer: LogWriter
      do {
        writer = try LogWriter(
          fileSystem: fileSystem, directory: directory, segmentSize: options.segmentSize, scanned: scanned,
          key: options.chainKey)
      } catch {
        throw FileJournalError.io(error)
      }
      logID = writer.logID
      recoveryReport = RecoveryReport(
        lastSequence: scanned.lastSequence, tornTail: scanned.tornTail,
        segmentCount: max(scanned.segments.count, 1))
      committer = Committer(writer: writer, scanned: scanned, durability: options.durability)
    } catch {
      lock.release()
      throw error
    }
    committer.start()
  }

  /// Waits until the hash chain read on open is checked; a no-op for a journal opened with
  /// ``init(directory:options:upcasters:)``, which checks it before returning.
  /// - Throws: ``FileJournalError/tampered(segment:offset:lastGoodSequence:)`` for the first frame whose
  ///   chain value is wrong.
  @usableFromInline
  func finishChainCheck() throws {
    try chainCheck.finish()
  }

  /// Runs `replay` (which reads this journal) while the chain check goes on, then waits for the check.
  /// A wrong chain value is the error reported even when `replay` failed: it is the cause (a tampered event
  /// may well not decode).
  @usableFromInline
  func afterChainCheck<T>(_ replay: () throws -> T) throws -> T {
    let result = Result(catching: replay)
    try finishChainCheck()
    return try result.get()
  }

  /// Removes a torn tail: truncates the last segment, or sets an incomplete segment aside.
  private static func cutOff(_ torn: TornTail, in directory: String, fileSystem: any LogFileSystem)
    throws(FileJournalError)
  {
    do {
      if torn.wholeSegment {
        try Quarantine.move(torn.segment, in: directory, fileSystem: fileSystem)
      } else {
        let file = try fileSystem.open(directory + "/" + torn.segment, create: false)
        defer { file.close() }
        try file.truncate(to: torn.offset)
        try file.sync()
      }
    } catch {
      throw .io(error)
    }
  }

  deinit {
    if !closed.exchange(true, ordering: .acquiringAndReleasing) {
      committer.stop()
      lock.release()
    }
  }

  /// Writes and syncs everything appended, stops the committer and releases the directory.
  /// Later appends throw ``FileJournalError/closed``.
  /// - Throws: ``FileJournalError/durabilityLost(_:)`` when events could not be made durable.
  public func close() throws {
    guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
    let last = lastSequence
    let flushError: (any Error)?
    do { try committer.wait(for: .durable, through: last); flushError = nil } catch { flushError = error }
    committer.stop()
    lock.release()
    if let flushError { throw flushError }
  }

  // MARK: Journal

  /// The newest event appended (not necessarily durable yet); 0 when the log is empty.
  public var lastSequence: UInt64 { committer.read(\.lastAppended) }

  /// The newest event known to be synced.
  public var durableSequence: UInt64 { committer.read(\.durable) }

  /// Whether events are still being made durable. Observe it to learn that durability was lost.
  public var durabilityStatus: DurabilityStatus { committer.read(\.status) }

  /// The durability status now, then once more if durability is lost; finishes then or at ``close()``.
  ///
  /// ```swift
  /// for await status in journal.durabilityStatusUpdates() where status.isLost { showWarning(status) }
  /// ```
  public func durabilityStatusUpdates() -> AsyncStream<DurabilityStatus> { committer.statusUpdates() }

  /// The error that stopped durability, for the store's `journalStatus`.
  public var failure: (any Error)? {
    committer.read { $0.failure.map { FileJournalError.durabilityLost($0) } }
  }

  /// Encodes `event` and hands it to the committer; with ``Durability/immediate``, returns after its sync.
  ///
  /// - Throws: `JournalError.sequenceGap` for a misnumbered event, ``FileJournalError/durabilityLost(_:)``
  ///   once a write or sync failed, ``FileJournalError/closed`` after ``close()``;
  ///   ``FileJournalError/eventTooLarge(sequence:bytes:)`` or
  ///   ``FileJournalError/unencodableEvent(sequence:reason:)`` for an event that cannot be written:
  ///   waiting for the durability of it, or of any later sequence number, then throws the same error
  ///   (unless another event is appended with its number).
  public func append(_ event: Event<Action>) throws {
    let record: [UInt8]
    do {
      record = try encodeRecord(event)
    } catch {
      committer.refuse(event.sequence, because: error)
      throw error
    }
    let handler = try committer.append(
      record, sequence: event.sequence, snapshotInterval: options.snapshotInterval)
    if options.durability == .immediate { try committer.wait(for: .durable, through: event.sequence) }
    handler?(event.sequence)
  }

  /// The event as a length-prefixed record: the envelope written field by field, the action (or command)
  /// through the codec.
  private func encodeRecord(_ event: Event<Action>) throws(FileJournalError) -> [UInt8] {
    var writer = ByteWriter(capacity: 96)
    do {
      switch event.payload {
      case .action(let action):
        let versioned = isVersioned ? action as? any VersionedAction : nil
        let version = versioned.map { type(of: $0).schemaVersion } ?? 1
        try EventRecord.append(
          codec: options.codec, schemaVersion: version, sequence: event.sequence, timestamp: event.timestamp,
          metadata: event.metadata, kind: .action, to: &writer,
          payload: { writer in
            switch options.codec {
            case .binary: return try appendBinary(action, to: &writer)
            case .json:
              writer.append(try JSONEncoder().encode(action))
              return nil
            }
          },
          typeName: { firstKey in
            if let versioned { return versioned.eventTypeName }
            if let firstKey, actionIsEnum(action) { return firstKey }
            return reflectedTypeName(of: action)
          })
      case .command(let command):
        try EventRecord.append(
          codec: options.codec, schemaVersion: 1, sequence: event.sequence, timestamp: event.timestamp,
          metadata: event.metadata, kind: .command, to: &writer,
          payload: { writer in
            switch options.codec {
            case .binary: try StreamEncoding.append(command, to: &writer)
            case .json: writer.append(try JSONEncoder().encode(command))
            }
            return nil
          },
          typeName: { _ in "rewind." + reflectedTypeName(of: command) })
      }
    } catch {
      throw .unencodableEvent(sequence: event.sequence, reason: String(describing: error))
    }
    guard writer.bytes.count <= Frame.maximumBodySize - Frame.minimumBodySize else {
      throw .eventTooLarge(sequence: event.sequence, bytes: writer.bytes.count)
    }
    return writer.bytes
  }

  /// Appends the binary encoding of `action`, directly when its type is ``BinaryCodable``; returns the
  /// first field name of a keyed encoding (an enum's case name).
  private func appendBinary(_ action: Action, to writer: inout ByteWriter) throws -> String? {
    let start = writer.bytes.count
    if let direct {
      var binary = BinaryWriter(buffer: ByteWriter(capacity: 0))
      swap(&binary.buffer, &writer)
      let written = direct.encode(action, &binary)
      swap(&binary.buffer, &writer)
      if written {
        return writer.bytes.count > start && writer.bytes[start] == BinaryValue.Tag.keyed.rawValue
          ? binary.firstKey : nil
      }
    }
    return try StreamEncoding.append(action, to: &writer)
  }

  /// Suspends until every event through `sequence` is synced (with ``Durability/none``, this syncs).
  /// - Throws: ``FileJournalError/durabilityLost(_:)`` when a write or sync failed first;
  ///   ``FileJournalError/closed`` when the journal closed first; the error that refused an event through
  ///   `sequence`, or ``FileJournalError/notAppended(sequence:lastAppended:)`` when `sequence` was never
  ///   appended: nothing is reported durable that the journal does not hold.
  public func waitForDurability(through sequence: UInt64) async throws {
    try await committer.waitAsync(for: .durable, through: sequence)
  }

  /// Blocks until every event appended so far is synced.
  /// - Throws: ``FileJournalError/durabilityLost(_:)`` when a write or sync failed first.
  public func flush() throws {
    try committer.wait(for: .durable, through: lastSequence)
  }

  /// Calls `handler` (on the appending thread, outside any journal lock) with the sequence number of every
  /// `options.snapshotInterval`-th event. `Store.open` uses it to schedule snapshots.
  public func onSnapshotDue(_ handler: @escaping @Sendable (UInt64) -> Void) {
    committer.setSnapshotHandler(handler)
  }

  // MARK: Reading

  /// Calls `body` with every event from `sequence` on, read back from the segments, checked and upcast.
  /// - Throws: ``FileJournalError`` when a frame changed on disk or an event cannot be decoded: an unknown
  ///   event type or a schema version with no upcasters is named with its location.
  ///
  /// Inlinable, so that where the app opens its store (`Store.open`) decoding is specialized for its action
  /// type: unspecialized, generic metadata lookups cost a fifth of a replayed event.
  @inlinable
  public func forEachEvent(from sequence: UInt64, _ body: (Event<Action>) throws -> Void) throws {
    try forEachRecord(from: max(sequence, 1), through: nil) { record, location in
      try body(try decoder.decodeCommonCase(record, at: location))
    }
  }

  /// The events whose sequence numbers lie in `range`, read back from the segments.
  public func events(in range: ClosedRange<UInt64>) throws -> [Event<Action>] {
    var events: [Event<Action>] = []
    try forEachRecord(from: max(range.lowerBound, 1), through: range.upperBound) { record, location in
      events.append(try decoder.decode(record, at: location))
    }
    return events
  }

  /// Every event from `first` on (through `last`) as a tree, without the app's types: for tools.
  public func inspect(from first: UInt64 = 1, through last: UInt64? = nil) throws -> [InspectedEvent] {
    var result: [InspectedEvent] = []
    try forEachRecord(from: max(first, 1), through: last) { record, location in
      result.append(try InspectedEvent(sequence: location.sequence, record: record))
    }
    return result
  }

  /// The chain value of the frame that holds event `sequence`, when it is written.
  func chainValue(containing sequence: UInt64) -> SHA256.Digest? {
    committer.read { state in
      guard let index = Self.frameIndex(in: state.frames, containing: sequence) else { return nil }
      return state.frames[index].chain
    }
  }

  /// Blocks until every event appended so far is written to the operating system, without syncing: it
  /// then survives a crash of the process, though not of the machine.
  /// - Throws: ``FileJournalError/durabilityLost(_:)`` when a write failed first, or
  ///   ``FileJournalError/closed``.
  public func waitUntilHandedToOS() throws {
    try committer.wait(for: .written, through: lastSequence)
  }

  /// Waits until everything appended is written to the operating system (not synced).
  func waitUntilWritten(through sequence: UInt64) throws {
    try committer.wait(for: .written, through: sequence)
  }

  private static func frameIndex(in frames: [FrameLocation], containing sequence: UInt64) -> Int? {
    var low = 0
    var high = frames.count
    while low < high {
      let mid = (low + high) / 2
      if frames[mid].lastSequence < sequence { low = mid + 1 } else { high = mid }
    }
    return low < frames.count && frames[low].firstSequence <= sequence ? low : nil
  }

  @usableFromInline
  func forEachRecord(
    from first: UInt64, through last: UInt64?, _ body: (EventRecord, EventLocation) throws -> Void
  ) throws {
    // Only what the range needs must be written first: after a failure, what was written stays readable.
    let appended = lastSequence
    try waitUntilWritten(through: min(last ?? appended, appended))
    let (frames, segments, written) = committer.read { ($0.frames, $0.segments, $0.written) }
    let upper = min(last ?? written, written)
    guard first <= upper, var index = Self.frameIndex(in: frames, containing: first) else { return }
    while index < frames.count, frames[index].firstSequence <= upper {
      // Read a run of frames of one segment with one call, a few MiB at most (or one frame).
      var end = index
      while end + 1 < frames.count, frames[end + 1].segment == frames[index].segment,
        frames[end + 1].firstSequence <= upper,
        frames[end + 1].offset + UInt64(frames[end + 1].size) - frames[index].offset
          <= UInt64(SegmentReader.windowSize)
      {
        end += 1
      }
      let start = frames[index].offset
      let stop = frames[end].offset + UInt64(frames[end].size)
      let name = segments[frames[index].segment]
      let bytes: [UInt8]
      do {
        let file = try fileSystem.open(directory + "/" + name, create: false)
        defer { file.close() }
        bytes = try file.read(at: start, count: Int(stop - start))
      } catch {
        throw FileJournalError.io(error)
      }
      for frameIndex in index...end {
        let location = frames[frameIndex]
        let relative = Int(location.offset - start)
        guard relative + Int(location.size) <= bytes.count,
          case .frame(let frame) = Frame.parse(bytes, at: relative, detectZeros: false),
          frame.firstSequence == location.firstSequence
        else {
          throw FileJournalError.corrupted(
            segment: name, offset: location.offset, lastGoodSequence: location.firstSequence - 1,
            reason: "frame changed on disk after the log was opened")
        }
        for (position, range) in frame.records.enumerated() {
          let sequence = frame.firstSequence + UInt64(position)
          guard sequence >= first, sequence <= upper else { continue }
          let record: EventRecord
          do { record = try EventRecord.parse(bytes, range, sequence: sequence) } catch {
            throw FileJournalError.corrupted(
              segment: name, offset: location.offset, lastGoodSequence: sequence - 1,
              reason: "bad event record: \(error)")
          }
          try body(record, EventLocation(sequence: sequence, segment: name, offset: location.offset))
        }
      }
      index = end + 1
    }
  }

  /// The schema version the app reads: `Action.schemaVersion` for a ``VersionedAction``, otherwise 1.
  public static var readSchemaVersion: UInt64 {
    EventDecoder<Action>.readSchemaVersion
  }
}

/// What opening a log found and did.
public struct RecoveryReport: Sendable, Hashable, CustomStringConvertible {
  /// The newest event after recovery; 0 for an empty log.
  public var lastSequence: UInt64
  /// The torn tail that was cut off, if the previous writer died mid-frame.
  public var tornTail: TornTail?
  /// The number of segment files.
  public var segmentCount: Int

  public var description: String {
    "recovered \(lastSequence) events in \(segmentCount) segment(s)" + (tornTail.map { "; \($0)" } ?? "")
  }
}

/// An event read without the app's types: its envelope and payload as a tree.
public struct InspectedEvent: Sendable, Hashable {
  /// The position in the log.
  public var sequence: UInt64
  /// The recorded event type, e.g. the action's case name.
  public var typeName: String
  /// The recorded schema version.
  public var schemaVersion: UInt64
  /// The codec the payload was written with.
  public var codec: EventCodec
  /// The whole encoded `Event` as a tree (a JSON payload is parsed into one; shown as a string only if it
  /// does not parse).
  public var payload: BinaryValue

  init(sequence: UInt64, record: EventRecord) throws {
    self.sequence = sequence
    typeName = record.typeName
    schemaVersion = record.schemaVersion
    codec = record.codec
    payload = try record.tree(sequence: sequence)
  }
}
