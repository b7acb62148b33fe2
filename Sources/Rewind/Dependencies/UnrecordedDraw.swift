/// A replayed reducer drew a value that its event does not hold: the build replaying the event draws
/// more than the build that recorded it did, so the replay used a substitute.
///
/// The substitute is deterministic (the same on every replay, by any build): for a date, the event's
/// timestamp; for a UUID or random bits, a value mixed from the event's sequence number and the draw's
/// place. A replay that ends on such an event may still differ from the state the recording build
/// reached: it is a behaviour change between builds, reported so that it can be looked at. Drawing fewer
/// values than were recorded is not reported: the values left over are simply not used.
///
/// Reported through the store's diagnostics handler as a ``Diagnostic`` of kind
/// ``Diagnostic/Kind/unrecordedDraw`` (once per event and draw for a store's life), and to the
/// `unrecorded` handler of ``Reducer/apply(_:to:unrecorded:)``.
public struct UnrecordedDraw: Sendable, Hashable, CustomStringConvertible {
  /// The event being replayed.
  public var sequence: UInt64
  /// The dependency drawn from.
  public var kind: RecordedDraw.Kind
  /// The draw's place among the event's draws of this kind, from 0.
  public var index: Int
  /// How many values of this kind the event holds.
  public var recorded: Int
  /// The value the replay used instead.
  public var substitute: RecordedDraw

  /// Describes a draw of `kind`, the `index`-th, that event `sequence` (holding `recorded` of that kind)
  /// did not hold.
  public init(sequence: UInt64, kind: RecordedDraw.Kind, index: Int, recorded: Int, substitute: RecordedDraw)
  {
    self.sequence = sequence
    self.kind = kind
    self.index = index
    self.recorded = recorded
    self.substitute = substitute
  }

  public var description: String {
    "replaying event \(sequence), the reducer drew \(kind.rawValue) number \(index + 1), but the event "
      + "records \(recorded); the replay used \(substitute) instead (this build draws more than the one "
      + "that recorded the event)"
  }
}

/// Hands a store's unrecorded draws to its diagnostics handler, each once: a time travel that replays
/// the same event again does not report it again.
@usableFromInline
final class UnrecordedDrawReporter: Sendable {
  private struct Key: Hashable {
    var sequence: UInt64
    var kind: RecordedDraw.Kind
    var index: Int
  }

  private let reported = Locked<Set<Key>>([])
  private let diagnostics: @Sendable (Diagnostic) -> Void

  @usableFromInline
  init(diagnostics: @escaping @Sendable (Diagnostic) -> Void) {
    self.diagnostics = diagnostics
  }

  /// Reports the draws in `draws` not reported before. Call outside the store's locks.
  @usableFromInline
  func report(_ draws: [UnrecordedDraw]) {
    if draws.isEmpty { return }
    let new = reported.withLock { reported in
      draws.filter { reported.insert(Key(sequence: $0.sequence, kind: $0.kind, index: $0.index)).inserted }
    }
    for draw in new { diagnostics(Diagnostic(draw)) }
  }
}
