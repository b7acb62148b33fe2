/// One server to connect to: `nats://host:port` (or `host:port`, or `tls://host:port` for TLS).
///
/// Credentials in the address (`nats://user:pass@host`) are refused: they would end up in process
/// listings and shell histories. Give them as ``NATSCredentials`` instead.
public struct NATSServerAddress: Sendable, Hashable, CustomStringConvertible {
  /// The host name or address.
  public var host: String
  /// The port; 4222 when the address has none.
  public var port: UInt16
  /// Whether the connection must use TLS (`tls://`).
  public var requiresTLS: Bool

  /// The default NATS client port.
  public static let defaultPort: UInt16 = 4222

  /// Creates an address.
  public init(host: String, port: UInt16 = defaultPort, requiresTLS: Bool = false) {
    self.host = host
    self.port = port
    self.requiresTLS = requiresTLS
  }

  /// Parses `nats://host:port`, `tls://host:port`, `host:port` or `host`; IPv6 hosts in brackets.
  /// - Throws: ``NATSError/invalidAddress(_:)``, also for an address with credentials.
  public init(parsing text: String) throws(NATSError) {
    var rest = Substring(text)
    var tls = false
    if let scheme = rest.range(of: "://") {
      switch rest[..<scheme.lowerBound].lowercased() {
      case "nats": break
      case "tls": tls = true
      default: throw .invalidAddress(text)
      }
      rest = rest[scheme.upperBound...]
    }
    if rest.hasSuffix("/") { rest = rest.dropLast() }
    guard !rest.contains("@") else {
      throw .invalidAddress(
        "\(text.split(separator: "@").last ?? ""): credentials go in a file or the environment, never in the address"
      )
    }
    var host = rest
    var port = Self.defaultPort
    if rest.hasPrefix("[") {
      guard let close = rest.firstIndex(of: "]") else { throw .invalidAddress(text) }
      host = rest[rest.index(after: rest.startIndex)..<close]
      let after = rest[rest.index(after: close)...]
      if !after.isEmpty {
        guard after.hasPrefix(":"), let value = UInt16(after.dropFirst()), value > 0 else {
          throw .invalidAddress(text)
        }
        port = value
      }
    } else if let colon = rest.lastIndex(of: ":") {
      guard let value = UInt16(rest[rest.index(after: colon)...]), value > 0 else {
        throw .invalidAddress(text)
      }
      host = rest[..<colon]
      port = value
    }
    guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || ".-_:".contains($0) }) else {
      throw .invalidAddress(text)
    }
    self.init(host: String(host), port: port, requiresTLS: tls)
  }

  /// `nats://host:port`.
  public var description: String {
    (requiresTLS ? "tls://" : "nats://") + (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
  }
}
