import Foundation
import Rewind
import RewindDiff
import Synchronization

/// Suite `streams`: a list of 1,000 rows where each send edits one row, with 0 to 1,000 changeset
/// subscribers; and the latency from `send` to a waiting subscriber holding its changeset.
let streamsSuite = Suite(name: "streams", summary: "changeset subscribers: sends/s and latency") { reporter in
  let only = ProcessInfo.processInfo.environment["REWIND_BENCH_SUBSCRIBERS"].flatMap { Int($0) }
  // REWIND_BENCH_SENDS shortens the run, e.g. for counting instructions under valgrind.
  let sends = ProcessInfo.processInfo.environment["REWIND_BENCH_SENDS"].flatMap { Int($0) } ?? 100_000
  for subscribers in [0, 1, 10, 100, 1_000] where only == nil || only == subscribers {
    let rate = streamSendRate(sends: sends, subscribers: subscribers)
    reporter.report(Measurement(name: "streams/subscribers=\(subscribers)", unit: "sends/s", median: rate))
  }
  if only == nil || only == -1 {
    let latencySubscribers =
      ProcessInfo.processInfo.environment["REWIND_BENCH_LATENCY_SUBSCRIBERS"].flatMap { Int($0) } ?? 100
    let latencies = streamLatencies(sends: 2_000, subscribers: latencySubscribers)
    reporter.report(
      Measurement(name: "streams/latency-p50", unit: "us", median: percentile(latencies, 0.50) * 1e6))
    reporter.report(
      Measurement(name: "streams/latency-p99", unit: "us", median: percentile(latencies, 0.99) * 1e6))
  }
}

struct StreamBenchList: Reducer {
  struct Row: Identifiable, Equatable, Sendable, Differentiable {
    var id: Int
    var title: String
    var edits = 0
    var differenceIdentifier: Int { id }
  }

  struct State: Equatable, Sendable {
    var rows = IdentifiedArray(uniqueElements: (0..<1_000).map { Row(id: $0, title: "Row \($0)") })
  }

  enum Action: Sendable { case edit(id: Int) }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .edit(let id): state.rows[id: id]?.edits += 1
    }
    return .none
  }
}

/// Sends per second from one thread while `subscribers` tasks iterate changesets of the rows.
private func streamSendRate(sends: Int, subscribers: Int) -> Double {
  var samples: [Double] = []
  for run in 0..<3 {
    let store = Store(initialState: StreamBenchList.State(), reducer: StreamBenchList())
    let started = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for _ in 0..<subscribers {
      done.enter()
      Task.detached {
        for await update in store.changesets(of: \.rows) {
          if update.isInitial { started.signal() }
          if update.sequence == UInt64(sends) { break }
        }
        done.leave()
      }
    }
    for _ in 0..<subscribers { started.wait() }
    let seconds = time {
      for index in 0..<sends { store.send(.edit(id: index % 1_000)) }
    }
    done.wait()
    if run > 0 { samples.append(Double(sends) / seconds) }
  }
  return median(samples)
}

/// Send times by sequence number, written by the sender before each send and read by subscribers after
/// the store handed them that sequence (the store's lock orders the two).
private final class SendTimes: @unchecked Sendable {
  let times: UnsafeMutableBufferPointer<Double>
  init(count: Int) { times = .allocate(capacity: count + 1); times.initialize(repeating: 0) }
  deinit { times.deallocate() }
}

/// Seconds from `send` to a waiting subscriber holding the changeset that includes it, for paced sends.
private func streamLatencies(sends: Int, subscribers: Int) -> [Double] {
  let store = Store(initialState: StreamBenchList.State(), reducer: StreamBenchList())
  let sendTimes = SendTimes(count: sends)
  let collected = LatencySamples()
  let started = DispatchSemaphore(value: 0)
  let done = DispatchGroup()
  for _ in 0..<subscribers {
    done.enter()
    Task.detached {
      var mine: [Double] = []
      for await update in store.changesets(of: \.rows) {
        if update.isInitial {
          started.signal()
          continue
        }
        mine.append(now() - sendTimes.times[Int(update.sequence)])
        if update.sequence == UInt64(sends) { break }
      }
      collected.samples.withLock { $0.append(contentsOf: mine) }
      done.leave()
    }
  }
  for _ in 0..<subscribers { started.wait() }
  for index in 1...sends {
    sendTimes.times[index] = now()
    store.send(.edit(id: index % 1_000))
    usleep(500)  // paced, so that subscribers are waiting when the next send comes
  }
  done.wait()
  return collected.samples.withLock { $0 }
}

private final class LatencySamples: Sendable {
  let samples = Mutex<[Double]>([])
}

private func percentile(_ samples: [Double], _ fraction: Double) -> Double {
  guard !samples.isEmpty else { return .nan }
  let sorted = samples.sorted()
  return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction))]
}
