import Synchronization

/// A journal that keeps its events in memory: the default for a store.
///
/// Events are kept in fixed-size chunks, so a long history grows without ever copying what it holds.
public final class InMemoryJournal<Action: Sendable>: Journal {
  @usableFromInline
  struct Chunks {
    @usableFromInline var chunks: [[Event<Action>]] = []
    @usableFromInline var count = 0

    @inlinable
    init() {}
  }

  @usableFromInline static var chunkSize: Int { 4096 }

  @usableFromInline let storage = Locked(Chunks())

  /// Creates an empty journal.
  public init() {}

  /// Creates a journal holding `events`, which must be numbered 1, 2, 3, …
  /// - Throws: ``JournalError/sequenceGap(expected:received:)`` when they are not.
  public init(events: some Sequence<Event<Action>>) throws {
    for event in events { try append(event) }
  }

  public var lastSequence: UInt64 {
    storage.withLock { UInt64($0.count) }
  }

  /// The number of events held.
  public var count: Int { storage.withLock { $0.count } }

  @inlinable
  public func append(_ event: Event<Action>) throws { try append(moving: event) }

  /// Appends `event`, moving it into storage rather than copying it: the store's send path.
  @inlinable
  func append(moving event: consuming Event<Action>) throws {
    try storage.withLock(moving: event) { storage, event throws(JournalError) in
      let expected = UInt64(storage.count) + 1
      guard event.sequence == expected else {
        throw JournalError.sequenceGap(expected: expected, received: event.sequence)
      }
      if storage.count % Self.chunkSize == 0 {
        var chunk: [Event<Action>] = []
        chunk.reserveCapacity(Self.chunkSize)
        storage.chunks.append(chunk)
      }
      storage.chunks[storage.chunks.count - 1].append(event)
      storage.count += 1
    }
  }

  public func forEachEvent(from sequence: UInt64, _ body: (Event<Action>) throws -> Void) throws {
    // Copy under the lock (copy-on-write, O(chunks)), iterate outside it so `body` may take its time.
    let (chunks, count) = storage.withLock { ($0.chunks, $0.count) }
    var index = Int(clamping: max(sequence, 1) - 1)
    while index < count {
      try body(chunks[index / Self.chunkSize][index % Self.chunkSize])
      index += 1
    }
  }

  public func events(in range: ClosedRange<UInt64>) throws -> [Event<Action>] {
    storage.withLock { storage in
      let lower = Int(clamping: max(range.lowerBound, 1) - 1)
      let upper = Int(clamping: min(range.upperBound, UInt64(storage.count)))
      guard lower < upper else { return [] }
      return (lower..<upper).map { storage.chunks[$0 / Self.chunkSize][$0 % Self.chunkSize] }
    }
  }

  /// Every event, in order.
  public var allEvents: [Event<Action>] {
    storage.withLock { $0.chunks.flatMap { $0 } }
  }
}
