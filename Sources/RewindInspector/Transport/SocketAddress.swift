#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// Socket addresses and the loopback rule.
package enum SocketAddress {
  /// `SOCK_STREAM` as `socket(2)` takes it on this platform.
  static var streamType: Int32 {
    #if canImport(Darwin)
      SOCK_STREAM
    #else
      Int32(SOCK_STREAM.rawValue)
    #endif
  }

  /// An IPv4 address and port.
  static func ipv4(_ text: String, port: UInt16) throws(SocketError) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    guard inet_pton(AF_INET, text, &address.sin_addr) == 1 else {
      throw SocketError(operation: "address", code: 0, detail: "not an IPv4 address: \(text)")
    }
    return address
  }

  /// Whether an IPv4 address, in network byte order as `sin_addr.s_addr` holds it, is on loopback
  /// (127.0.0.0/8).
  static func isLoopback(ipv4 networkOrder: UInt32) -> Bool {
    UInt32(bigEndian: networkOrder) >> 24 == 127
  }

  /// Whether an IPv6 address is loopback (`::1`) or an IPv4-mapped loopback address (`::ffff:127.x.y.z`).
  static func isLoopback(ipv6 bytes: [UInt8]) -> Bool {
    guard bytes.count == 16 else { return false }
    if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
    return bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
  }

  /// The peer of a connected socket in words, and whether it is on loopback. A socket pair (a Unix
  /// socket: a peer in this very process) counts as loopback.
  package static func peer(of descriptor: Int32) -> (text: String, isLoopback: Bool) {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let result = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(descriptor, $0, &length) }
    }
    guard result == 0 else { return ("unknown peer", false) }
    switch Int32(storage.ss_family) {
    case AF_INET:
      let address = withUnsafePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee }
      }
      var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
      var raw = address.sin_addr
      inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
      let name = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      return ("\(name):\(UInt16(bigEndian: address.sin_port))", isLoopback(ipv4: address.sin_addr.s_addr))
    case AF_INET6:
      let address = withUnsafePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee }
      }
      let bytes = withUnsafeBytes(of: address.sin6_addr) { Array($0) }
      return ("[ipv6]:\(UInt16(bigEndian: address.sin6_port))", isLoopback(ipv6: bytes))
    case AF_UNIX:
      return ("socket pair", true)
    default:
      return ("address family \(storage.ss_family)", false)
    }
  }
}
