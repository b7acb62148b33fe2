import Foundation
import Rewind

extension FileJournal {
  /// Writes `state`, as it is after event `sequence`, as a snapshot: temp file, sync, rename, directory
  /// sync. Waits until event `sequence` is durable first, so a snapshot never runs ahead of the log.
  ///
  /// - Throws: ``FileJournalError/durabilityLost(_:)``, ``FileJournalError/io(_:)``, or encoding errors.
  public func writeSnapshot<State: Encodable>(_ state: State, at sequence: UInt64) throws {
    guard sequence > 0 else { return }
    try committer.wait(for: .durable, through: sequence)
    guard let chain = chainValue(containing: sequence) else {
      throw FileJournalError.corrupted(
        segment: directory, offset: 0, lastGoodSequence: lastSequence,
        reason: "no frame holds event \(sequence)")
    }
    let (bytes, binaryCodable) = try SnapshotFile.encode(state, codec: options.codec)
    let file = SnapshotFile(
      logID: logID, sequence: sequence, chain: chain, codec: options.codec,
      position: framePosition(containing: sequence), isBinaryCodable: binaryCodable, state: [])
    let header = file.header(stateLength: bytes.count)
    let name = SnapshotFile.fileName(sequence: sequence)
    let temporary = directory + "/" + name + ".tmp"
    // One write at a time: two writers of one sequence number (the periodic writer and a call of this)
    // would share the temporary file, and one rename would find it gone.
    try snapshotWriting.withLock { _ throws(FileJournalError) in
      do throws(IOError) {
        let handle = try fileSystem.open(temporary, create: true)
        defer { handle.close() }
        try handle.truncate(to: 0)
        // Header, state and checksum written one after another: the state is not copied once more.
        try handle.write(header, at: 0)
        try handle.write(bytes, at: UInt64(header.count))
        var checksum = ByteWriter(capacity: 4)
        checksum.u32(CRC32C.mask(CRC32C.checksum(bytes)))
        try handle.write(checksum.bytes, at: UInt64(header.count + bytes.count))
        try handle.sync()
        try fileSystem.rename(temporary, to: directory + "/" + name)
        try fileSystem.syncDirectory(directory)
      } catch {
        throw FileJournalError.io(error)
      }
    }
  }

  /// Removes the snapshot files beyond the newest `options.keptSnapshots`: each new snapshot makes the
  /// oldest useless (an older one is only a fallback for a newer one that no longer reads).
  /// - Throws: ``FileJournalError/io(_:)`` when a file cannot be removed.
  public func removeOldSnapshots() throws {
    try removeSnapshots(
      SnapshotFile.files(in: directory, fileSystem: fileSystem).dropFirst(options.keptSnapshots))
  }

  /// Removes the snapshot files as of events after `sequence`: written before an undo, redo or restore went
  /// back past them, they would make an open replay events that jump to states before them.
  func removeSnapshots(after sequence: UInt64) throws {
    try removeSnapshots(
      SnapshotFile.files(in: directory, fileSystem: fileSystem).filter { $0.sequence > sequence })
  }

  private func removeSnapshots(_ files: some Sequence<(name: String, sequence: UInt64)>) throws {
    for (name, _) in files {
      do { try fileSystem.remove(directory + "/" + name) } catch { throw FileJournalError.io(error) }
    }
  }

  /// The newest snapshot that matches the log and decodes as `State`, or `nil` (full replay), with the
  /// snapshots passed over and why. A damaged or mismatching snapshot falls back to an older one.
  ///
  /// A version 3 snapshot's header is checked first (its own checksum, the file's size, the log); then its
  /// state is decoded as it is read, and its checksum checked once read (see `SnapshotFile`).
  public func loadSnapshot<State: Decodable>(_ type: State.Type) -> (
    state: State?, sequence: UInt64, recovery: SnapshotRecovery
  ) {
    var rejected: [SnapshotRejection] = []
    let startSnapshot = self.startSnapshot.withLock { $0.take() }
    for (name, sequence) in SnapshotFile.files(in: directory, fileSystem: fileSystem) {
      let path = directory + "/" + name
      let loaded: Result<SnapshotFile, SnapshotRejection.Reason>
      do {
        if let startSnapshot, startSnapshot.sequence == sequence {
          loaded = .success(startSnapshot)  // read when the journal opened
        } else {
          loaded = try SnapshotFile.loadHeader(path, fileSystem: fileSystem, checkingState: false).snapshot
        }
      } catch {
        rejected.append(SnapshotRejection(file: name, reason: .damaged(String(describing: error))))
        continue
      }
      let snapshot: SnapshotFile
      switch loaded {
      case .success(let parsed): snapshot = parsed
      case .failure(let reason):
        rejected.append(SnapshotRejection(file: name, reason: reason))
        continue
      }
      if let mismatch = mismatch(of: snapshot, named: sequence) {
        rejected.append(SnapshotRejection(file: name, reason: mismatch))
        continue
      }
      switch snapshot.decodeState(State.self, path: path, fileSystem: fileSystem) {
      case .success(let state):
        return (state, sequence, SnapshotRecovery(usedSequence: sequence, rejected: rejected))
      case .failure(let reason):
        rejected.append(SnapshotRejection(file: name, reason: reason))
      }
    }
    return (nil, 0, SnapshotRecovery(usedSequence: nil, rejected: rejected))
  }

  /// Why `snapshot` (from the file named for event `sequence`) does not match the log, or `nil` when it
  /// does: same log, and the frame holding its event has its chain value. Opening and retention (which
  /// never cuts past the newest matching snapshot) decide by this one rule.
  func mismatch(of snapshot: SnapshotFile, named sequence: UInt64) -> SnapshotRejection.Reason? {
    guard snapshot.sequence == sequence, snapshot.logID == logID else {
      return .mismatch("another log or a renamed file")
    }
    guard snapshot.sequence <= lastSequence, chainValue(containing: snapshot.sequence) == snapshot.chain
    else {
      return .mismatch("the log has no frame with its chain value at event \(sequence)")
    }
    return nil
  }
}
