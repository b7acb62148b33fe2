import Rewind
import Synchronization

/// Connects to one server of a list at a time, moving on across the list (and the servers a cluster
/// announces) when one fails or enters lame-duck mode.
///
/// The client keeps no connection of its own: ``connect(onEvent:)`` returns one, and the owner calls it again
/// after a failure, waiting ``backoff`` between rounds.
package final class NATSClient: Sendable {
  /// The connection options.
  package let options: NATSConnectionOptions
  /// The waits between rounds of attempts.
  package let backoff: NATSBackoff
  private let pool: Locked<NATSServerPool>

  /// A client for `servers`.
  /// - Throws: ``NATSError/noServers`` for an empty list.
  package init(
    servers: [NATSServerAddress], options: NATSConnectionOptions, backoff: NATSBackoff = NATSBackoff()
  )
    throws(NATSError)
  {
    guard !servers.isEmpty else { throw .noServers }
    self.options = options
    self.backoff = backoff
    pool = Locked(NATSServerPool(servers))
  }

  /// The servers known now, configured and announced.
  package var servers: [NATSServerAddress] { pool.withLock { $0.servers } }

  /// Tries each server once, lame ducks last, and returns the first connection made.
  /// - Throws: the last server's error when none could be connected (credentials refused, TLS required,
  ///   unreachable...).
  package func connect(onEvent: @escaping @Sendable (NATSConnection.Event) -> Void = { _ in })
    throws(NATSError)
    -> NATSConnection
  {
    let order = pool.withLock { $0.round() }
    var lastError = NATSError.noServers
    for server in order {
      // Set under the pool's lock when this connection reports lame-duck mode: its reader may deliver
      // that before `connect` returns, and marking the server healthy after it would undo it.
      let reportedLameDuck = Atomic<Bool>(false)
      do {
        let connection = try NATSConnection.connect(to: server, options: options) { [pool] event in
          switch event {
          case .info(let info): pool.withLock { $0.learn(info.connectURLs) }
          case .lameDuck(let info):
            pool.withLock {
              $0.learn(info.connectURLs)
              $0.markLameDuck(server)
              reportedLameDuck.store(true, ordering: .relaxed)
            }
          default: break
          }
          onEvent(event)
        }
        pool.withLock {
          $0.learn(connection.info.connectURLs)
          // A server may already be in lame-duck mode in the INFO that opens the connection.
          if connection.info.lameDuck || reportedLameDuck.load(ordering: .relaxed) {
            $0.markLameDuck(server)
          } else {
            $0.markHealthy(server)
          }
        }
        return connection
      } catch {
        lastError = error
      }
    }
    throw lastError
  }
}
