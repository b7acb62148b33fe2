import Foundation
import Rewind
import RewindTestSupport
import RewindTesting
import Testing

@testable import RewindInspector

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every frame from the network is untrusted: 10,000 malformed, truncated, oversized and out-of-order
/// frames and commands, each on a connection of its own. Each closes its connection with a reason (sent
/// to the client once the token was checked, recorded by the app before), the app keeps running, and no
/// event is recorded from them.
@Suite(.timeLimit(.minutes(3))) struct InspectorFuzzTests {
  static let seed: UInt64 = 0x5EED_1A5B
  static let count = 10_000

  @Test func malformedFramesCloseTheConnectionWithAReasonAndRecordNothing() async throws {
    // Blocking socket work for seconds: off the cooperative pool.
    try await onOwnThread { try Self.fuzz() }
  }

  static func fuzz() throws {
    let (store, inspector) = try makeInspectedStore()
    defer { inspector.stop() }
    let token = try TokenFile.read(from: inspector.tokenFilePath).token.hexadecimal
    let sequence = store.sequence
    var random = SplitMix64(seed: Self.seed)
    var kinds: [String: Int] = [:]
    for index in 0..<Self.count {
      let (kind, afterHello, bytes) = Self.badFrame(&random, token: token)
      kinds[kind, default: 0] += 1
      let closedBefore = inspector.closings.withLock { $0.total }
      let client = try TestClient.pair(with: inspector)
      if afterHello { _ = try client.attach(to: inspector) }
      try? client.socket.write(bytes, timeout: 5_000)
      if afterHello {
        // Partial frames end with the client hanging up: the app must notice the truncation.
        if kind.hasPrefix("truncated") { client.socket.shutdownWriting() }
        let bye = client.readToEnd()
        let reason = bye?["reason"]?.stringValue ?? ""
        #expect(
          bye?["type"] == .string("bye") && !reason.isEmpty,
          "seed \(Self.seed), frame \(index) (\(kind)): closed without a reason")
      } else {
        client.socket.shutdownWriting()
        #expect(
          client.closedSilently(),
          "seed \(Self.seed), frame \(index) (\(kind)): sent something before the token")
      }
      // The app records why it closed the connection, in every case.
      var waited = 0
      while inspector.closings.withLock({ $0.total }) == closedBefore && waited < 5_000 {
        usleep(1_000)
        waited += 1
      }
      let recorded = inspector.closings.withLock { $0.total } > closedBefore
      #expect(recorded, "seed \(Self.seed), frame \(index) (\(kind)): no reason recorded")
      if !recorded { return }
    }
    #expect(store.sequence == sequence, "no event was recorded from the frames")
    #expect(inspector.mode == .live)
    store.send(.increment)
    #expect(store.state.count == 1, "the app keeps running")
    print(
      "fuzz (seed \(Self.seed)): \(kinds.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))"
    )
  }

  /// A bad frame: its kind, whether it is sent after a good hello, and its bytes.
  static func badFrame(_ random: inout SplitMix64, token: String) -> (String, Bool, [UInt8]) {
    func frame(_ text: String) -> [UInt8] { header(text.utf8.count) + Array(text.utf8) }
    func header(_ length: Int) -> [UInt8] {
      [
        UInt8(truncatingIfNeeded: length >> 24), UInt8(truncatingIfNeeded: length >> 16),
        UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length),
      ]
    }
    func noise(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) } }
    let good = [
      #"{"type":"jump","id":1,"to":2}"#, #"{"type":"skip","id":2,"seq":1}"#,
      #"{"type":"dispatch","id":3,"action":{"setTitle":{"_0":"x"}}}"#,
      #"{"type":"events","id":4,"from":1,"to":3}"#,
      #"{"type":"state","id":5,"at":1,"path":"notes"}"#,
    ]
    let afterHello = Int.random(in: 0..<10, using: &random) < 8
    switch Int.random(in: 0..<14, using: &random) {
    case 0:
      return (
        "noise", afterHello,
        frame(String(decoding: noise(Int.random(in: 1...64, using: &random)), as: UTF8.self))
      )
    case 1: return ("raw-noise", afterHello, header(Int.random(in: 1...64, using: &random)) + noise(64))
    case 2:
      let text = good.randomElement(using: &random) ?? good[0]
      let cut = Int.random(in: 1..<text.utf8.count, using: &random)
      return ("truncated-json", afterHello, frame(String(text.prefix(cut))))
    case 3:
      let text = good.randomElement(using: &random) ?? good[0]
      let bytes = frame(text)
      return (
        "truncated-frame", afterHello, Array(bytes.prefix(Int.random(in: 1..<bytes.count, using: &random)))
      )
    case 4:
      return (
        "oversized", afterHello,
        header(Int.random(in: (Frame.clientLimit + 1)...(Int(Int32.max)), using: &random)) + noise(16)
      )
    case 5: return ("empty", afterHello, header(0))
    case 6:
      let fields = [
        #""id":1"#, #""to":"two""#, #""to":-1"#, #""seq":1.5"#, #""from":[1]"#, #""extra":true"#,
        #""id":"x""#,
      ]
      let type =
        ["jump", "skip", "unskip", "events", "state", "undo", "ping"].randomElement(using: &random) ?? "jump"
      let field = fields.randomElement(using: &random) ?? fields[0]
      return ("mistyped", true, frame(#"{"type":"\#(type)",\#(field),"bogus":0}"#))
    case 7:
      let type =
        ["eval", "exec", "reply", "status", "events", "welcome", "Jump", ""].randomElement(using: &random)
        ?? "eval"
      return ("unknown-command", true, frame(#"{"type":"\#(type)","id":1}"#))
    case 8: return ("second-hello", true, frame(Hello(token: token).message.text))
    case 9:
      return (
        "not-an-object", afterHello,
        frame(["[1,2]", "\"jump\"", "42", "null", "true"].randomElement(using: &random) ?? "[]")
      )
    case 10:
      let depth = Int.random(in: 65...2_000, using: &random)
      return (
        "deep", afterHello, frame(String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
      )
    case 11:
      return ("invalid-utf8", afterHello, header(24) + Array(#"{"type":"ping","id":1,"#.utf8) + [0xC3, 0x28])
    case 12: return ("command-before-hello", false, frame(good.randomElement(using: &random) ?? good[0]))
    default:
      let key = ["id", "to"].randomElement(using: &random) ?? "id"
      return ("repeated-key", true, frame(#"{"type":"jump","\#(key)":1,"\#(key)":2,"id":3,"to":1}"#))
    }
  }
}

extension Socket {
  /// Ends this side's writing: the peer reads the end of input.
  func shutdownWriting() {
    #if canImport(Darwin)
      _ = Darwin.shutdown(descriptor, SHUT_WR)
    #else
      _ = Glibc.shutdown(descriptor, Int32(SHUT_WR))
    #endif
  }
}
