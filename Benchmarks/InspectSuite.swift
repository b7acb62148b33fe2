import Foundation
import Rewind
import RewindInspector
import RewindTesting
import Synchronization

/// Suite `inspect`: what the inspector costs the app, and how fast a tool sees what happens.
///
/// - `inspect/detached`: µs per send of a store whose `inspect()` was called but no tool is attached;
///   `baseline`: the same sends on a store without an inspector (1,000 app-shaped rows, alternating runs).
/// - `inspect/attached-rows=100000`: µs per send with a tool attached and reading everything (an in-process
///   `InspectorConnection` on a loopback socket, parsing every frame); `baseline`: the same store shape
///   without an inspector, sends at full speed.
/// - `inspect/latency-p50`, `inspect/latency-p99`: ms from `send` returning to the tool holding the event,
///   at 1,000 sends a second, measured at the tool's protocol client (the page adds one local hop:
///   Docs/Performance.md says how it was measured in the browser).
/// - `inspect/throughput`: events a second a tool received (live and by fetching gaps) while the app sent
///   10,000 a second for 60 s (`REWIND_BENCH_INSPECT_SECONDS`), with `gaps`: sequence numbers it never got.
/// - `inspect/jump-1M`: ms for a jump to a random event of a store with 1,000,000 events (1,000 rows), round
///   trip from the tool: command, `state(at:)`, views told, reply.
/// - `inspect/memory-attached`: heap bytes the app holds with a tool attached at 100,000 rows, beyond the
///   same store without one after the same sends (the in-process tool's own buffers count too: an upper bound).
let inspectSuite = Suite(
  name: "inspect", summary: "the inspector: detached and attached cost, latency, throughput, jumps"
) {
  reporter in
  let environment = ProcessInfo.processInfo.environment
  let only = environment["REWIND_BENCH_INSPECT_ONLY"]
  let runs = { (name: String) in only == nil || only == name }
  if runs("detached") { reporter.report(try InspectBench.detached()) }
  if runs("attached") { reporter.report(try InspectBench.attached(rows: 100_000)) }
  if runs("latency") { for measurement in try InspectBench.latency() { reporter.report(measurement) } }
  if runs("throughput") {
    let seconds = environment["REWIND_BENCH_INSPECT_SECONDS"].flatMap(Double.init) ?? 60
    reporter.report(try InspectBench.throughput(rate: 10_000, seconds: seconds))
  }
  if runs("jump") { reporter.report(try InspectBench.jump(events: 1_000_000)) }
  if runs("memory") { reporter.report(try InspectBench.memoryAttached(rows: 100_000)) }
  // For Scripts/inspect-latency.sh only (never in a normal run): a store a browser watches.
  if only == "serve" {
    try InspectBench.serve(
      seconds: environment["REWIND_BENCH_INSPECT_SECONDS"].flatMap(Double.init) ?? 10,
      tokenFile: environment["REWIND_BENCH_INSPECT_TOKEN_FILE"] ?? NSTemporaryDirectory()
        + "rewind-bench-serve.json",
      start: environment["REWIND_BENCH_INSPECT_START"] ?? NSTemporaryDirectory() + "rewind-bench-serve.start")
  }
}

enum InspectBench {
  typealias ListStore = Store<ScaleList.State, BenchNote>

  static func makeStore(rows: Int) -> ListStore {
    Store(initialState: ScaleList.State(rows: rows), reducer: ScaleList(), diagnostics: { _ in })
  }

  static func inspect(_ store: ListStore) throws -> Inspector<ScaleList.State, BenchNote> {
    let path = NSTemporaryDirectory() + "rewind-bench-inspector-\(UInt64.random(in: 0...UInt64.max)).json"
    return try store.inspect(InspectorOptions(tokenFile: path, announce: { _ in }))
  }

  /// What a tool has received, behind locks its reading thread and the benchmark share.
  final class Received: Sendable {
    struct Counts {
      var count = 0
      var newest: UInt64 = 0
      var seen = Set<UInt64>()
      var gaps: [ClosedRange<UInt64>] = []
    }

    let counts = Mutex(Counts())
    let arrivals = Mutex<[UInt64: Double]>([:])
    let recordArrivals: Bool
    let keepSeen: Bool

    init(recordArrivals: Bool, keepSeen: Bool) {
      self.recordArrivals = recordArrivals
      self.keepSeen = keepSeen
    }

    func take(_ message: InspectorJSON) {
      let at = now()
      switch message["type"]?.stringValue {
      case "events":
        let sequences = (message["events"]?.arrayValue ?? []).compactMap { $0["seq"]?.unsignedValue }
        counts.withLock { state in
          state.count += sequences.count
          state.newest = max(state.newest, sequences.last ?? 0)
          if keepSeen { state.seen.formUnion(sequences) }
        }
        if recordArrivals { arrivals.withLock { for sequence in sequences { $0[sequence] = at } } }
      case "gap":
        if let from = message["from"]?.unsignedValue, let to = message["to"]?.unsignedValue {
          counts.withLock { state in
            state.gaps.append(from...to)
            state.newest = max(state.newest, to)
          }
        }
      default: break
      }
    }
  }

  /// A tool attached to an inspector: counts what it receives, and when each event arrived.
  final class Tool: Sendable {
    let connection: InspectorConnection
    let received: Received

    init(
      _ inspector: Inspector<ScaleList.State, BenchNote>, from: UInt64, recordArrivals: Bool = false,
      keepSeen: Bool = false
    ) throws {
      let file = try TokenFile.read(from: inspector.tokenFilePath)
      let received = Received(recordArrivals: recordArrivals, keepSeen: keepSeen)
      self.received = received
      connection = try InspectorConnection(
        port: file.port, token: file.token, from: from, client: "rewind-bench",
        onMessage: { received.take($0) }, onClose: { _ in })
    }

    /// Waits until the tool has events (or gaps) through `sequence`.
    func waitForNewest(_ sequence: UInt64, timeout: Double = 120) {
      let deadline = now() + timeout
      while received.counts.withLock({ $0.newest }) < sequence && now() < deadline { usleep(1_000) }
    }
  }

  /// µs per send of `ids` toggles on `store`, in CPU time of the sending thread: what a send costs the app's
  /// thread, apart from the cores the inspector's own threads (and, on this shared machine, everyone else's)
  /// take meanwhile. `wall` adds the wall-clock µs per send.
  static func sendMicroseconds(_ store: ListStore, _ ids: [Int], wall: UnsafeMutablePointer<Double>? = nil)
    -> Double
  {
    let start = threadCPUTime()
    let seconds = time { for id in ids { store.send(.toggle(id: id)) } }
    wall?.pointee += seconds / Double(ids.count) * 1e6
    return (threadCPUTime() - start) / Double(ids.count) * 1e6
  }

  /// The calling thread's CPU time in seconds.
  static func threadCPUTime() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
  }

  static func randomIDs(count: Int, rows: Int, seed: UInt64) -> [Int] {
    var random = SplitMix64(seed: seed)
    return (0..<count).map { _ in Int.random(in: 0..<rows, using: &random) }
  }

  static func detached() throws -> Measurement {
    let rows = 1_000
    let plain = makeStore(rows: rows)
    let inspected = makeStore(rows: rows)
    let inspector = try inspect(inspected)
    defer { inspector.stop() }
    let ids = randomIDs(count: 200_000, rows: rows, seed: 1)
    var withInspector: [Double] = []
    var without: [Double] = []
    _ = sendMicroseconds(plain, Array(ids.prefix(20_000)))
    _ = sendMicroseconds(inspected, Array(ids.prefix(20_000)))
    // A second store without an inspector measures the noise of this comparison itself.
    let control = makeStore(rows: rows)
    _ = sendMicroseconds(control, Array(ids.prefix(20_000)))
    var controls: [Double] = []
    var orderRandom = SplitMix64(seed: 7)
    for _ in 0..<9 {
      // The order changes every round: the last store of a round runs on a warmer (or hotter) core.
      for index in [0, 1, 2].shuffled(using: &orderRandom) {
        switch index {
        case 0: without.append(sendMicroseconds(plain, ids))
        case 1: withInspector.append(sendMicroseconds(inspected, ids))
        default: controls.append(sendMicroseconds(control, ids))
        }
      }
    }
    return Measurement(
      name: "inspect/detached", unit: "us", median: median(withInspector), baseline: median(without),
      extra: [("controlRatio", median(controls) / median(without))])
  }

  static func attached(rows: Int) throws -> Measurement {
    let plain = makeStore(rows: rows)
    let inspected = makeStore(rows: rows)
    let inspector = try inspect(inspected)
    defer { inspector.stop() }
    let tool = try Tool(inspector, from: 1)
    defer { tool.connection.close() }
    let ids = randomIDs(count: 20_000, rows: rows, seed: 2)
    var withTool: [Double] = []
    var without: [Double] = []
    var wallWith = 0.0
    var wallWithout = 0.0
    for _ in 0..<5 {
      without.append(sendMicroseconds(plain, ids, wall: &wallWithout))
      withTool.append(sendMicroseconds(inspected, ids, wall: &wallWith))
      // Each run starts with the tool caught up, so runs do not carry work into each other.
      tool.waitForNewest(inspected.sequence)
    }
    let received = tool.received.counts.withLock { $0 }
    return Measurement(
      name: "inspect/attached-rows=\(rows)", unit: "us", median: median(withTool), baseline: median(without),
      extra: [
        ("wallRatio", wallWith / wallWithout), ("eventsStreamed", Double(received.count)),
        ("gapMessages", Double(received.gaps.count)),
      ])
  }

  /// Sends at `rate` a second for `seconds`, calling `sent(sequence, time)` after each send.
  static func paced(
    _ store: ListStore, rate: Double, seconds: Double, rows: Int, sent: (UInt64, Double) -> Void
  ) {
    let count = Int(rate * seconds)
    let ids = randomIDs(count: count, rows: rows, seed: 3)
    let start = now()
    for (index, id) in ids.enumerated() {
      let due = start + Double(index) / rate
      while now() < due {
        let left = due - now()
        if left > 0.000_2 { usleep(UInt32(left * 1e6 / 2)) }
      }
      store.send(.toggle(id: id))
      sent(store.sequence, now())
    }
  }

  static func latency() throws -> [Measurement] {
    let rows = 1_000
    let store = makeStore(rows: rows)
    let inspector = try inspect(store)
    defer { inspector.stop() }
    let tool = try Tool(inspector, from: 1, recordArrivals: true)
    defer { tool.connection.close() }
    var sentAt: [UInt64: Double] = [:]
    paced(store, rate: 1_000, seconds: 10, rows: rows) { sequence, at in sentAt[sequence] = at }
    tool.waitForNewest(store.sequence)
    let arrivals = tool.received.arrivals.withLock { $0 }
    let latencies = sentAt.compactMap { sequence, at in arrivals[sequence].map { ($0 - at) * 1000 } }.sorted()
    guard !latencies.isEmpty else { return [] }
    func percentile(_ p: Double) -> Double {
      latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]
    }
    let extra = [("events", Double(latencies.count)), ("sent", Double(sentAt.count))]
    return [
      Measurement(name: "inspect/latency-p50", unit: "ms", median: percentile(0.5), extra: extra),
      Measurement(name: "inspect/latency-p99", unit: "ms", median: percentile(0.99), extra: extra),
    ]
  }

  static func throughput(rate: Double, seconds: Double) throws -> Measurement {
    let rows = 1_000
    let store = makeStore(rows: rows)
    let inspector = try inspect(store)
    defer { inspector.stop() }
    let tool = try Tool(inspector, from: 1, keepSeen: true)
    defer { tool.connection.close() }
    let start = now()
    paced(store, rate: rate, seconds: seconds, rows: rows) { _, _ in }
    let newest = store.sequence
    tool.waitForNewest(newest)
    // Catching up: the gaps the tool was told of, fetched as a tool does.
    let gaps = tool.received.counts.withLock { $0.gaps }
    var fetched = 0
    var seenByFetch = Set<UInt64>()
    for gap in gaps {
      var next: UInt64? = gap.lowerBound
      while let from = next {
        let reply = try tool.connection.perform(.events(from: from, to: gap.upperBound, changes: true))
        let sequences = (reply["events"]?.arrayValue ?? []).compactMap { $0["seq"]?.unsignedValue }
        seenByFetch.formUnion(sequences)
        fetched += sequences.count
        next = reply["next"]?.unsignedValue
      }
    }
    let elapsed = now() - start
    let seen = tool.received.counts.withLock { $0.seen }.union(seenByFetch)
    let missing = (1...newest).filter { !seen.contains($0) }.count
    return Measurement(
      name: "inspect/throughput", unit: "events/s", median: Double(seen.count) / elapsed,
      extra: [
        ("gaps", Double(missing)), ("sent", Double(newest)), ("sendRate", Double(newest) / seconds),
        ("streamed", Double(tool.received.counts.withLock { $0.count })), ("fetched", Double(fetched)),
        ("gapMessages", Double(gaps.count)),
      ])
  }

  static func jump(events: Int) throws -> Measurement {
    let rows = 1_000
    let store = makeStore(rows: rows)
    for id in randomIDs(count: events, rows: rows, seed: 4) { store.send(.toggle(id: id)) }
    let inspector = try inspect(store)
    defer { inspector.stop() }
    let tool = try Tool(inspector, from: store.sequence + 1)
    defer { tool.connection.close() }
    var random = SplitMix64(seed: 5)
    var samples: [Double] = []
    for _ in 0..<40 {
      let target = UInt64.random(in: 1...UInt64(events), using: &random)
      let seconds = try time { try tool.connection.perform(.jump(to: target)) }
      samples.append(seconds * 1000)
    }
    try tool.connection.perform(.live)
    return Measurement(
      name: "inspect/jump-1M", unit: "ms", median: median(samples),
      extra: [("p99", samples.sorted()[Int(Double(samples.count) * 0.99) - 1]), ("max", samples.max() ?? 0)])
  }

  /// Starts an inspector on `tokenFile`, waits for the file `start` to appear (a page is open), then sends
  /// 1,000 actions a second for `seconds` and waits two seconds for the page to read the last.
  static func serve(seconds: Double, tokenFile: String, start: String) throws {
    let rows = 1_000
    let store = makeStore(rows: rows)
    let inspector = try store.inspect(InspectorOptions(tokenFile: tokenFile, announce: { _ in }))
    defer { inspector.stop() }
    let deadline = now() + 60
    while !FileManager.default.fileExists(atPath: start) && now() < deadline { usleep(10_000) }
    paced(store, rate: 1_000, seconds: seconds, rows: rows) { _, _ in }
    usleep(2_000_000)
  }

  static func memoryAttached(rows: Int) throws -> Measurement {
    let ids = randomIDs(count: 20_000, rows: rows, seed: 6)
    // Earlier measurements' stores may still be going away on their inspectors' threads.
    settleMalloc()
    // The same sends on a store without an inspector: what the store itself grows by.
    let before = mallocBytesInUse()
    let plain = makeStore(rows: rows)
    for id in ids { plain.send(.toggle(id: id)) }
    let plainBytes = mallocBytesInUse() - before

    settleMalloc()
    let start = mallocBytesInUse()
    let store = makeStore(rows: rows)
    let inspector = try inspect(store)
    let tool = try Tool(inspector, from: 1)
    for id in ids { store.send(.toggle(id: id)) }
    tool.waitForNewest(store.sequence)
    settleMalloc()
    let attachedBytes = mallocBytesInUse() - start
    tool.connection.close()
    inspector.stop()
    blackHole(plain)
    return Measurement(
      name: "inspect/memory-attached", unit: "bytes", median: Double(attachedBytes - plainBytes),
      extra: [("storeBytes", Double(plainBytes))])
  }
}

/// Waits (up to 10 s) until the heap in use stops moving by more than 256 KiB in 100 ms: memory other
/// threads are still allocating or freeing would be counted in the next reading.
func settleMalloc() {
  var last = mallocBytesInUse()
  for _ in 0..<100 {
    usleep(100_000)
    let now = mallocBytesInUse()
    if abs(now - last) < 256 * 1024 { return }
    last = now
  }
}
