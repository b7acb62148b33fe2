/// The servers a client may connect to, in the order to try them: the configured ones, then those a
/// cluster announced (`connect_urls`); a server in lame-duck mode goes last until it has been replaced.
struct NATSServerPool: Sendable {
  private(set) var servers: [NATSServerAddress]
  private var lameDuck: Set<NATSServerAddress> = []
  private var next = 0

  init(_ servers: [NATSServerAddress]) { self.servers = servers }

  /// The order to try servers in for one round: starting after the last one used, lame ducks last.
  mutating func round() -> [NATSServerAddress] {
    guard !servers.isEmpty else { return [] }
    let start = next % servers.count
    next += 1
    let rotated = Array(servers[start...] + servers[..<start])
    return rotated.filter { !lameDuck.contains($0) } + rotated.filter { lameDuck.contains($0) }
  }

  /// Adds the servers a cluster announced (`host:port`); ignores what does not parse.
  mutating func learn(_ urls: [String]) {
    for url in urls {
      guard let address = try? NATSServerAddress(parsing: url), !servers.contains(address) else { continue }
      servers.append(address)
    }
  }

  /// Marks `server` as about to shut down.
  mutating func markLameDuck(_ server: NATSServerAddress) { lameDuck.insert(server) }

  /// A connection to `server` worked: it is no longer a lame duck.
  mutating func markHealthy(_ server: NATSServerAddress) { lameDuck.remove(server) }
}
