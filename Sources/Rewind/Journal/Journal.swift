/// Where a store writes its events: in memory by default, or a durable file journal.
///
/// The store is the only writer. It calls ``append(_:)`` once per event, in sequence order, while it holds
/// its state lock, so an implementation must be quick and must not call back into the store.
public protocol Journal<Action>: AnyObject, Sendable {
  /// The actions the events carry.
  associatedtype Action: Sendable

  /// The sequence number of the newest event, or 0 when empty.
  var lastSequence: UInt64 { get }

  /// Appends `event`, whose sequence number must be ``lastSequence`` + 1.
  /// - Throws: ``JournalError`` when the event cannot be taken; the store then keeps working in memory.
  func append(_ event: Event<Action>) throws

  /// Calls `body` with every event from `sequence` on, in order.
  func forEachEvent(from sequence: UInt64, _ body: (Event<Action>) throws -> Void) throws

  /// The events whose sequence numbers lie in `range`.
  func events(in range: ClosedRange<UInt64>) throws -> [Event<Action>]

  /// Suspends until every event through `sequence` is durable. A journal in memory returns at once.
  /// - Throws: when the journal can no longer make those events durable.
  func waitForDurability(through sequence: UInt64) async throws

  /// The error that stopped the journal from making events durable, if any; `nil` while healthy.
  var failure: (any Error)? { get }

  /// Makes every appended event durable and releases what the journal holds (files, locks, threads);
  /// later appends fail. ``Store/close()`` calls it. Calling it again does nothing.
  /// - Throws: when events could not be made durable.
  func close() throws
}

extension Journal {
  /// Returns at once: nothing to wait for.
  public func waitForDurability(through sequence: UInt64) async throws {}

  /// `nil`: a journal that refuses nothing on its own.
  public var failure: (any Error)? { nil }

  /// Does nothing: a journal that holds nothing outside memory.
  public func close() throws {}
}

/// Why a journal refused an event or could not be read.
public enum JournalError: Error, Hashable, CustomStringConvertible {
  /// An event's sequence number did not follow the newest one.
  case sequenceGap(expected: UInt64, received: UInt64)

  public var description: String {
    switch self {
    case .sequenceGap(let expected, let received):
      "journal expected event \(expected) next but was given \(received)"
    }
  }
}
