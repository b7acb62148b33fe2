import Foundation
import Rewind
import RewindTesting

@testable import RewindShip

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A loopback proxy between clients and a server that passes everything from client to server and,
/// from server to client, passes each operation through `rewrite`: unchanged, dropped (`[]`), replaced by
/// other bytes, or cut off with the connection (``Rewrite/close(after:)``).
final class FaultProxy: @unchecked Sendable {
  // @unchecked: `random` and `dropped` are touched only under `lock`.
  let port: UInt16
  private let listener: Int32
  private let lock = NSLock()
  private var random: SplitMix64
  private var dropped = 0

  /// What to do with one operation from the server.
  enum Rewrite {
    /// Send these bytes instead (the original, nothing, or something else).
    case send([UInt8])
    /// Send these bytes, then close the client's connection.
    case close(after: [UInt8])
  }

  /// Forwards to `upstream`; drops a server operation when `drop(operation, random)` says so.
  convenience init(
    upstream: NATSServerAddress, seed: UInt64,
    drop: @escaping @Sendable (NATSServerOperation, inout SplitMix64) -> Bool
  ) {
    self.init(upstream: upstream, seed: seed) { operation, raw, random in
      drop(operation, &random) ? .send([]) : .send(raw)
    }
  }

  /// Forwards to `upstream`, rewriting what the server sends with `rewrite`.
  init(
    upstream: NATSServerAddress, seed: UInt64,
    rewrite: @escaping @Sendable (NATSServerOperation, [UInt8], inout SplitMix64) -> Rewrite
  ) {
    random = SplitMix64(seed: seed)
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    self.listener = listener
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
    listen(listener, 16)
    Thread { [self] in
      while true {
        let client = accept(listener, nil, nil)
        guard client >= 0 else { return }
        guard let server = try? TCPTransport.connect(host: upstream.host, port: upstream.port, timeout: 2000)
        else {
          _ = Glibc.close(client)
          continue
        }
        let clientSide = Socket(descriptor: client)
        // Client to server: bytes as they come.
        Thread {
          while let bytes = clientSide.read() {
            guard (try? server.send(bytes)) != nil else { break }
          }
          server.shutdown()
        }.start()
        // Server to client: whole operations, some dropped.
        Thread { [self] in
          var parser = NATSProtocolParser(maximumMessage: 8 << 20)
          reading: while true {
            guard let bytes = try? server.receive(maximum: 64 << 10, timeout: 60_000) else { break }
            parser.feed(bytes)
            while let (operation, raw) = (try? parser.nextWithBytes()) ?? nil {
              switch decide(operation, raw, rewrite) {
              case .send(let bytes):
                guard bytes.isEmpty || clientSide.write(bytes) else { break reading }
              case .close(let bytes):
                _ = clientSide.write(bytes)
                break reading
              }
            }
          }
          clientSide.shutdown()
          server.close()
        }.start()
      }
    }.start()
  }

  private func decide(
    _ operation: NATSServerOperation, _ raw: [UInt8],
    _ rewrite: (NATSServerOperation, [UInt8], inout SplitMix64) -> Rewrite
  ) -> Rewrite {
    lock.lock()
    defer { lock.unlock() }
    let decision = rewrite(operation, raw, &random)
    if case .send(let bytes) = decision, bytes == raw {
    } else {
      dropped += 1
    }
    return decision
  }

  /// How many operations were dropped or rewritten so far.
  var droppedCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return dropped
  }

  var address: NATSServerAddress { NATSServerAddress(host: "127.0.0.1", port: port) }

  deinit {
    Glibc.shutdown(listener, Int32(SHUT_RDWR))
    _ = Glibc.close(listener)
  }
}

/// A connected socket's two directions, for the proxy.
private struct Socket: Sendable {
  let descriptor: Int32

  func read() -> [UInt8]? {
    var bytes = [UInt8](repeating: 0, count: 64 << 10)
    let count = bytes.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { return nil }
    return Array(bytes[..<count])
  }

  func write(_ bytes: [UInt8]) -> Bool {
    var sent = 0
    while sent < bytes.count {
      let result = bytes[sent...].withUnsafeBytes {
        Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if result <= 0 { return false }
      sent += result
    }
    return true
  }

  func shutdown() { Glibc.shutdown(descriptor, Int32(SHUT_RDWR)) }
}

extension NATSServerOperation {
  /// Whether this is a publish acknowledgement (a reply on an inbox that names a stream and sequence).
  var isPublishAcknowledgement: Bool {
    guard case .message(let message) = self, message.subject.hasPrefix("_INBOX.") else { return false }
    return message.payload.starts(with: Array(#"{"stream""#.utf8))
  }
}
