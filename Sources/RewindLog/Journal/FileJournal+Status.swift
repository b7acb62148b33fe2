import Rewind

// Status: how far appending and durability have got, and whether durability was lost.
extension FileJournal {
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
}
