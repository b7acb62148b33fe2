import Foundation
import RewindTesting
import Testing

@testable import RewindTool

/// The live page server's request parser: bounded, never traps, refuses what could mean two things.
@Suite struct HTTPRequestTests {
  static func parse(_ text: String) throws(HTTPRequest.ParseError) -> HTTPRequest {
    try HTTPRequest.parse(Array(text.utf8)).0
  }

  /// The status a request is refused with, or nil.
  static func status(of text: String) -> Int? {
    let outcome: HTTPRequest.ParseError
    do {
      _ = try parse(text)
      return nil
    } catch {
      outcome = error
    }
    if case .bad(let status, _) = outcome { return status }
    return nil
  }

  @Test func aRequestIsReadWhole() throws {
    let request = try Self.parse(
      "POST /api/command?token=ab%20c&x=1&token=second HTTP/1.1\r\nHost: 127.0.0.1:8\r\nContent-Type: application/json\r\n"
        + "Content-Length: 4\r\n\r\n{\"a\"}")
    #expect(request.method == "POST")
    #expect(request.path == "/api/command")
    #expect(request.query == ["token": "ab c", "x": "1"], "the first value of a repeated name")
    #expect(request.headers["host"] == "127.0.0.1:8")
    #expect(request.body == Array(#"{"a""#.utf8))
  }

  @Test func whatCannotBeServedIsRefusedWithAStatus() {
    let cases: [(String, Int)] = [
      ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
      ("GET / HTTP/1.1\r\nContent-Length: 99999999\r\n\r\n", 413),
      ("GET / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", 400),
      ("GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", 501),
      ("GET /%zz HTTP/1.1\r\n\r\n", 400),
      ("GET / HTTP/2.0\r\n\r\n", 400),
      ("GET http://evil/ HTTP/1.1\r\n\r\n", 400),
      ("get / HTTP/1.1\r\n\r\n", 400),
      ("GET / HTTP/1.1\r\nno colon\r\n\r\n", 400),
      ("GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 20_000) + "\r\n\r\n", 431),
    ]
    for (text, status) in cases {
      #expect(Self.status(of: text) == status, "\(text.prefix(60))")
    }
    #expect(throws: HTTPRequest.ParseError.incomplete) { try Self.parse("GET / HTTP/1.1\r\nHost: a\r\n") }
    #expect(throws: HTTPRequest.ParseError.incomplete) {
      try Self.parse("POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc")
    }
  }

  @Test(arguments: [11 as UInt64, 12, 13])
  func randomAndMutatedRequestsNeverTrap(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    let valid = Array(
      "GET /api/events?from=1&to=20&token=abc HTTP/1.1\r\nHost: 127.0.0.1:9\r\nOrigin: http://127.0.0.1:9\r\n\r\n"
        .utf8)
    var outcomes = [0, 0, 0]
    for _ in 0..<3_500 {
      var bytes = valid
      for _ in 0..<Int.random(in: 1...8, using: &random) {
        let index = Int.random(in: 0..<bytes.count, using: &random)
        switch Int.random(in: 0..<4, using: &random) {
        case 0: bytes[index] = UInt8.random(in: 0...255, using: &random)
        case 1: bytes.remove(at: index)
        case 2: bytes.insert(contentsOf: [13, 10, 13, 10], at: index)
        default: bytes = Array(bytes.prefix(index))
        }
        if bytes.isEmpty { bytes = [0] }
      }
      let outcome: HTTPRequest.ParseError
      do {
        let (request, used) = try HTTPRequest.parse(bytes)
        #expect(used <= bytes.count && request.body.count <= HTTPRequest.bodyLimit, "seed \(seed)")
        outcomes[0] += 1
        continue
      } catch {
        outcome = error
      }
      switch outcome {
      case .incomplete: outcomes[1] += 1
      case .bad(let status, _):
        #expect((400...501).contains(status), "seed \(seed)")
        outcomes[2] += 1
      }
    }
    #expect(outcomes.allSatisfy { $0 > 0 }, "seed \(seed): \(outcomes)")
  }
}
