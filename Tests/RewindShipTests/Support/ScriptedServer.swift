import Dispatch
import Foundation
import RewindShip

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A fake NATS server on a loopback port that plays a script against each client: the bad input a real
/// server would never send (malformed INFO, -ERR, stray replies, a message cut short, an oversized one).
final class ScriptedServer: Sendable {
  /// One accepted client, for the script.
  struct Client {
    let descriptor: Int32

    func send(_ text: String) { send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) {
      bytes.withUnsafeBytes { raw in
        var sent = 0
        while sent < raw.count, let base = raw.baseAddress {
          let result = Glibc.send(descriptor, base + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
          if result <= 0 { return }
          sent += result
        }
      }
    }

    /// Reads one line (without CR LF), or `nil` when the client closed.
    func readLine() -> String? {
      var line: [UInt8] = []
      var byte: UInt8 = 0
      while recv(descriptor, &byte, 1, 0) == 1 {
        if byte == 10 {
          return String(decoding: line.last == 13 ? line.dropLast() : line[...], as: UTF8.self)
        }
        line.append(byte)
      }
      return nil
    }

    /// Reads lines until one starts with `prefix`; returns it.
    func read(until prefix: String) -> String? {
      while let line = readLine() {
        if line.hasPrefix(prefix) { return line }
      }
      return nil
    }

    /// The handshake a client expects: INFO, then CONNECT and PING answered with PONG; returns the
    /// client's inbox prefix (from its first SUB).
    func handshake(info: String = ScriptedServer.info()) -> String? {
      send("INFO \(info)\r\n")
      guard read(until: "PING") != nil else { return nil }
      send("PONG\r\n")
      guard let sub = read(until: "SUB ") else { return nil }
      // "SUB _INBOX.<token>.* 1"
      return sub.split(separator: " ").dropFirst().first.map { String($0.dropLast()) }
    }

    func close() { _ = Glibc.close(descriptor) }
  }

  let port: UInt16
  private let listener: Int32

  /// A typical INFO.
  static func info(maxPayload: Int = 1 << 20, extra: String = "") -> String {
    #"{"server_id":"FAKE","version":"2.9.10","headers":true,"proto":1,"max_payload":\#(maxPayload)\#(extra)}"#
  }

  /// Listens and runs `script` for every client that connects, each on a thread of its own; `onAccept`
  /// runs first, on the accepting thread, as each client is accepted.
  init(onAccept: @escaping @Sendable () -> Void = {}, _ script: @escaping @Sendable (Client) -> Void) {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    self.listener = listener
    var one: Int32 = 1
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
    }
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
    }
    port = UInt16(bigEndian: address.sin_port)
    listen(listener, 8)
    Thread {
      while true {
        let descriptor = accept(listener, nil, nil)
        guard descriptor >= 0 else { return }
        onAccept()
        Thread {
          let client = Client(descriptor: descriptor)
          script(client)
          client.close()
        }.start()
      }
    }.start()
  }

  var address: NATSServerAddress { NATSServerAddress(host: "127.0.0.1", port: port) }

  deinit {
    Glibc.shutdown(listener, Int32(SHUT_RDWR))
    _ = Glibc.close(listener)
  }
}
