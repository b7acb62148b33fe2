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
  let isVersioned = Action.self is any VersionedAction.Type
  /// Turns records into events, as every reader of a log does.
  @usableFromInline let decoder: EventDecoder<Action>
  /// Whether `Action` is an enum, found by reflection on the first action: 0 unknown, 1 no, 2 yes.
  let isEnum = Atomic<UInt8>(0)
  /// Checks the hash chain read on open, on another thread (see ``finishChainCheck()``).
  private let chainCheck: ChainCheck
  /// Serializes reading the frames before the one the open started at (see `indexPrefixIfNeeded`).
  let prefixIndexing = Locked<Void>(())
  /// Serializes snapshot writes (see `writeSnapshot(_:at:)`).
  let snapshotWriting = Locked<Void>(())
  /// The snapshot whose frame the open started at, read once for both the scan and the state; taken (and
  /// so released, with its encoded state) by the first ``loadSnapshot(_:)``.
  let startSnapshot: Locked<SnapshotFile?>
  /// The codec of a ``BinaryCodable`` action type, which bypasses `Codable`.
  let direct = DirectCodec<Action>.make()
  /// The thread retention cuts on.
  let retention = RetentionWorker()
  /// The periodic snapshots of the store opened on this journal (`Store.open`); stopped by ``close()``.
  package let periodicSnapshots = PeriodicSnapshots()

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
  ///
  /// With `startingFromSnapshot`, the scan starts at the frame of the newest snapshot that records one, and
  /// the frames before it are read (and their chain checked) only when something asks for their events;
  /// when that frame does not fit the log, the whole log is scanned as usual.
  @usableFromInline
  convenience init(
    directory: String, options: FileJournalOptions, upcasters: EventUpcasters,
    checkingChainWhileReplaying: Void, startingFromSnapshot: Bool = false
  ) throws {
    // Retention waits for the replay (``afterChainCheck(_:)``): a cut must not remove what it reads.
    try self.init(
      directory: directory, options: options, upcasters: upcasters, fileSystem: POSIXFileSystem(),
      finishingChainCheck: options.checksChainBeforeReplay, startingFromSnapshot: startingFromSnapshot,
      schedulingRetention: false)
  }

  package init(
    directory: String, options: FileJournalOptions, upcasters: EventUpcasters = EventUpcasters(),
    fileSystem: any LogFileSystem, finishingChainCheck: Bool = true, startingFromSnapshot: Bool = false,
    schedulingRetention: Bool = true
  ) throws {
    self.directory = directory
    self.options = options
    self.upcasters = upcasters
    decoder = EventDecoder(upcasters: upcasters)
    self.fileSystem = fileSystem
    var chainCheck = ChainCheck(key: options.chainKey)
    do { try fileSystem.createDirectory(directory) } catch { throw FileJournalError.io(error) }
    do {
      lock = try fileSystem.lock(directory + "/LOCK")
    } catch {
      // Only a lock held elsewhere is "locked"; a lock file that cannot be opened is an I/O error.
      throw error.code == EWOULDBLOCK || error.code == EAGAIN
        ? FileJournalError.locked(directory: directory) : FileJournalError.io(error)
    }
    do {
      let scanner = LogScanner(fileSystem: fileSystem, directory: directory, key: options.chainKey)
      var start =
        startingFromSnapshot ? SnapshotFile.newestReadable(in: directory, fileSystem: fileSystem) : nil
      let scanned: ScannedLog
      do {
        scanned = try Self.scan(with: scanner, from: &start, chainCheck: &chainCheck)
      } catch {
        try chainCheck.finish()
        throw error
      }
      self.chainCheck = chainCheck
      startSnapshot = Locked(start)
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
      // Segments a crash left behind in the middle of a cut: finished off now (or by the next cut, when
      // removing them fails: they are outside the log either way).
      let finishedCut = Self.finishCut(scanned, in: directory, fileSystem: fileSystem)
      recoveryReport = RecoveryReport(
        lastSequence: scanned.lastSequence, tornTail: scanned.tornTail,
        segmentCount: max(scanned.segments.count, 1), finishedCut: finishedCut)
      committer = Committer(writer: writer, scanned: scanned, durability: options.durability)
    } catch {
      lock.release()
      throw error
    }
    committer.setRollHandler { [weak self] in self?.scheduleRetention() }
    committer.start()
    if schedulingRetention { scheduleRetention() }
  }

  /// Removes the segments an interrupted cut left (``ScannedLog/cutLeftovers``); returns those removed.
  private static func finishCut(_ scanned: ScannedLog, in directory: String, fileSystem: any LogFileSystem)
    -> [String]
  {
    var removed: [String] = []
    for name in scanned.cutLeftovers {
      guard (try? fileSystem.remove(directory + "/" + name)) != nil else { break }
      removed.append(name)
    }
    if !removed.isEmpty { try? fileSystem.syncDirectory(directory) }
    return removed
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
    let value = try result.get()
    scheduleRetention()
    return value
  }

  /// Scans the log from the frame of `start` (a snapshot) when it has one and it fits the log, otherwise
  /// whole; `start` is cleared and `chainCheck` replaced when the start did not fit.
  private static func scan(
    with scanner: LogScanner, from start: inout SnapshotFile?, chainCheck: inout ChainCheck
  ) throws(FileJournalError) -> ScannedLog {
    if let snapshot = start, let position = snapshot.position {
      // A snapshot of another log (copied in, or left from a log this directory once held) must not place
      // the scan: its frame position can land on a frame of this log by chance, and the frames indexed
      // from there would not end where the log does.
      if let scanned = try? scanner.scan(chainCheck: chainCheck, from: ScanStart(position)),
        scanned.logID == snapshot.logID
      {
        return scanned
      }
      // The snapshot's frame does not fit the log: a whole scan names any damage.
      _ = try? chainCheck.finish()
      chainCheck = ChainCheck(key: scanner.key)
      start = nil
    }
    return try scanner.scan(chainCheck: chainCheck)
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
    periodicSnapshots.stopWithoutWaiting()
    if !closed.exchange(true, ordering: .acquiringAndReleasing) {
      committer.stop()
      lock.release()
    }
  }

  /// Stops the periodic snapshots (waiting for one being written), writes and syncs everything appended,
  /// stops the committer and releases the directory. Later appends throw ``FileJournalError/closed``;
  /// calling it again does nothing. A store's `close()` calls it: close the store rather than its journal.
  /// - Throws: ``FileJournalError/durabilityLost(_:)`` when events could not be made durable.
  public func close() throws {
    guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
    periodicSnapshots.stop()
    let last = lastSequence
    let flushError: (any Error)?
    do { try committer.wait(for: .durable, through: last); flushError = nil } catch { flushError = error }
    // A last cut, unless durability was lost (the log is then left as recovery will find it).
    retention.close { () throws(FileJournalError) in
      if flushError == nil, !options.retention.keepsEverything { _ = try cutSegments(now: Date()) }
    }
    committer.stop()
    lock.release()
    if let flushError { throw flushError }
  }
}
