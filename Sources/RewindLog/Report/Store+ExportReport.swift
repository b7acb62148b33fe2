import Rewind

extension Store where Action: Codable {
  /// Writes a bug report of this store's log to `path`: the events since the newest snapshot (or all of
  /// them), verified and chained, with their fingerprints, the app's build and schema metadata, the
  /// platform, and what `options.redaction` took out (see ``ReportBundle``).
  ///
  /// Marks the moment first (``Store/mark(_:from:)`` with `"reported"`), so that a store that records
  /// fingerprints ends the report with the fingerprint of the state the user saw; then makes every event
  /// durable and writes the report from the log on disk.
  ///
  /// ```swift
  /// let metadata = try store.exportReport(
  ///   to: "bug.rwreport", options: ReportOptions(app: "com.example.inbox", note: "archive took the wrong mail"))
  /// ```
  ///
  /// - Parameters:
  ///   - path: the report file to write: a new path, or a regular file (replaced atomically).
  ///   - options: the app, build, note and redaction rules.
  ///   - first: the report's first event (1, or just after a snapshot); by default after the newest
  ///     snapshot.
  /// - Returns: the report's metadata.
  /// - Throws: ``ReportError/cannotReport(_:)`` for a store without a file journal (one not made by
  ///   `Store.open`) or a range the log cannot start; ``ReportError/notARegularFile(path:kind:)`` when
  ///   `path` exists and is not a regular file (a directory, a FIFO, a device, a symbolic link), before
  ///   anything is written; the journal's `FileJournalError`s; ``ReportError/io(_:)`` when the file cannot
  ///   be written.
  @discardableResult
  public func exportReport(to path: String, options: ReportOptions, from first: UInt64? = nil) throws
    -> ReportMetadata
  {
    guard let journal = fileJournal else {
      throw ReportError.cannotReport(
        "the store has no file journal: open it with Store.open to report its log")
    }
    // Before the mark: a destination that cannot be written changes nothing, the log included.
    try ReportDraft.checkDestination(path)
    if !isClosed { mark("reported") }
    try journal.flush()
    return try ReportBundle.write(
      log: journal.directory, key: journal.options.chainKey, from: first, options: options, to: path)
  }
}
