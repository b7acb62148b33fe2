import Dispatch
import Foundation
import Rewind
import RewindLog
import RewindTestSupport
import RewindTesting
import Testing

@testable import RewindShip

/// The shipper behind a proxy that rewrites some of what the server sends into bad input: a malformed
/// acknowledgement, `-ERR`, a reply for an unknown inbox, a connection closed in the middle of a message,
/// an oversized message. Each is a typed error the shipper recovers from; at no moment does it count an
/// event the stream does not hold; in the end the stream holds every event once.
@Suite struct BadServerInputTests {
  enum Fault: String, CaseIterable {
    case malformedAcknowledgement, err, unknownInbox, closedMidMessage, oversizedMessage
  }

  static func rewrite(_ fault: Fault, _ message: NATSMessage, _ raw: [UInt8]) -> FaultProxy.Rewrite {
    let line = "MSG \(message.subject) \(message.sid) "
    switch fault {
    case .malformedAcknowledgement: return .send(Array((line + "10\r\n{\"stream\":\r\n").utf8))
    case .err: return .close(after: Array("-ERR 'Stale Connection'\r\n".utf8))
    case .unknownInbox:
      let stray = "MSG _INBOX.unknown.7 \(message.sid) 2\r\nhi\r\n"
      return .send(Array(stray.utf8) + raw)
    case .closedMidMessage: return .close(after: Array(raw.prefix(raw.count / 2)))
    case .oversizedMessage: return .close(after: Array((line + "\(64 << 20)\r\nxx").utf8))
    }
  }

  @Test(arguments: Fault.allCases) func badInputIsATypedErrorAndNothingUnacknowledgedCounts(_ fault: Fault)
    throws
  {
    guard NATSServerProcess.available() else { return }
    let seed: UInt64 = 0xBAD_0031
    let server = try NATSServerProcess()
    try server.start()
    let proxy = FaultProxy(upstream: server.address, seed: seed) { operation, raw, random in
      guard operation.isPublishAcknowledgement, case .message(let message) = operation,
        Double.random(in: 0..<1, using: &random) < 0.05
      else {
        return .send(raw)
      }
      return Self.rewrite(fault, message, raw)
    }
    let log = TemporaryDirectory()
    try appendEvents(log.path, 1...400)
    let stream = streamName()
    var configuration = testConfiguration([proxy.address], stream: stream, window: 16)
    configuration.acknowledgementTimeout = .milliseconds(500)
    let shipper = try Shipper(directory: log.path, configuration: configuration)
    // While it ships, what it counts as shipped is never more than the stream holds (read directly).
    let errors = Locked<[ShipError]>([])
    let overcounted = Locked<[String]>([])
    let done = DispatchSemaphore(value: 0)
    let watcher = Thread {
      guard let connection = try? NATSTestClient.connect(server.address) else { return }
      defer { connection.close() }
      let api = JetStream(connection: connection, timeout: .seconds(5))
      while done.wait(timeout: .now() + .milliseconds(5)) == .timedOut {
        let progress = shipper.progress
        if let error = progress.lastError { errors.withLock { if $0.last != error { $0.append(error) } } }
        let held = (try? api.streamInfo(stream))??.state.lastSequence ?? 0
        if progress.shippedThrough > held {
          overcounted.withLock { $0.append("counted \(progress.shippedThrough), stream holds \(held)") }
        }
      }
      done.signal()
    }
    watcher.start()
    let progress = try shipper.shipUntilCaughtUp(maximumAttempts: nil)
    done.signal()
    done.wait()
    #expect(progress.shippedThrough == 400)
    #expect(
      overcounted.withLock { $0 }.isEmpty, "\(fault), seed \(seed): \(overcounted.withLock { $0.prefix(3) })")
    #expect(proxy.droppedCount > 0, "\(fault): no fault injected")
    let seen = errors.withLock { $0 }
    switch fault {
    case .malformedAcknowledgement:
      #expect(
        seen.contains { if case .jetStream(.malformedResponse) = $0 { true } else { false } }, "\(seen)")
    case .err:
      #expect(
        seen.contains { if case .nats(.serverError(_, "Stale Connection")) = $0 { true } else { false } },
        "\(seen)")
    case .unknownInbox: #expect(progress.ignoredReplies > 0)
    case .closedMidMessage:
      #expect(
        seen.contains { if case .nats(.connectionClosed(_, true)) = $0 { true } else { false } }, "\(seen)")
    case .oversizedMessage:
      #expect(
        seen.contains {
          if case .nats(.protocolViolation(_, .oversizedMessage)) = $0 { true } else { false }
        },
        "\(seen)")
    }
    #expect(try StreamContents(server.address, stream: stream).holdsExactly(1...400))
  }
}
