import Foundation
import Rewind
import RewindLog
import RewindShip
import RewindTestSupport
import Testing

/// Appends events `first...last` (``crashEvent(_:)``: content derived from the sequence number) to the log
/// in `directory`, in frames of up to `perFrame` events.
func appendEvents(
  _ directory: String, _ range: ClosedRange<UInt64>, perFrame: Int = 7, key: ChainKey? = nil,
  segmentSize: Int = 16 << 10
) throws {
  let journal = try FileJournal<CrashAction>(
    directory: directory,
    options: FileJournalOptions(durability: .none, segmentSize: segmentSize, chainKey: key))
  var sequence = range.lowerBound
  while sequence <= range.upperBound {
    let end = min(range.upperBound, sequence + UInt64(perFrame) - 1)
    for event in sequence...end { try journal.append(crashEvent(event)) }
    try journal.flush()
    sequence = end + 1
  }
  try journal.close()
}

/// A shipping configuration for tests: short timeouts and waits, so a retry takes milliseconds.
func testConfiguration(
  _ servers: [NATSServerAddress], stream: String, window: Int = 32, key: ChainKey? = nil, replicas: Int = 1
) -> ShipConfiguration {
  ShipConfiguration(
    servers: servers, stream: stream, connection: NATSConnectionOptions(connectTimeout: .seconds(2)),
    replicas: replicas, window: window, chainKey: key, acknowledgementTimeout: .seconds(2),
    requestTimeout: .seconds(2),
    backoff: NATSBackoff(initial: .milliseconds(20), maximum: .milliseconds(500)),
    pollInterval: .milliseconds(20))
}

/// Reads a whole stream by sequence, for checking what it holds.
struct StreamContents {
  var events: [ReceivedEvent] = []
  var lastSequence: UInt64 = 0

  init(_ server: NATSServerAddress, stream: String) throws {
    let connection = try NATSTestClient.connect(server)
    defer { connection.close() }
    let api = JetStream(connection: connection, timeout: .seconds(5))
    guard let info = try api.streamInfo(stream) else { return }
    lastSequence = info.state.lastSequence
    guard lastSequence > 0 else { return }
    for sequence in 1...lastSequence {
      guard let message = try api.message(stream: stream, sequence: sequence) else { continue }
      events.append(try ReceivedEvent(headers: message.headers, payload: message.payload))
    }
  }

  /// The event sequence numbers in stream order.
  var sequences: [UInt64] { events.map(\.sequence) }

  /// Whether the stream holds exactly the events `range`, each once, in order.
  func holdsExactly(_ range: ClosedRange<UInt64>) -> Bool { sequences == Array(range) }
}

/// A short random name for a stream.
func streamName(_ label: String = #function) -> String {
  label.filter { $0.isLetter }.prefix(20).uppercased() + "_"
    + String(UInt32.random(in: 0...UInt32.max), radix: 36)
}
