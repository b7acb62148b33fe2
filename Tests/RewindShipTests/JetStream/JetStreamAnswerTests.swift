import Foundation
import RewindTesting
import Testing

@testable import RewindShip

/// Answers from JetStream are untrusted too: acknowledgements and errors decode into typed values, and
/// mutated answers give a typed error, never a trap.
@Suite struct JetStreamAnswerTests {
  static func message(_ text: String, status: Int? = nil) -> NATSMessage {
    NATSMessage(
      subject: "_INBOX.x.1", sid: 1, headers: status.map { NATSHeaders(status: $0) },
      payload: Array(text.utf8))
  }

  @Test func acknowledgementsAndErrors() throws {
    #expect(
      try JetStream.publishAck(Self.message(#"{"stream":"T", "seq":7}"#)).get()
        == JetStreamPublishAck(stream: "T", sequence: 7, duplicate: false))
    #expect(
      try JetStream.publishAck(Self.message(#"{"stream":"T", "seq":1,"duplicate": true}"#)).get()
        == JetStreamPublishAck(stream: "T", sequence: 1, duplicate: true))
    let wrong = JetStream.publishAck(
      Self.message(
        #"{"error":{"code":400,"err_code":10071,"description":"wrong last sequence: 1"},"stream":"T","seq":0}"#
      ))
    #expect(
      throws: JetStreamError.api(
        JetStreamAPIError(code: 400, errorCode: 10071, text: "wrong last sequence: 1"))
    ) {
      try wrong.get()
    }
    #expect(throws: JetStreamError.nats(.noResponders(subject: "_INBOX.x.1"))) {
      try JetStream.publishAck(Self.message("", status: 503)).get()
    }
    for bad in ["", "{}", "[1]", #"{"stream":1,"seq":"x"}"#, #"{"stream":"T","seq":-1}"#] {
      guard case .failure(.malformedResponse) = JetStream.publishAck(Self.message(bad)) else {
        Issue.record("\(bad) was not refused")
        continue
      }
    }
  }

  @Test func fuzzedAnswersNeverTrap() {
    let seed: UInt64 = 0x1507_0031
    var random = SplitMix64(seed: seed)
    let seeds = [
      #"{"stream":"T", "seq":7}"#, #"{"stream":"T", "seq":1,"duplicate": true}"#,
      #"{"error":{"code":400,"err_code":10071,"description":"wrong last sequence: 1"},"stream":"T","seq":0}"#,
      #"{"server_id":"S","headers":true,"max_payload":1048576,"connect_urls":["a:1"],"ldm":true}"#,
    ].map { Array($0.utf8) }
    var decoded = 0
    for _ in 0..<4_000 {
      var bytes = seeds[Int.random(in: 0..<seeds.count, using: &random)]
      for _ in 0..<Int.random(in: 1...3, using: &random) {
        let index = Int.random(in: 0..<bytes.count, using: &random)
        if Bool.random(using: &random) {
          bytes[index] = UInt8.random(in: 0...255, using: &random)
        } else {
          bytes.remove(at: index)
        }
      }
      if case .success = JetStream.publishAck(NATSMessage(subject: "s", sid: 1, payload: bytes)) {
        decoded += 1
      }
      if (try? NATSServerInfo.parse(bytes[...])) != nil { decoded += 1 }
    }
    #expect(decoded > 0, "seed \(seed)")
  }
}
