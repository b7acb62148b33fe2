import Foundation
import Rewind
import RewindTesting
import Testing

/// A mail server client: the kind of dependency a feature's effects call.
struct FakeServer: Sendable {
  var fetch: @Sendable (_ folder: String) async throws -> [String]
}

enum FakeServerKey: DependencyKey {
  static let liveValue = FakeServer(fetch: { _ in ["live mail"] })
  static let testValue = FakeServer(fetch: unimplemented("FakeServer.fetch"))
}

extension DependencyValues {
  var fakeServer: FakeServer {
    get { self[FakeServerKey.self] }
    set { self[FakeServerKey.self] = newValue }
  }
}

/// Loads a folder through the server after a delay on the clock dependency, stamping it with the date
/// and an id from the uuid dependency.
struct Loading: Reducer {
  struct State: Equatable, Sendable {
    var mail: [String] = []
    var loadedAt: Date?
    var requestID: UUID?
  }

  enum Action: Equatable, Sendable {
    case load(String)
    case loaded([String], at: Date, id: UUID)
  }

  @Dependency(\.fakeServer) var server

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .load(let folder):
      return .run { send in
        @Dependency(\.clock) var clock
        @Dependency(\.date) var date
        @Dependency(\.uuid) var uuid
        try await clock.sleep(for: .milliseconds(50))
        let mail = try await server.fetch(folder)
        send(.loaded(mail, at: date(), id: uuid()))
      }
    case .loaded(let mail, let at, let id):
      state.mail = mail
      state.loadedAt = at
      state.requestID = id
      return .none
    }
  }
}

@Suite(.timeLimit(.minutes(1))) struct TestStoreDependencyTests {
  @Test func clockDateAndUUIDAreDeterministicAndTheServerIsReplaced() async {
    let store = TestStore(initialState: Loading.State(), reducer: Loading()) {
      $0.fakeServer.fetch = { folder in ["\(folder) mail"] }
    }
    store.send(.load("inbox"))
    await store.clock.advance(by: .milliseconds(50))
    let at = store.clock.epoch.addingTimeInterval(0.05)
    let id = UUID(uuidString: "00000000-0000-0000-0000-000000000000")
    await store.receive(.loaded(["inbox mail"], at: at, id: id ?? UUID())) {
      $0.mail = ["inbox mail"]
      $0.loadedAt = at
      $0.requestID = id
    }
    await store.finish()
  }

  /// An effect that takes real time before it sleeps on the clock (as one does on a loaded machine, where
  /// its task starts late) is still woken by an `advance` called right after the send.
  @Test func anAdvanceRightAfterTheSendWaitsForTheEffectToSleep() async {
    let clock = ManualClock()
    let store = TestStore(initialState: Loading.State(), reducer: Loading(), clock: clock) {
      $0.fakeServer.fetch = { folder in ["\(folder) mail"] }
      $0.clock = SlowToSleepClock(base: clock)
    }
    store.send(.load("inbox"))
    await store.clock.advance(by: .milliseconds(50))
    let at = store.clock.epoch.addingTimeInterval(0.05)
    let id = UUID(uuidString: "00000000-0000-0000-0000-000000000000")
    await store.receive(.loaded(["inbox mail"], at: at, id: id ?? UUID()), timeout: .milliseconds(500)) {
      $0.mail = ["inbox mail"]
      $0.loadedAt = at
      $0.requestID = id
    }
    await store.finish()
  }

  @Test func anUnimplementedDependencyFailsTheTestNamingIt() async {
    let store = TestStore(initialState: Loading.State(), reducer: Loading())
    await withKnownIssue("TestStore's own failure, on purpose: an effect calls an unimplemented dependency") {
      store.send(.load("inbox"))
      await store.clock.advance(by: .milliseconds(50))
      await store.finish()
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("Unimplemented: FakeServer.fetch was called") }
    }
  }
}

/// A manual clock on which a task's sleep starts 200 ms of real time late, as if its task had started
/// late: the sleep's duration is counted from the clock's time after the delay.
private struct SlowToSleepClock: Clock {
  let base: ManualClock
  var now: ManualClock.Instant { base.now }
  var minimumResolution: Duration { .zero }
  func sleep(until deadline: ManualClock.Instant, tolerance: Duration?) async throws {
    let duration = base.now.duration(to: deadline)
    try await Task.sleep(for: .milliseconds(200))
    try await base.sleep(until: base.now.advanced(by: duration), tolerance: tolerance)
  }
}
