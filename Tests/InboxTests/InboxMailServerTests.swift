import Foundation
import InboxCore
import Rewind
import RewindTestSupport
import RewindTesting
import Synchronization
import Testing

/// The inbox's mail server is a dependency: the tests give their own.
@Suite(.timeLimit(.minutes(1))) struct InboxMailServerTests {
  /// A server that delivers `subjects` as new mail after the id it is asked about, counting its calls.
  final class FakeServer: Sendable {
    let calls = Mutex<[Int]>([])
    let subjects: [String]

    init(_ subjects: [String]) { self.subjects = subjects }

    var server: MailServer {
      MailServer { [self] after in
        calls.withLock { $0.append(after) }
        return subjects.enumerated().map {
          Mail(id: after + 1 + $0.offset, sender: "Test", subject: $0.element)
        }
      }
    }
  }

  struct Offline: Error, CustomStringConvertible {
    var description: String { "offline" }
  }

  @Test func getMailAppendsWhatTheServerDeliversAndTheLogReplaysWithoutIt() async throws {
    let directory = TemporaryDirectory("mail-server", create: false)
    let fake = FakeServer(["Welcome", "Your receipt"])
    let session = try InboxSession.open(directory: directory.path, mailServer: fake.server)
    let before = session.state.list.rows.ids
    await session.getMail()
    let highest = before.max() ?? 0
    #expect(fake.calls.withLock { $0 } == [highest])
    #expect(session.state.list.rows.ids == before + [highest + 1, highest + 2])
    #expect(session.state.list.rows[id: highest + 1]?.item.subject == "Welcome")
    #expect(session.state.notice == "2 new mails")
    let received = try #require(
      session.journal.events(in: 1...session.store.sequence).last {
        if case .received = $0.action { true } else { false }
      })
    let asked = try #require(
      session.journal.events(in: 1...session.store.sequence).last { $0.action == .getMail })
    #expect(received.metadata.source == .effect(cause: asked.sequence), "the mail is caused by the request")
    #expect(session.store.undoStepName == "Get Mail")
    let state = session.state
    try session.close()

    // The delivered mail is in the log: reopening replays it and asks no server.
    let unreachable = FakeServer([])
    let reopened = try InboxSession.open(
      directory: directory.path,
      mailServer: MailServer { _ in
        unreachable.calls.withLock { $0.append(-1) }
        throw Offline()
      })
    #expect(reopened.state.list.rows.ids == state.list.rows.ids)
    #expect(reopened.state.mails == state.mails)
    #expect(unreachable.calls.withLock { $0 }.isEmpty)
    try reopened.close()
  }

  @Test func anUnreachableServerLeavesANotice() async throws {
    let directory = TemporaryDirectory("mail-server-offline", create: false)
    let session = try InboxSession.open(
      directory: directory.path, mailServer: MailServer { _ in throw Offline() })
    let rows = session.state.list.rows.ids
    await session.getMail()
    #expect(session.state.list.rows.ids == rows)
    #expect(session.state.notice == "Could not get mail: offline")
    #expect(session.takeDiagnostics().isEmpty)
    try session.close()
  }

  @Test func aTestStoreReplacesTheServer() async {
    let fake = FakeServer(["Hello"])
    let store = TestStore(initialState: InboxState.sample, reducer: InboxFeature()) {
      $0.mailServer = fake.server
    }
    store.exhaustivity = .off
    let next = (InboxState.sample.list.rows.ids.max() ?? 0) + 1
    store.send(.getMail)
    await store.receive(where: { if case .received = $0 { true } else { false } }) {
      $0.notice = "1 new mail"
    }
    #expect(store.state.list.rows[id: next]?.item.subject == "Hello")
    await store.finish()
  }

  @Test func aTestThatGetsMailWithoutAServerFails() async {
    let store = TestStore(initialState: InboxState.sample, reducer: InboxFeature())
    store.exhaustivity = .off
    await withKnownIssue(
      "TestStore's own failure, on purpose: the mail server dependency is left unimplemented"
    ) {
      store.send(.getMail)
      await store.receive(where: { if case .getMailFailed = $0 { true } else { false } })
      await store.finish()
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("MailServer.fetchMail") }
    }
  }
}
