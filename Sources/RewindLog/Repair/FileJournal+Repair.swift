extension FileJournal {
  /// Keeps the longest valid prefix of the log and moves everything after it (the rest of the damaged
  /// segment and every later segment) into the `quarantine` subdirectory. Deletes nothing.
  ///
  /// It handles every damage ``LogAudit/verify(directory:key:anchor:progress:)`` reports without an
  /// anchor: a torn tail, a damaged or misnumbered frame or segment, a wrong chain value, and a record that
  /// does not decode although its frame's checksum and chain value are valid (the whole frame is set
  /// aside: its events before the bad one go with it, since a frame is never rewritten).
  ///
  /// Takes the directory's lock, so it fails with ``FileJournalError/locked(directory:)`` while a journal
  /// has it open. A keyed log needs its `key`: without it, no chain value can be checked, and the key
  /// errors of ``FileJournalError`` are thrown before anything is moved. A retention cut record that does
  /// not fit the log is not repaired: setting it aside would leave segments that start after event 1 with
  /// nothing to say where the chain comes from, so repair throws its error instead.
  public static func repair(directory: String, key: ChainKey? = nil) throws -> RepairReport {
    try repair(directory: directory, key: key, fileSystem: POSIXFileSystem())
  }

  package static func repair(
    directory: String, key: ChainKey? = nil, fileSystem: any LogFileSystem
  ) throws -> RepairReport {
    let lock: any LogFileLock
    do { lock = try fileSystem.lock(directory + "/LOCK") } catch {
      throw FileJournalError.locked(directory: directory)
    }
    defer { lock.release() }
    return try LogRepair(fileSystem: fileSystem, directory: directory, key: key).run()
  }
}
