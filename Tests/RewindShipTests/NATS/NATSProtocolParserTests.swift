import Foundation
import RewindTesting
import Testing

@testable import RewindShip

/// The parser of what a server sends: vectors, every refusal, and a seeded fuzz run.
@Suite struct NATSProtocolParserTests {
  static let info =
    #"INFO {"server_id":"S1","version":"2.9.10","headers":true,"max_payload":1048576}"# + "\r\n"

  static func parse(_ text: String, maximumMessage: Int = 1 << 20) throws(NATSProtocolError)
    -> [NATSServerOperation]
  {
    var parser = NATSProtocolParser(maximumMessage: maximumMessage)
    parser.feed(Array(text.utf8))
    var operations: [NATSServerOperation] = []
    while let operation = try parser.next() { operations.append(operation) }
    return operations
  }

  @Test func readsEveryOperation() throws {
    let text =
      Self.info + "PING\r\nPONG\r\n+OK\r\n-ERR 'Authorization Violation'\r\n"
      + "MSG a.b 7 _INBOX.x.1 5\r\nhello\r\n" + "MSG a 1  2\r\nhi\r\n"
      + "HMSG a 2 $JS.ACK.S.C.1.2.3.4.5 24 27\r\nNATS/1.0\r\nA: b\r\nC: d\r\n\r\nabc\r\n"
      + "HMSG _INBOX.x.2 1 16 16\r\nNATS/1.0 503\r\n\r\n\r\n"
    let operations = try Self.parse(text)
    #expect(operations.count == 9)
    guard case .info(let info) = operations[0] else { Issue.record("no INFO"); return }
    #expect(info.serverID == "S1" && info.maxPayload == 1_048_576 && info.headers)
    #expect(operations[1] == .ping && operations[2] == .pong && operations[3] == .ok)
    #expect(operations[4] == .error("Authorization Violation"))
    #expect(
      operations[5]
        == .message(NATSMessage(subject: "a.b", sid: 7, reply: "_INBOX.x.1", payload: Array("hello".utf8))))
    // Two spaces where the reply is empty, as nats-server writes publish acknowledgements.
    #expect(operations[6] == .message(NATSMessage(subject: "a", sid: 1, payload: Array("hi".utf8))))
    guard case .message(let headed) = operations[7] else { Issue.record("no HMSG"); return }
    #expect(headed.reply == "$JS.ACK.S.C.1.2.3.4.5" && headed.payload == Array("abc".utf8))
    #expect(headed.headers?.fields == [.init("A", "b"), .init("C", "d")])
    guard case .message(let status) = operations[8] else { Issue.record("no status"); return }
    #expect(status.status == 503 && status.payload.isEmpty)
  }

  @Test func readsOperationsSplitAtEveryByte() throws {
    let text =
      Self.info
      + "MSG a 1 _INBOX.x.1 5\r\nhello\r\nHMSG a 2 24 27\r\nNATS/1.0\r\nA: b\r\nC: d\r\n\r\nabc\r\nPING\r\n"
    let whole = try Self.parse(text)
    let bytes = Array(text.utf8)
    for split in 1..<bytes.count {
      var parser = NATSProtocolParser()
      var operations: [NATSServerOperation] = []
      parser.feed(bytes[..<split])
      while let operation = try parser.next() { operations.append(operation) }
      parser.feed(bytes[split...])
      while let operation = try parser.next() { operations.append(operation) }
      #expect(operations == whole, "split at \(split)")
      #expect(!parser.isMidOperation)
    }
  }

  @Test func refusesWhatBreaksTheProtocol() {
    func refusal(_ text: String, maximumMessage: Int = 1 << 20) -> NATSProtocolError? {
      do {
        _ = try Self.parse(text, maximumMessage: maximumMessage)
        return nil
      } catch {
        return error
      }
    }
    #expect(refusal("HELLO\r\n") == .unknownOperation("HELLO"))
    #expect(refusal("INFO {not json\r\n") == .malformedInfo("not a JSON object"))
    #expect(refusal("INFO {}\r\n") == .malformedInfo("no server_id"))
    #expect(refusal("INFO\r\n") == .malformedInfo("no JSON after INFO"))
    #expect(refusal("MSG a\r\n") == .malformedControlLine("MSG a"))
    #expect(refusal("MSG a x 1\r\nh\r\n") == .malformedControlLine("a subscription id that is not a number"))
    #expect(refusal("MSG a 1 -1\r\n") == .malformedControlLine("a message size that is not a number"))
    #expect(
      refusal("MSG a 1 99999999999999999999\r\n")
        == .malformedControlLine("a message size that is not a number"))
    #expect(refusal("MSG a 1 5000\r\n", maximumMessage: 100) == .oversizedMessage(size: 5000, limit: 100))
    #expect(refusal("MSG a 1 2\r\nhiX\r\n") == .missingPayloadTerminator)
    #expect(
      refusal("HMSG a 1 9 5\r\nNATS/1.0\r\n")
        == .malformedControlLine("a header size that is not a number no larger than the total"))
    #expect(refusal("HMSG a 1 8 8\r\nHTTP\r\n\r\n\r\n") == .malformedHeaders("no NATS/1.0 version line"))
    #expect(
      refusal("HMSG a 1 13 13\r\nNATS/1.0\r\nx\r\n\r\n")
        == .malformedHeaders("the block does not end with an empty line"))
    #expect(refusal("PING x\r\n") == .malformedControlLine("PING x"))
    #expect(refusal(String(repeating: "x", count: 70_000)) == .controlLineTooLong(limit: 64 << 10))
  }

  @Test func headersRoundTripAndRefuseBadBlocks() throws {
    let headers = NATSHeaders(fields: [.init("Nats-Msg-Id", "abc:1"), .init("ce-type", "a b")])
    #expect(try NATSHeaders.parse(headers.encoded[...]) == headers)
    let status = NATSHeaders(status: 404, statusDescription: "No Messages")
    #expect(try NATSHeaders.parse(status.encoded[...]) == status)
    for bad in [
      "NATS/1.0\r\n", "NATS/1.0\n\n", "NATS/1.0 5x\r\n\r\n", "NATS/1.0\r\n: v\r\n\r\n",
      "NATS/1.0\r\na b: v\r\n\r\n",
    ] {
      #expect(throws: NATSProtocolError.self, "\(bad.debugDescription)") {
        try NATSHeaders.parse(Array(bad.utf8)[...])
      }
    }
  }

  /// Random mutations of valid streams and random bytes: every input ends in operations or a typed error,
  /// never a trap, and the buffer never holds more than the limits allow.
  @Test func fuzz() {
    let seed: UInt64 = 0x5EED_0031
    var random = SplitMix64(seed: seed)
    let seeds = [
      Self.info, "PING\r\n", "MSG a 1 _INBOX.x.1 5\r\nhello\r\n",
      "HMSG a 2 24 27\r\nNATS/1.0\r\nA: b\r\nC: d\r\n\r\nabc\r\n",
      "-ERR 'x'\r\n", "HMSG _INBOX.x.2 1 16 16\r\nNATS/1.0 503\r\n\r\n\r\n",
    ].map { Array($0.utf8) }
    let alphabet = Array("MSGHINFOPONG +-ERROK{}\":, 0123456789\r\n.abc_".utf8)
    var operationsSeen = 0
    var errorsSeen = 0
    for iteration in 0..<12_000 {
      var input: [UInt8] = []
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        input += seeds[Int.random(in: 0..<seeds.count, using: &random)]
      }
      switch iteration % 4 {
      case 0:
        for _ in 0..<Int.random(in: 1...4, using: &random) where !input.isEmpty {
          input[Int.random(in: 0..<input.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
        }
      case 1:
        for _ in 0..<Int.random(in: 1...3, using: &random) {
          input.insert(
            alphabet[Int.random(in: 0..<alphabet.count, using: &random)],
            at: Int.random(in: 0...input.count, using: &random))
        }
      case 2:
        input.removeSubrange(Int.random(in: 0..<input.count, using: &random)..<input.count)
      default:
        input = (0..<Int.random(in: 0...200, using: &random)).map { _ in
          alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
        }
      }
      var parser = NATSProtocolParser(maximumMessage: 4096, maximumControlLine: 1024)
      var offset = 0
      do {
        while offset < input.count {
          let chunk = Int.random(in: 1...64, using: &random)
          parser.feed(input[offset..<min(input.count, offset + chunk)])
          offset += chunk
          while try parser.next() != nil { operationsSeen += 1 }
        }
      } catch {
        errorsSeen += 1
      }
      #expect(parser.bufferedBytes <= 1024 + 4096 + 64 + 2, "seed \(seed), iteration \(iteration)")
    }
    #expect(
      operationsSeen > 1000 && errorsSeen > 1000,
      "seed \(seed): \(operationsSeen) operations, \(errorsSeen) errors")
  }
}
