import Foundation
import Rewind
import RewindLog

/// The scripted session: a realistic run of the inbox that prints what happens at every layer (the
/// events recorded, the changesets the list subscriber receives), then closes the log, reopens it and
/// checks that replay restored the same state and that the hash chain verifies.
///
/// Run repeatedly in one directory, it continues the same log: it first sends `resetToSample` (an event
/// like any other; nothing is deleted or rewritten), so every run plays the same session.
public struct InboxScript {
  /// The log directory.
  public var directory: String
  /// Where each line of output goes.
  public var output: (String) -> Void

  /// Creates a script writing to `output`.
  public init(directory: String, output: @escaping (String) -> Void) {
    self.directory = directory
    self.output = output
  }

  /// What the run established.
  public struct Outcome: Sendable, Equatable {
    /// Whether the reopened store's state equals the state before closing.
    public var sameState: Bool
    /// The log's verification report.
    public var verification: String
  }

  /// Plays the session.
  /// - Throws: the journal's errors (a locked, corrupted or tampered log; a failed write).
  public func run() async throws -> Outcome {
    let session = try InboxSession.open(directory: directory)
    let path = URL(fileURLWithPath: directory).standardizedFileURL.path
    output("Rewind Inbox: scripted session, event log in \(path)")
    if session.journal.lastSequence == 0 {
      output("A new log: the inbox starts from the sample mails.")
    } else {
      output("The log already holds \(session.journal.lastSequence) events (replayed on open).")
      output("Back to the sample inbox with one more event; nothing is deleted or rewritten.")
      session.send(.resetToSample)
      try printEvents(session.journal.events(in: session.store.sequence...session.store.sequence))
    }
    var subscriber = ListSubscriber(session.store)
    _ = await subscriber.next()
    // The list's views, as a screen holds them: one per row store, told only of their own row.
    let views = await InboxListViews(store: session.store)
    output("")
    show(session.state, at: session.now)
    output(
      "list subscriber ← initial: \(subscriber.rows.count) rows "
        + subscriber.rows.map { "#\($0.id)" }.joined(separator: " "))

    try await step("Swipe row #2 to the right: its Flag button opens", session, &subscriber, views) { note in
      session.swipe(2, .right)
      let started = session.state.list.rows[id: 2]?.swipe
      if let started, let end = started.animationEnd {
        // Sampled as a screen would draw it: no frame is sent.
        let halfway = started.offset(at: session.now + (end - session.now) / 2)
        note(
          "halfway through the animation the row is drawn at \(InboxAction.points(halfway)) pt; no frame is recorded"
        )
      }
      try await session.settle()
    }
    try await step("Tap Flag on row #2", session, &subscriber, views) { note in
      session.tap(.flag, on: 2)
      try await session.settle()
    }
    try await step("Swipe row #3 all the way left: Archive expands and fires", session, &subscriber, views) {
      note in
      session.fullSwipe(3)
      try await session.settle()
      if let archive = try lastEvent(session, where: { $0 == .archive(id: 3) }) {
        note("who archived #3? " + (try causeChain(of: archive, session)))
      }
    }
    try await step("Edit the subject of #1: delete it all and press Return", session, &subscriber, views) {
      note in
      session.beginEdit()
      session.clearText()
      session.commitEdit()
      note("refused, still editing: \(session.state.notice ?? "?")")
    }
    try await step("Type a new subject, wait for auto-save, press Return", session, &subscriber, views) {
      note in
      session.type("Lunch on Friday at noon?")
      let tooLong = String(repeating: "!", count: InboxFeature.maxSubjectLength)
      session.type(tooLong)
      let edit = session.state.list.rows[id: 1]?.edit
      note(
        "a \(tooLong.count)-character paste is refused by the length limit: \(edit?.characterCount?.text ?? "")"
      )
      try await session.wait(seconds: InboxFeature.autoSaveInterval + 0.5)
      note("auto-saved draft: “\(session.state.selectedMail?.draft ?? "none")”")
      let saved = session.commitEdit()
      note((saved ? "saved: “\(session.state.selectedMail?.subject ?? "")”" : "not saved"))
    }
    try await step("Scroll the attachments carousel of #1 by one", session, &subscriber, views) { note in
      session.scrollCarousel(by: 1)
      try await session.settle()
      note("carousel: \(carouselPosition(session.state))")
    }
    try await step("Undo (\(session.store.undoStepName ?? "nothing"))", session, &subscriber, views) { note in
      session.undo()
      note(
        "subject: “\(session.state.selectedMail?.subject ?? "")”; carousel: \(carouselPosition(session.state))"
      )
      note("(an undo restores the state before the step, the later scroll included)")
    }
    try await step("Redo (\(session.store.redoStepName ?? "nothing"))", session, &subscriber, views) { note in
      session.redo()
      note("subject: “\(session.state.selectedMail?.subject ?? "")”")
    }
    try await step(
      "Undo again (\(session.store.undoStepName ?? "nothing")), then close the store", session, &subscriber,
      views
    ) { note in
      session.undo()
    }

    let closed = session.state
    let closedAt = session.now
    let lastSequence = session.store.sequence
    let redoName = session.store.redoStepName
    try session.close()
    output("")
    output("Closed: \(lastSequence) events synced to \(path).")
    show(closed, at: closedAt)

    let reopened = try InboxSession.open(directory: directory)
    let same = reopened.state == closed
    output(
      "Reopened: replayed \(reopened.journal.recoveryReport.lastSequence) events from the log: "
        + (same ? "same state ✓" : "DIFFERENT state ✗"))
    output(
      "Undo history survived: redo “\(reopened.store.redoStepName ?? "nothing")” is still available"
        + (reopened.store.redoStepName == redoName ? "." : " (expected “\(redoName ?? "nothing")”) ✗"))
    try reopened.close()

    // Any problem is an error here: the script has just written this log.
    let report = try LogAudit.verify(directory: directory).requireIntact()
    output(
      "Verified \(report.lastSequence) events in \(report.frameCount) frames, \(report.segmentCount) segment(s); "
        + "head \(report.head.map { String($0.chain.description.prefix(16)) + "…" } ?? "none"): chain verified ✓"
    )
    return Outcome(sameState: same, verification: report.description)
  }

  /// Runs `body`, then prints the events it recorded, the list updates it caused and its notes.
  func step(
    _ title: String, _ session: InboxSession, _ subscriber: inout ListSubscriber, _ views: InboxListViews,
    _ body: (_ note: (String) -> Void) async throws -> Void
  ) async throws {
    output("")
    output("▸ \(title)")
    let first = session.store.sequence + 1
    var notes: [String] = []
    try await body { notes.append($0) }
    for diagnostic in session.takeDiagnostics() { output("  diagnostic: \(diagnostic)") }
    if session.store.sequence >= first {
      try printEvents(session.journal.events(in: first...session.store.sequence))
    }
    while subscriber.hasUpdate(for: session.state.list.rows) {
      let previous = subscriber.rows
      guard let update = await subscriber.next() else { break }
      output("  list subscriber ← " + update.summary(previous: previous))
    }
    output("  views told: " + (await views.update()))
    for note in notes { output("  → " + note) }
  }

  /// Prints events one per line (there are no display frames among them).
  func printEvents(_ events: [Event<InboxAction>]) {
    for event in events { output("  " + event.summary) }
  }

  /// The latest of the last 64 events whose action matches `matches`, if any.
  func lastEvent(_ session: InboxSession, where matches: (InboxAction) -> Bool) throws -> Event<InboxAction>?
  {
    let last = session.store.sequence
    guard last > 0 else { return nil }
    let recent = try session.journal.events(in: (last > 64 ? last - 63 : 1)...last)
    return recent.last { event in event.action.map(matches) ?? false }
  }

  /// `#58 archive #3 ← #57 swipe #3 animation 2 finished ← #56 swipe #3 panEnded(x: -258) by you`: the
  /// causes an auditor follows back from `event` to what a person (or the system) did.
  func causeChain(of event: Event<InboxAction>, _ session: InboxSession) throws -> String {
    var links: [String] = []
    var current = event
    while true {
      let what = current.action?.summary ?? "\(current.payload)"
      guard case .effect(let cause) = current.metadata.source, cause < current.sequence,
        let next = try session.journal.events(in: cause...cause).first
      else {
        let who =
          switch current.metadata.source {
          case .user: "by \(current.metadata.actor ?? "a person")"
          case .system: "by the system"
          case .effect(let cause): "(cause #\(cause) not found)"
          }
        links.append("#\(current.sequence) \(what) \(who)")
        return links.joined(separator: " ← ")
      }
      links.append("#\(current.sequence) \(what)")
      current = next
    }
  }

  func show(_ state: InboxState, at now: Double) {
    for line in InboxScreen(styled: false).lines(for: state, header: "Inbox", at: now).dropLast(2)
    where !line.isEmpty {
      output("  " + line)
    }
  }

  func carouselPosition(_ state: InboxState) -> String {
    guard let mail = state.selectedMail, !mail.attachments.isEmpty else { return "no attachments" }
    let index = state.carousel.currentItemIndex
    return "item \(index + 1) of \(mail.attachments.count) (\(mail.attachments[index].name))"
  }
}
