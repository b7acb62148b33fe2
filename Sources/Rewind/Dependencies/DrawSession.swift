import CRewind
import Foundation

/// The draws of the reduce running on this thread: a live send records what the reducer draws from
/// ``DependencyValues/uuid``, ``DependencyValues/date`` and ``DependencyValues/random``; a replay hands the
/// event's recorded values back, in order, kind by kind.
///
/// The store installs a session around each reduce through a thread variable (a reduce never suspends),
/// so a reducer's `@Dependency(\.uuid)` finds it without a lock or a task-local value, and a reduce that
/// draws nothing pays two stores and a load. A session belongs to one thread at a time: a store's live
/// session is used under its state lock, and every replay makes its own.
@usableFromInline
@safe
package final class DrawSession: @unchecked Sendable {
  // @unchecked: `state` is touched only by the thread that installed the session (see above).

  /// Where the next value of one kind is looked for among a replayed event's draws.
  @usableFromInline
  struct Cursor {
    /// The index in `draws` to search on from.
    @usableFromInline var position = 0
    /// How many values of this kind the reducer drew so far.
    @usableFromInline var drawn = 0

    @inlinable
    init() {}
  }

  @usableFromInline
  struct State {
    @usableFromInline var sequence: UInt64 = 0
    @usableFromInline var timestamp = Date(timeIntervalSinceReferenceDate: 0)
    /// Recording: what the reducer drew. Replaying: the event's recorded draws.
    @usableFromInline var draws: [RecordedDraw] = []
    @usableFromInline var uuid = Cursor()
    @usableFromInline var date = Cursor()
    @usableFromInline var random = Cursor()
    /// Replaying: the draws the event did not hold, reported after the reduce.
    @usableFromInline var unrecorded: [UnrecordedDraw] = []
    /// The overrides of the ``DependencyReducer``s the reduce is inside, outermost first.
    var overrides: [@Sendable (inout DependencyValues) -> Void] = []
    /// The store's values with `overrides` applied, once asked for.
    var resolved: DependencyValues?
  }

  /// Whether the session hands back recorded values rather than recording new ones.
  package let isReplaying: Bool
  /// The store's dependency values: what `@Dependency` reads during the reduce.
  @usableFromInline let base: DependencyValues
  /// Behind a pointer: a class's stored `var`s cost a dynamic exclusivity check per access. A store's
  /// send path writes the timestamp and reads the draws through it, without a call or a retain.
  @usableFromInline let state: UnsafeMutablePointer<State>

  /// A session that records (`replaying` false) or replays, reading `dependencies` for the reducer.
  @usableFromInline
  package init(replaying: Bool, dependencies: DependencyValues) {
    isReplaying = replaying
    base = dependencies
    unsafe state = .allocate(capacity: 1)
    unsafe state.initialize(to: State())
  }

  deinit {
    unsafe state.deinitialize(count: 1)
    unsafe state.deallocate()
  }

  // MARK: Installing

  /// The session of the reduce running on this thread, if any.
  @inlinable
  package static var current: DrawSession? {
    guard let raw = unsafe rewind_draw_session() else { return nil }
    return unsafe Unmanaged<DrawSession>.fromOpaque(raw).takeUnretainedValue()
  }

  /// Runs `body` (a reduce) with this session installed on the thread, then puts back the one before.
  @inlinable
  package func run<Result>(_ body: () throws -> Result) rethrows -> Result {
    let outer = unsafe rewind_draw_session()
    unsafe rewind_set_draw_session(Unmanaged.passUnretained(self).toOpaque())
    defer { unsafe rewind_set_draw_session(outer) }
    return try withExtendedLifetime(self) { try body() }
  }

  /// The session's address, as the thread variable holds it (the session must be kept alive).
  @usableFromInline
  var address: UnsafeMutableRawPointer { unsafe Unmanaged.passUnretained(self).toOpaque() }

  /// The draws recorded since the timestamp was set, leaving none; `nil` when there are none.
  @inlinable
  static func takeDraws(from state: UnsafeMutablePointer<State>) -> [RecordedDraw]? {
    if unsafe state.pointee.draws.isEmpty { return nil }
    return unsafe takeRecordedDraws(from: state)
  }

  /// A copy of the draws, exactly sized, the buffer kept for the next event's: one allocation per event
  /// that draws, rather than one per growth.
  @usableFromInline
  static func takeRecordedDraws(from state: UnsafeMutablePointer<State>) -> [RecordedDraw] {
    let taken = unsafe Array(state.pointee.draws)
    unsafe state.pointee.draws.removeAll(keepingCapacity: true)
    return taken
  }

  /// Starts replaying `event`'s draws. Inlinable, and free of reference counting for an event that drew
  /// nothing: recovery calls it for every event.
  @inlinable
  package func beginReplaying(_ event: Event<some Any>) {
    unsafe state.pointee.sequence = event.sequence
    unsafe state.pointee.timestamp = event.timestamp
    if let draws = event.recordedDraws {
      unsafe state.pointee.draws = draws
    } else if unsafe !state.pointee.draws.isEmpty {
      unsafe state.pointee.draws = []
    }
    unsafe state.pointee.uuid = Cursor()
    unsafe state.pointee.date = Cursor()
    unsafe state.pointee.random = Cursor()
  }

  /// The draws of the replayed event that were not recorded, leaving none; `nil` when there are none.
  @inlinable
  package func takeUnrecorded() -> [UnrecordedDraw]? {
    if unsafe state.pointee.unrecorded.isEmpty { return nil }
    var taken: [UnrecordedDraw] = []
    unsafe swap(&taken, &state.pointee.unrecorded)
    return taken
  }

  /// Replays `event`'s action with `reduce`, its draws handed back; returns the draws it lacked.
  package func replay<Action>(_ event: Event<Action>, _ reduce: (Action) -> Void) -> [UnrecordedDraw] {
    guard case .action(let action) = event.payload else { return [] }
    beginReplaying(event)
    run { reduce(action) }
    return takeUnrecorded() ?? []
  }

  // MARK: Dependencies

  /// The store's values with the overrides of the reducers around the running reduce, and the recorded
  /// generators resolved: made once, then again only after the overrides change.
  var dependencies: DependencyValues {
    if let resolved = unsafe state.pointee.resolved { return resolved }
    var values = base
    for update in unsafe state.pointee.overrides { update(&values) }
    values.recordedGenerators = RecordedGenerators(
      uuid: values[UUIDGeneratorKey.self], date: values[DateGeneratorKey.self],
      random: values[RandomGeneratorKey.self])
    unsafe state.pointee.resolved = values
    return values
  }

  /// Runs `body` inside a reducer whose dependencies `update` changes.
  @usableFromInline
  func withOverride<Result>(
    _ update: @escaping @Sendable (inout DependencyValues) -> Void, _ body: () -> Result
  )
    -> Result
  {
    unsafe state.pointee.overrides.append(update)
    unsafe state.pointee.resolved = nil
    defer {
      unsafe state.pointee.overrides.removeLast()
      unsafe state.pointee.resolved = nil
    }
    return body()
  }

  // MARK: Drawing

  /// A UUID: `generate`'s, recorded; or, replaying, the recorded one.
  func drawUUID(_ generate: () -> UUID) -> UUID {
    if isReplaying { return (replayed(.uuid) ?? substitute(.uuid)).uuid }
    let uuid = generate()
    unsafe state.pointee.draws.append(.uuid(uuid))
    return uuid
  }

  /// A date: the event's timestamp when `generate` is the system's date (one "now" per event, read from
  /// the store's clock), otherwise `generate`'s; recorded. Replaying: the recorded one.
  func drawDate(isSystem: Bool, _ generate: () -> Date) -> Date {
    if isReplaying { return (replayed(.date) ?? substitute(.date)).date }
    let date = unsafe isSystem ? state.pointee.timestamp : generate()
    unsafe state.pointee.draws.append(.date(date))
    return date
  }

  /// 64 random bits: `generate`'s, recorded; or, replaying, the recorded ones.
  func drawRandom(_ generate: () -> UInt64) -> UInt64 {
    if isReplaying { return (replayed(.random) ?? substitute(.random)).random }
    let bits = generate()
    unsafe state.pointee.draws.append(.random(bits))
    return bits
  }

  /// The next recorded value of `kind`, or `nil` when the event holds no more (the draw is still counted).
  private func replayed(_ kind: RecordedDraw.Kind) -> RecordedDraw? {
    var cursor = self.cursor(kind)
    defer { setCursor(cursor, kind) }
    cursor.drawn += 1
    let draws = unsafe state.pointee.draws
    while cursor.position < draws.count {
      let draw = draws[cursor.position]
      cursor.position += 1
      if draw.kind == kind { return draw }
    }
    return nil
  }

  private func cursor(_ kind: RecordedDraw.Kind) -> Cursor {
    switch kind {
    case .uuid: unsafe state.pointee.uuid
    case .date: unsafe state.pointee.date
    case .random: unsafe state.pointee.random
    }
  }

  private func setCursor(_ cursor: Cursor, _ kind: RecordedDraw.Kind) {
    switch kind {
    case .uuid: unsafe state.pointee.uuid = cursor
    case .date: unsafe state.pointee.date = cursor
    case .random: unsafe state.pointee.random = cursor
    }
  }

  /// The value a replay uses for the draw of `kind` just counted, which the event does not hold: the
  /// event's timestamp for a date, bits mixed from the event and the draw's place otherwise. Noted as an
  /// ``UnrecordedDraw``.
  private func substitute(_ kind: RecordedDraw.Kind) -> RecordedDraw {
    let index = cursor(kind).drawn - 1
    let sequence = unsafe state.pointee.sequence
    let substitute: RecordedDraw
    switch kind {
    case .uuid: substitute = .uuid(Self.substituteUUID(sequence: sequence, index: index))
    case .date: unsafe substitute = .date(state.pointee.timestamp)
    case .random: substitute = .random(Self.substituteBits(sequence: sequence, kind: 2, index: index))
    }
    unsafe state.pointee.unrecorded.append(
      UnrecordedDraw(
        sequence: sequence, kind: kind, index: index,
        recorded: state.pointee.draws.count { $0.kind == kind }, substitute: substitute))
    return substitute
  }

  // MARK: Substitutes

  /// 64 bits mixed from the event, the kind and the draw's index: the same on every replay, by any build.
  static func substituteBits(sequence: UInt64, kind: UInt64, index: Int) -> UInt64 {
    splitMix(splitMix(sequence &+ kind &* 0x9E37_79B9_7F4A_7C15) &+ UInt64(truncatingIfNeeded: index))
  }

  /// A version 8 (custom) UUID made from ``substituteBits(sequence:kind:index:)``.
  static func substituteUUID(sequence: UInt64, index: Int) -> UUID {
    let high = substituteBits(sequence: sequence, kind: 0, index: index)
    let low = splitMix(high)
    var bytes = unsafe withUnsafeBytes(of: high.bigEndian) { unsafe Array($0) }
    unsafe bytes += withUnsafeBytes(of: low.bigEndian) { unsafe Array($0) }
    bytes[6] = (bytes[6] & 0x0F) | 0x80
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    return UUID(
      uuid: (
        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
        bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
      ))
  }

  /// The SplitMix64 output that follows state `value`: the state advanced by the golden gamma, then mixed
  /// (a bijection that spreads every input bit over the output).
  static func splitMix(_ value: UInt64) -> UInt64 {
    var z = value &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

extension RecordedDraw {
  /// The UUID of a `.uuid` draw (the zero UUID otherwise).
  fileprivate var uuid: UUID {
    if case .uuid(let uuid) = self { return uuid }
    return UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
  }

  /// The date of a `.date` draw (the reference date otherwise).
  fileprivate var date: Date {
    if case .date(let date) = self { return date }
    return Date(timeIntervalSinceReferenceDate: 0)
  }

  /// The bits of a `.random` draw (0 otherwise).
  fileprivate var random: UInt64 {
    if case .random(let bits) = self { return bits }
    return 0
  }
}

/// The three recorded generators of some dependency values, looked up once (see
/// `DependencyValues.recordedGenerators`).
final class RecordedGenerators: Sendable {
  let uuid: UUIDGenerator
  let date: DateGenerator
  let random: RandomGenerator

  init(uuid: UUIDGenerator, date: DateGenerator, random: RandomGenerator) {
    self.uuid = uuid
    self.date = date
    self.random = random
  }
}
