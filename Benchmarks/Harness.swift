import Foundation
import RewindTesting

/// One benchmark result line: a median in `unit`, optionally beside a baseline measured in the same run.
struct Measurement {
  var name: String
  var unit: String
  var median: Double
  var baseline: Double?
  /// More numbers of the same measurement, as extra JSON fields (e.g. `gaps`).
  var extra: [(String, Double)] = []

  /// `median / baseline`, when a baseline ran.
  var ratio: Double? {
    guard let baseline, baseline != 0 else { return nil }
    return median / baseline
  }

  /// One JSON object, the line format Docs/Performance.md describes (`--json`).
  var jsonLine: String {
    var fields = [
      "\"name\":\(jsonString(name))", "\"unit\":\(jsonString(unit))", "\"median\":\(number(median))",
    ]
    if let baseline { fields.append("\"baseline\":\(number(baseline))") }
    if let ratio { fields.append("\"ratio\":\(number(ratio))") }
    for (key, value) in extra { fields.append("\(jsonString(key)):\(number(value))") }
    return "{" + fields.joined(separator: ",") + "}"
  }

  private func number(_ value: Double) -> String {
    value.isFinite ? String(format: "%.6g", value) : "null"
  }

  private func jsonString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}

/// A named group of benchmarks, selected on the command line by `name`.
struct Suite: Sendable {
  var name: String
  var summary: String
  var run: @Sendable (Reporter) throws -> Void
}

/// Collects measurements and prints them as JSON lines or as a table.
final class Reporter {
  let json: Bool
  private(set) var results: [Measurement] = []

  init(json: Bool) { self.json = json }

  func report(_ measurement: Measurement) {
    results.append(measurement)
    if json {
      print(measurement.jsonLine)
    } else {
      var line = measurement.name.padding(toLength: 50, withPad: " ", startingAt: 0)
      line +=
        format(measurement.median).leftPadded(to: 14) + " "
        + measurement.unit.padding(toLength: 9, withPad: " ", startingAt: 0)
      if let baseline = measurement.baseline, let ratio = measurement.ratio {
        line +=
          "  baseline " + format(baseline).leftPadded(to: 12) + "  ratio " + String(format: "%.3f", ratio)
      }
      for (key, value) in measurement.extra { line += "  \(key) \(format(value))" }
      print(line)
    }
    fflush(nil)  // all streams; `stdout` itself is not concurrency-safe to name
  }

  /// Progress for long work goes to standard error so JSON on standard output stays clean.
  func progress(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
  }

  private func format(_ value: Double) -> String {
    if value >= 100 { return String(format: "%.0f", value) }
    if value >= 1 { return String(format: "%.2f", value) }
    return String(format: "%.4f", value)
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}

/// Monotonic time in seconds.
@inline(__always)
func now() -> Double {
  var spec = timespec()
  clock_gettime(CLOCK_MONOTONIC, &spec)
  return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

/// Seconds taken by `body`.
@inline(__always)
func time(_ body: () throws -> Void) rethrows -> Double {
  let start = now()
  try body()
  return now() - start
}

/// The median of `samples`.
func median(_ samples: [Double]) -> Double {
  precondition(!samples.isEmpty, "median of no samples")
  let sorted = samples.sorted()
  let mid = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/// Runs `body` `repetitions` times (after `warmup` unrecorded runs) and returns the median seconds.
func medianSeconds(repetitions: Int, warmup: Int = 1, _ body: () throws -> Void) rethrows -> Double {
  for _ in 0..<warmup { try body() }
  var samples: [Double] = []
  samples.reserveCapacity(repetitions)
  for _ in 0..<repetitions { samples.append(try time(body)) }
  return median(samples)
}

/// Keeps the optimizer from deleting work whose result is otherwise unused.
@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

/// `value`, hidden from the optimizer, so that a baseline loop cannot be folded away.
@inline(never) @_optimize(none)
func opaque<T>(_ value: T) -> T { value }

/// The seeded generator every suite uses, so each run measures the same inputs.
typealias SplitMix64 = RewindTesting.SplitMix64
