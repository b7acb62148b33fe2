import Foundation
import Rewind
import RewindTestSupport
import RewindTesting
import Testing

/// A search field: the query is debounced on the clock dependency before searching.
struct DebouncedSearch: Reducer {
  struct State: Equatable, Sendable {
    var query = ""
    var searches: [String] = []
  }

  enum Action: Equatable, Sendable { case queryChanged(String), search(String) }

  struct DebounceID: Hashable, Sendable {}

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .queryChanged(let query):
      state.query = query
      return .send(.search(query)).debounce(id: DebounceID(), for: .milliseconds(300))
    case .search(let query):
      state.searches.append(query)
      return .none
    }
  }
}

/// The throttle recipe: the first event fires at once and opens a window; the newest event during the
/// window fires when it closes. Everything that decides lives in state, so replay is exact.
struct ThrottledSave: Reducer {
  struct State: Equatable, Sendable {
    var isThrottling = false
    var pending: String?
    var saved: [String] = []
  }

  enum Action: Equatable, Sendable { case edited(String), windowClosed, save(String) }

  struct WindowID: Hashable, Sendable {}

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .edited(let text):
      guard !state.isThrottling else {
        state.pending = text
        return .none
      }
      state.isThrottling = true
      return .merge(.send(.save(text)), closeWindow())
    case .windowClosed:
      state.isThrottling = false
      guard let pending = state.pending else { return .none }
      state.pending = nil
      return .send(.edited(pending))
    case .save(let text):
      state.saved.append(text)
      return .none
    }
  }

  private func closeWindow() -> Effect<Action> {
    .run { send in
      @Dependency(\.clock) var clock
      try await clock.sleep(for: .seconds(1))
      send(.windowClosed)
    }
    .cancellable(id: WindowID(), cancelInFlight: true)
  }
}

@Suite(.timeLimit(.minutes(1))) struct EffectHelperTests {
  @Test func concatenateRunsThePartsOneAfterAnother() async throws {
    let order = OrderLog()
    let store = Store(
      initialState: [String](),
      reducer: Reduce<[String], String> { log, action in
        log.append(action)
        guard action == "start" else { return .none }
        return .concatenate(
          .run { send in
            await Task.yield()
            order.append("first")
            send("a")
          },
          .send("b"),
          .run { send in
            order.append("second")
            send("c")
          })
      })
    store.send("start")
    await store.waitForEffects()
    #expect(store.state == ["start", "a", "b", "c"])
    #expect(order.all == ["first", "second"])
    #expect(try store.journal.events(in: 2...4).allSatisfy { $0.metadata.source == .effect(cause: 1) })
  }

  @Test func cancellingAnIdOfAPartStopsTheRestOfTheSequence() async {
    let clock = ManualClock()
    let store = Store(
      initialState: [String](),
      reducer: Reduce<[String], String> { log, action in
        log.append(action)
        switch action {
        case "start":
          return .concatenate(
            .run { send in
              @Dependency(\.clock) var clock
              try await clock.sleep(for: .seconds(1))
              send("slept")
            }
            .cancellable(id: "sleep"),
            .send("after"))
        case "stop": return .cancel(id: "sleep")
        default: return .none
        }
      }, dependencies: { $0.clock = clock })
    store.send("start")
    #expect(await clock.waitForSleepers(1))
    store.send("stop")
    await store.waitForEffects()
    await clock.advance(by: .seconds(2))
    #expect(store.state == ["start", "stop"])
  }

  @Test func runWithCatchHandsTheErrorToTheHandler() async {
    struct Offline: Error {}
    let log = DiagnosticLog()
    let store = Store(
      initialState: [String](),
      reducer: Reduce<[String], String> { state, action in
        state.append(action)
        guard action == "load" else { return .none }
        return .run { _ in
          throw Offline()
        } catch: { error, send in
          send("failed: \(error)")
        }
      }, diagnostics: log.record)
    store.send("load")
    await store.waitForEffects()
    #expect(store.state == ["load", "failed: Offline()"])
    #expect(log.all.isEmpty, "a handled error is not an effectFailed diagnostic")
  }

  @Test func runWithCatchLeavesCancellationAlone() async {
    let handled = OrderLog()
    let store = Store(
      initialState: 0,
      reducer: Reduce<Int, Bool> { _, start in
        guard start else { return .cancel(id: "work") }
        return .run { _ in
          try await Task.sleep(for: .seconds(3_600))  // waits to be cancelled
        } catch: { error, _ in
          handled.append("\(error)")
        }
        .cancellable(id: "work")
      })
    store.send(true)
    store.send(false)
    await store.waitForEffects()
    #expect(handled.all.isEmpty)
  }

  @Test func debounceKeepsOnlyTheNewestQueryAfterTheQuietPeriod() async {
    let clock = ManualClock()
    let store = Store(
      initialState: DebouncedSearch.State(), reducer: DebouncedSearch(),
      dependencies: { $0.clock = clock })
    store.send(.queryChanged("r"))
    #expect(await clock.waitForSleepers(1))
    await clock.advance(by: .milliseconds(200))
    store.send(.queryChanged("re"))
    #expect(await clock.waitForSleepers(1))
    await clock.advance(by: .milliseconds(200))
    store.send(.queryChanged("rew"))
    #expect(await clock.waitForSleepers(1))
    await clock.advance(by: .milliseconds(299))
    #expect(store.state.searches.isEmpty, "still inside the quiet period")
    await clock.advance(by: .milliseconds(1))
    await store.waitForEffects()
    #expect(store.state.searches == ["rew"])
  }

  @Test func throttleFiresTheFirstAtOnceAndTheNewestWhenTheWindowCloses() async {
    let clock = ManualClock()
    let store = Store(
      initialState: ThrottledSave.State(), reducer: ThrottledSave(), dependencies: { $0.clock = clock })
    store.send(.edited("a"))
    #expect(store.state.saved == ["a"])
    store.send(.edited("ab"))
    store.send(.edited("abc"))
    #expect(store.state.saved == ["a"], "throttled")
    #expect(await clock.waitForSleepers(1))
    await clock.advance(by: .seconds(1))
    #expect(await clock.waitForSleepers(1), "the trailing save opened a new window")
    // The new window's timer can be asleep before the woken one's send has processed the save it queued:
    // wait for that task to end (only the new window runs).
    #expect(await eventually { store.runningEffectCount == 1 && store.cancelledEffectsStillRunning == 0 })
    #expect(store.state.saved == ["a", "abc"])
    await clock.advance(by: .seconds(1))
    await store.waitForEffects()
    #expect(store.state.saved == ["a", "abc"])
    #expect(!store.state.isThrottling)
  }
}

/// An ordered log that tasks append to.
final class OrderLog: Sendable {
  private let items = Locked<[String]>([])
  var all: [String] { items.withLock { $0 } }
  func append(_ item: String) { items.withLock { $0.append(item) } }
}
