import Dispatch
import Rewind

/// Everything the committer shares with appenders, waiters and readers, and the only code that changes it.
///
/// One state machine: appending, waiting, committing, failing and closing are named transitions that run
/// under the committer's lock and return what to do after unlocking (wake the committer thread, resume
/// waiters, tell status observers). Every waiter, whatever it waits for, is decided by one rule
/// (``outcome(_:through:)``): served once its progress is reached, woken with the failure once the journal
/// failed or closed, never left waiting on a journal that can no longer make progress.
struct CommitterState {
  /// Encoded records waiting for the committer, one frame's worth.
  struct Group {
    var records = ByteWriter(capacity: 4096)
    var count: UInt32 = 0
    var first: UInt64 = 0
  }

  /// What a waiter waits for: its events handed to the operating system, or synced.
  enum Progress { case written, durable }

  /// A waiter: a suspended task or a blocked thread.
  struct Waiter {
    var progress: Progress
    var target: UInt64
    var wake: Wake
  }

  /// How a waiter is resumed.
  enum Wake {
    case task(CheckedContinuation<Void, any Error>)
    case thread(BlockedThread)
  }

  /// A thread blocked in ``Committer/wait(for:through:)``: its semaphore and the result it is woken with.
  final class BlockedThread: @unchecked Sendable {  // `result` is written once before `semaphore` signals.
    let semaphore = DispatchSemaphore(value: 0)
    var result: Result<Void, FileJournalError> = .success(())
  }

  /// A batch of work for the committer thread.
  struct Work {
    var groups: [Group]
    var sync: Bool
  }

  /// What to do after unlocking: waiters to resume with their outcome, status observers to tell.
  struct Wakeups {
    var waiters: [(Waiter, Result<Void, FileJournalError>)] = []
    var observers: [AsyncStream<DurabilityStatus>.Continuation] = []
    /// What the observers are told before they are finished; `nil` finishes them without a word.
    var status: DurabilityStatus?
    /// Called when the commit rolled to a new segment: retention may cut now.
    var rolled: (@Sendable () -> Void)?

    var isEmpty: Bool { waiters.isEmpty && observers.isEmpty }
  }

  /// An event the journal would not take (too large, or not encodable), while it is still the next one.
  struct Refusal {
    var sequence: UInt64
    var error: FileJournalError
  }

  private(set) var lastAppended: UInt64
  private(set) var written: UInt64
  private(set) var durable: UInt64
  /// The write or sync that failed; sticky: nothing is retried after it.
  private(set) var failure: IOError?
  /// The frames still in the log (retention drops the ones it cut), oldest first.
  private(set) var frames: [FrameLocation]
  /// The names of the segments from ``segmentBase`` on: a frame's segment index counts from the first
  /// segment the journal opened, so it stays valid when retention removes segments before it.
  private(set) var segments: [String]
  /// The chain value before `frames[0]`.
  private(set) var chainBeforeFrames: SHA256.Digest?
  /// Set while the frames before the one the open started at are not indexed (see
  /// ``indexPrefix(_:chainBefore:)``).
  private(set) var unindexedBefore: ScanStart?
  private(set) var segmentBase = 0
  /// The newest cut retention made (or the one the log was opened with).
  private(set) var cut: CutAnchor?
  private(set) var snapshotHandler: (@Sendable (UInt64) -> Void)?
  private var rollHandler: (@Sendable () -> Void)?
  private var refusal: Refusal?
  private var open = Group()
  private var ready: [Group] = []
  /// The highest sequence number a `.durable` waiter asked for: the committer syncs for it even when
  /// its durability level does not sync on its own.
  private var syncRequested: UInt64 = 0
  /// Set by ``beginClose()``: the committer drains what is queued, then stops.
  private(set) var closing = false
  /// Set by ``finishClose()``: the committer has stopped; no waiter can be served any more.
  private var stopped = false
  /// Whether the committer thread sleeps and must be signalled for new work.
  private var idle = true
  private(set) var waiters: [Waiter] = []
  /// Told once when durability is lost, then finished; finished at close.
  private(set) var observers: [AsyncStream<DurabilityStatus>.Continuation] = []

  init(
    lastSequence: UInt64, frames: [FrameLocation], segments: [String], cut: CutAnchor? = nil,
    chainBeforeFrames: SHA256.Digest? = nil, unindexedBefore: ScanStart? = nil
  ) {
    (lastAppended, written, durable) = (lastSequence, lastSequence, lastSequence)
    self.frames = frames
    self.segments = segments
    self.cut = cut
    self.chainBeforeFrames = chainBeforeFrames
    self.unindexedBefore = unindexedBefore
  }

  /// Adds the frames before the one the open started at, read later by a scan that stopped there; each
  /// with the name of its segment.
  mutating func indexPrefix(_ prefix: [(FrameLocation, segment: String)], chainBefore: SHA256.Digest?) {
    guard unindexedBefore != nil else { return }
    let located = prefix.compactMap { frame, name -> FrameLocation? in
      guard let index = segments.firstIndex(of: name) else { return nil }
      var frame = frame
      frame.segment = index + segmentBase
      return frame
    }
    frames.insert(contentsOf: located, at: 0)
    chainBeforeFrames = chainBefore
    unindexedBefore = nil
    checkInvariantsIfEnabled()
  }

  /// The index of the frame that holds event `sequence`, if it is indexed.
  func frameIndex(containing sequence: UInt64) -> Int? {
    var low = 0
    var high = frames.count
    while low < high {
      let mid = (low + high) / 2
      if frames[mid].lastSequence < sequence { low = mid + 1 } else { high = mid }
    }
    return low < frames.count && frames[low].firstSequence <= sequence ? low : nil
  }

  /// The chain value before frame `index`.
  func chain(before index: Int) -> SHA256.Digest? {
    index == 0 ? chainBeforeFrames : frames[index - 1].chain
  }

  /// The name of the segment with index `index` (a ``FrameLocation/segment``).
  func segmentName(_ index: Int) -> String { segments[index - segmentBase] }

  /// How many waiters are queued (for tests that queue them before a failure).
  var queuedWaiterCount: Int { waiters.count }

  /// Whether durability is still kept, and through which event.
  var status: DurabilityStatus {
    failure.map { .lost($0, durableThrough: durable) } ?? .healthy(durableThrough: durable)
  }

  // MARK: Appending

  /// Takes the encoded `record` of event `sequence` into the open group.
  /// - Returns: whether to wake the committer, and the snapshot handler to call when a snapshot is due.
  /// - Throws: ``FileJournalError/durabilityLost(_:)`` after a failure, ``FileJournalError/closed``, or
  ///   `JournalError.sequenceGap`.
  mutating func append(_ record: [UInt8], sequence: UInt64, snapshotInterval: UInt64?) throws -> (
    wake: Bool, snapshotDue: (@Sendable (UInt64) -> Void)?
  ) {
    if let failure { throw FileJournalError.durabilityLost(failure) }
    if closing { throw FileJournalError.closed }
    guard sequence == lastAppended + 1 else {
      throw JournalError.sequenceGap(expected: lastAppended + 1, received: sequence)
    }
    if open.count > 0, open.records.bytes.count + record.count > Frame.targetRecordBytes {
      ready.append(open)
      open = Group()
    }
    if open.count == 0 { open.first = sequence }
    open.records.append(record)
    open.count += 1
    lastAppended = sequence
    defer { checkInvariantsIfEnabled() }
    let due = snapshotInterval.map { sequence % $0 == 0 } ?? false
    return (takeIdle(), due ? snapshotHandler : nil)
  }

  /// Records that event `sequence` was refused (and so was not appended): waiting for it, or for any later
  /// event, ends with `error` rather than with a promise about events the journal never had.
  mutating func refuse(_ sequence: UInt64, because error: FileJournalError) {
    // Only the next event can be refused: a misnumbered one would have been refused for its number.
    guard sequence == lastAppended + 1 else { return }
    refusal = Refusal(sequence: sequence, error: error)
    checkInvariantsIfEnabled()
  }

  mutating func setSnapshotHandler(_ handler: @escaping @Sendable (UInt64) -> Void) {
    snapshotHandler = handler
    checkInvariantsIfEnabled()
  }

  mutating func setRollHandler(_ handler: @escaping @Sendable () -> Void) {
    rollHandler = handler
    checkInvariantsIfEnabled()
  }

  // MARK: Retention

  /// Records a cut whose record is durable: events through `anchor.throughSequence` and the oldest
  /// `count` segments leave the log (readers asking for them get ``FileJournalError/eventsCut(requested:cut:)``).
  mutating func applyCut(_ anchor: CutAnchor, removingSegments count: Int) {
    precondition(count < segments.count, "the active segment is never cut")
    let kept = frames.firstIndex { $0.lastSequence > anchor.throughSequence } ?? frames.count
    frames.removeFirst(kept)
    segments.removeFirst(count)
    segmentBase += count
    cut = anchor
    // The first kept frame starts a segment, so it continues the chain value the cut recorded; a prefix
    // not yet indexed (an open from a snapshot) now starts at the cut, or is gone with it.
    if kept > 0 { chainBeforeFrames = anchor.chain }
    if let start = unindexedBefore, anchor.throughSequence + 1 >= start.frameFirstSequence {
      unindexedBefore = nil
      chainBeforeFrames = anchor.chain
    }
    checkInvariantsIfEnabled()
  }

  // MARK: Waiting

  /// What a waiter for `progress` through `target` gets now; `nil` while it must wait.
  ///
  /// The one rule for every waiter: served once reached; otherwise woken with the refusal of an event it
  /// covers, the failure that stopped the committer, the fact that its events were never appended, or
  /// the journal's closing; otherwise it waits.
  func outcome(_ progress: Progress, through target: UInt64) -> Result<Void, FileJournalError>? {
    if (progress == .written ? written : durable) >= target { return .success(()) }
    if let refusal, refusal.sequence > lastAppended, target >= refusal.sequence {
      return .failure(refusal.error)
    }
    if let failure { return .failure(.durabilityLost(failure)) }
    if target > lastAppended { return .failure(.notAppended(sequence: target, lastAppended: lastAppended)) }
    if stopped { return .failure(.closed) }
    return nil
  }

  /// Queues `waiter`, unless its outcome is already known.
  /// - Returns: `.resume` with the outcome to give it now, or `.queued` with whether to wake the committer.
  mutating func wait(_ waiter: Waiter) -> WaitAction {
    if let outcome = outcome(waiter.progress, through: waiter.target) { return .resume(waiter, outcome) }
    waiters.append(waiter)
    if waiter.progress == .durable { syncRequested = max(syncRequested, waiter.target) }
    defer { checkInvariantsIfEnabled() }
    return .queued(wake: takeIdle())
  }

  enum WaitAction {
    case resume(Waiter, Result<Void, FileJournalError>)
    case queued(wake: Bool)
  }

  /// Adds a status observer.
  /// - Returns: the status to tell it now, and whether to finish it at once (durability already lost, or
  ///   the journal closed).
  mutating func observe(_ observer: AsyncStream<DurabilityStatus>.Continuation) -> (
    status: DurabilityStatus?, finish: Bool
  ) {
    if failure != nil { return (status, true) }
    if closing || stopped { return (nil, true) }
    observers.append(observer)
    checkInvariantsIfEnabled()
    return (status, false)
  }

  // MARK: The committer thread

  /// Hands the committer everything queued, or marks it idle and returns `nil` when there is nothing.
  /// After a failure, queued groups are dropped: nothing more is written to a poisoned log.
  mutating func takeWork(syncsEveryCommit: Bool) -> Work? {
    defer { checkInvariantsIfEnabled() }
    if open.count > 0 {
      ready.append(open)
      open = Group()
    }
    if failure != nil { ready.removeAll() }
    let wantsSync = failure == nil && (syncsEveryCommit || syncRequested > durable)
    let needsSync = wantsSync && written > durable
    if ready.isEmpty && !needsSync {
      idle = true
      return nil
    }
    defer { ready.removeAll() }
    return Work(groups: ready, sync: wantsSync)
  }

  /// Publishes a commit: the frames written (each with the name of its segment, as a batch may roll to
  /// new segments), whether they were synced, and the failure that stopped it, if any.
  /// - Returns: the waiters now decided and, after a failure, the observers to tell.
  mutating func committed(
    _ frames: [(FrameLocation, segment: String)], synced: Bool, failure newFailure: IOError?
  ) -> Wakeups {
    var wakeups = Wakeups()
    for (location, segment) in frames {
      if segmentBase + segments.count <= location.segment {
        segments.append(segment)
        wakeups.rolled = rollHandler
      }
      self.frames.append(location)
      written = location.lastSequence
    }
    if synced { durable = written }
    if let newFailure, failure == nil {
      failure = newFailure
      swap(&wakeups.observers, &observers)
      wakeups.status = status
    }
    wakeups.waiters = decideWaiters()
    checkInvariantsIfEnabled()
    return wakeups
  }

  /// Resumes the waiters whose outcome is known and keeps the others.
  private mutating func decideWaiters() -> [(Waiter, Result<Void, FileJournalError>)] {
    var decided: [(Waiter, Result<Void, FileJournalError>)] = []
    var pending: [Waiter] = []
    for waiter in waiters {
      if let outcome = outcome(waiter.progress, through: waiter.target) {
        decided.append((waiter, outcome))
      } else {
        pending.append(waiter)
      }
    }
    waiters = pending
    return decided
  }

  // MARK: Closing

  /// Starts closing: appends are refused, the committer drains what is queued and stops.
  /// - Returns: whether to wake the committer.
  mutating func beginClose() -> Bool {
    closing = true
    defer { checkInvariantsIfEnabled() }
    return takeIdle()
  }

  /// Called once the committer thread has stopped: every waiter still queued ends with
  /// ``FileJournalError/closed`` (or the failure), and every observer is finished.
  mutating func finishClose() -> Wakeups {
    stopped = true
    var wakeups = Wakeups()
    wakeups.waiters = decideWaiters()
    swap(&wakeups.observers, &observers)
    checkInvariantsIfEnabled()
    return wakeups
  }

  /// Marks the committer busy and says whether it must be woken.
  private mutating func takeIdle() -> Bool {
    guard idle else { return false }
    idle = false
    return true
  }
}
