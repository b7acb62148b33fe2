import Foundation
import Rewind

/// Suite `dispatch`: sends per second through a store with a trivial counter reducer and an in-memory
/// journal, with 0, 1, 10 and 100 subscribers iterating `states`. Baseline: the reducer called directly.
/// Then sends through composed reducers whose action paths are made from cases (`dispatch/scoped-*`), and
/// sends whose reducer draws a UUID and a date (`dispatch/recorded-draws*`).
let dispatchSuite = Suite(
  name: "dispatch", summary: "store sends per second, 0-100 subscribers, scoped, recorded draws"
) { reporter in
  let environment = ProcessInfo.processInfo.environment
  // REWIND_BENCH_SENDS shortens the run, e.g. for counting instructions under valgrind.
  let sends = environment["REWIND_BENCH_SENDS"].flatMap { Int($0) } ?? 1_000_000
  // REWIND_BENCH_DISPATCH=subscribers, scoped or draws runs one part (for callgrind); REWIND_BENCH_SUBSCRIBERS
  // alone runs the subscribers part only, as before.
  let part =
    environment["REWIND_BENCH_DISPATCH"]
    ?? (environment["REWIND_BENCH_SUBSCRIBERS"] == nil ? nil : "subscribers")
  if part == nil || part == "subscribers" {
    let baseline = directReducerRate(sends: sends)
    let only = environment["REWIND_BENCH_SUBSCRIBERS"].flatMap { Int($0) }
    for subscribers in [0, 1, 10, 100] where only == nil || only == subscribers {
      let rate = storeSendRate(sends: sends, subscribers: subscribers)
      reporter.report(
        Measurement(
          name: "dispatch/subscribers=\(subscribers)", unit: "sends/s", median: rate, baseline: baseline))
    }
  }
  if part == nil || part == "scoped" { reportScopedDispatch(sends: sends / 5, reporter: reporter) }
  if part == nil || part == "draws" { reportRecordedDraws(sends: sends / 5, reporter: reporter) }
}

struct BenchCounter: Reducer {
  struct State: Equatable, Sendable { var count = 0 }
  enum Action: Sendable { case increment }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count &+= 1
    return .none
  }
}

/// Sends per second when the reducer is called directly in a loop: the floor of a store's overhead.
///
/// The reducer is called through an opaque closure, as the store calls it, and every effect is looked
/// at, so that the optimizer cannot fold the loop into one addition.
private func directReducerRate(sends: Int) -> Double {
  let reducer = BenchCounter()
  let reduce: (inout BenchCounter.State, BenchCounter.Action) -> Effect<BenchCounter.Action> = opaque {
    reducer.reduce(into: &$0, action: $1)
  }
  let seconds = medianSeconds(repetitions: 5) {
    var state = BenchCounter.State()
    var effects = 0
    for _ in 0..<sends where !reduce(&state, .increment).isNone { effects += 1 }
    blackHole(opaque(state.count + effects))
  }
  return Double(sends) / seconds
}

/// Sends per second from one thread into a fresh store, while `subscribers` tasks iterate `states`.
private func storeSendRate(sends: Int, subscribers: Int) -> Double {
  var samples: [Double] = []
  for run in 0..<4 {
    let store = Store(initialState: BenchCounter.State(), reducer: BenchCounter())
    let started = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for _ in 0..<subscribers {
      done.enter()
      Task.detached {
        var first = true
        for await state in store.states {
          if first {
            started.signal()
            first = false
          }
          if state.count == sends { break }
        }
        done.leave()
      }
    }
    for _ in 0..<subscribers { started.wait() }
    let seconds = time {
      for _ in 0..<sends { store.send(.increment) }
    }
    done.wait()  // every subscriber saw the final state
    if run > 0 { samples.append(Double(sends) / seconds) }  // the first run warms up
  }
  return median(samples)
}
