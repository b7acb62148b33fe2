import Foundation
import RewindInspector

/// What the tool holds of a live session: every event received (its JSON text, by sequence number), the
/// ranges not received yet (gaps, filled in the background), the app's last status, and a feed of what
/// changed, which each page's stream follows at its own pace.
final class LiveTimeline: @unchecked Sendable {
  // @unchecked: `contents` is only touched while `condition` is locked.
  /// One change a page is told of.
  enum FeedEntry: Equatable {
    /// New events, in order.
    case events(ClosedRange<UInt64>)
    /// Events not received yet.
    case gap(ClosedRange<UInt64>)
    /// Events of an earlier gap, now received.
    case filled(ClosedRange<UInt64>)
    /// A new status.
    case status
    /// The session ended.
    case ended
  }

  struct Contents {
    var texts: [UInt64: [UInt8]] = [:]
    var newest: UInt64 = 0
    var missing: [ClosedRange<UInt64>] = []
    var status: [UInt8] = Array(#"{"type":"status","mode":"live"}"#.utf8)
    var feed: [FeedEntry] = []
    var ended: String?
  }

  let condition = NSCondition()
  private var contents = Contents()
  /// Who the timeline shows: the app and its types, or the log directory.
  let title: String
  /// Whether commands are offered (attached to an app) or not (following a log).
  let isReadOnly: Bool

  init(title: String, isReadOnly: Bool) {
    self.title = title
    self.isReadOnly = isReadOnly
  }

  func withContents<Result>(_ body: (inout Contents) -> Result) -> Result {
    condition.lock()
    defer {
      condition.broadcast()
      condition.unlock()
    }
    return body(&contents)
  }

  /// Adds events (protocol objects) that arrived in order; a sequence number past the newest extends it.
  func append(_ events: [InspectorJSON]) {
    guard !events.isEmpty else { return }
    withContents { contents in
      var first: UInt64?
      var last: UInt64 = 0
      for event in events {
        guard let sequence = event["seq"]?.unsignedValue else { continue }
        contents.texts[sequence] = event.bytes
        if sequence > contents.newest + 1 {
          // Events skipped without a gap message: recorded as missing all the same.
          contents.missing.append((contents.newest + 1)...(sequence - 1))
          contents.feed.append(.gap((contents.newest + 1)...(sequence - 1)))
        }
        if sequence > contents.newest {
          contents.newest = sequence
          if first == nil { first = sequence }
          last = sequence
        } else {
          Self.remove(sequence...sequence, from: &contents.missing)
        }
      }
      if let first { contents.feed.append(.events(first...last)) }
    }
  }

  /// Records that `range` was not received.
  func gap(_ range: ClosedRange<UInt64>) {
    withContents { contents in
      contents.missing.append(range)
      contents.newest = max(contents.newest, range.upperBound)
      contents.feed.append(.gap(range))
    }
  }

  /// Adds events fetched for a gap.
  func fill(_ events: [InspectorJSON]) {
    withContents { contents in
      var sequences: [UInt64] = []
      for event in events {
        guard let sequence = event["seq"]?.unsignedValue else { continue }
        contents.texts[sequence] = event.bytes
        sequences.append(sequence)
      }
      guard let low = sequences.min(), let high = sequences.max() else { return }
      Self.remove(low...high, from: &contents.missing)
      contents.feed.append(.filled(low...high))
    }
  }

  /// Keeps the app's newest status.
  func setStatus(_ status: InspectorJSON) {
    withContents { contents in
      contents.status = status.bytes
      if let newest = status["newest"]?.unsignedValue, newest > contents.newest {
        // Events the status knows of arrive next; nothing to record yet.
      }
      contents.feed.append(.status)
    }
  }

  /// Marks the session over.
  func end(_ reason: String) {
    withContents { contents in
      contents.ended = reason
      contents.feed.append(.ended)
    }
  }

  /// The first range still missing, if any.
  var firstMissing: ClosedRange<UInt64>? { withContents { $0.missing.first } }

  /// The stored events in `range`, in order, as JSON texts (missing ones left out).
  func texts(in range: ClosedRange<UInt64>) -> [[UInt8]] {
    withContents { contents in range.compactMap { contents.texts[$0] } }
  }

  static func remove(_ range: ClosedRange<UInt64>, from list: inout [ClosedRange<UInt64>]) {
    var result: [ClosedRange<UInt64>] = []
    for existing in list {
      if existing.upperBound < range.lowerBound || existing.lowerBound > range.upperBound {
        result.append(existing)
        continue
      }
      if existing.lowerBound < range.lowerBound {
        result.append(existing.lowerBound...(range.lowerBound - 1))
      }
      if existing.upperBound > range.upperBound {
        result.append((range.upperBound + 1)...existing.upperBound)
      }
    }
    list = result
  }

  /// Waits until the feed has entries past `position` or the session ended (at most `timeout` seconds);
  /// returns the new entries, whether it ended, and the newest status.
  func waitForFeed(after position: Int, timeout: Double) -> ([FeedEntry], Bool, [UInt8]) {
    let deadline = Date(timeIntervalSinceNow: timeout)
    condition.lock()
    defer { condition.unlock() }
    while true {
      if contents.feed.count > position || contents.ended != nil {
        return (
          Array(contents.feed[min(position, contents.feed.count)...]), contents.ended != nil, contents.status
        )
      }
      if !condition.wait(until: deadline) { return ([], false, contents.status) }
    }
  }
}
