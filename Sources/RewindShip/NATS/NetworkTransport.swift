#if canImport(Network)
  import Dispatch
  import Foundation
  import Network
  import Rewind

  /// TLS on Apple platforms: a Network.framework connection behind the same blocking interface as
  /// ``TCPTransport`` (used for `tls://` addresses). The system's trust store verifies the server.
  package final class NetworkTransport: NATSTransport, @unchecked Sendable {
    // @unchecked: `connection` is used from any thread, as Network.framework allows; `state` is locked.
    private let connection: NWConnection
    private let server: String
    private let queue = DispatchQueue(label: "RewindShip TLS")
    private let arrived = DispatchSemaphore(value: 0)
    private let state = Locked(ReceiveState())

    private struct ReceiveState {
      var buffered: [UInt8] = []
      var outstanding = false
      var failure: NATSError?
    }

    private init(connection: NWConnection, server: String) {
      self.connection = connection
      self.server = server
    }

    /// Connects with TLS to `host:port` within `timeout` milliseconds.
    package static func connect(host: String, port: UInt16, timeout: Int32) throws(NATSError)
      -> NetworkTransport
    {
      let server = "\(host):\(port)"
      guard let endpointPort = NWEndpoint.Port(rawValue: port) else { throw .invalidAddress(server) }
      let parameters = NWParameters(tls: NWProtocolTLS.Options(), tcp: NWProtocolTCP.Options())
      let connection = NWConnection(host: NWEndpoint.Host(host), port: endpointPort, using: parameters)
      let transport = NetworkTransport(connection: connection, server: server)
      let ready = DispatchSemaphore(value: 0)
      let failure = Locked<String?>(nil)
      connection.stateUpdateHandler = { state in
        switch state {
        case .ready: ready.signal()
        case .failed(let error), .waiting(let error):
          failure.withLock { $0 = "\(error)" }
          ready.signal()
        default: break
        }
      }
      connection.start(queue: transport.queue)
      if ready.wait(timeout: .now() + .milliseconds(Int(timeout))) == .timedOut {
        connection.cancel()
        throw .connectionFailed(server: server, reason: "TLS connect timed out")
      }
      if let reason = failure.withLock({ $0 }) {
        connection.cancel()
        throw .connectionFailed(server: server, reason: reason)
      }
      connection.stateUpdateHandler = nil
      return transport
    }

    package func send(_ bytes: [UInt8]) throws(NATSError) {
      let done = DispatchSemaphore(value: 0)
      let failed = Locked(false)
      connection.send(
        content: Data(bytes),
        completion: .contentProcessed { error in
          if error != nil { failed.withLock { $0 = true } }
          done.signal()
        })
      done.wait()
      if failed.withLock({ $0 }) { throw .connectionClosed(server: server, midMessage: false) }
    }

    package func receive(maximum: Int, timeout: Int32) throws(NATSError) -> [UInt8] {
      let start = state.withLock { state -> Bool in
        guard state.buffered.isEmpty, state.failure == nil, !state.outstanding else { return false }
        state.outstanding = true
        return true
      }
      if start {
        connection.receive(minimumIncompleteLength: 1, maximumLength: maximum) {
          [self] data, _, complete, error in
          state.withLock { state in
            state.outstanding = false
            if let data { state.buffered += Array(data) }
            if error != nil || (complete && (data?.isEmpty ?? true)) {
              state.failure = .connectionClosed(server: server, midMessage: false)
            }
          }
          arrived.signal()
        }
      }
      let hasResult = state.withLock { !$0.buffered.isEmpty || $0.failure != nil }
      if !hasResult { _ = arrived.wait(timeout: .now() + .milliseconds(Int(timeout))) }
      let (bytes, failure) = state.withLock { state -> ([UInt8], NATSError?) in
        defer { state.buffered = [] }
        return (state.buffered, state.buffered.isEmpty ? state.failure : nil)
      }
      if let failure { throw failure }
      return bytes
    }

    package func shutdown() { connection.cancel() }

    package func close() { connection.cancel() }
  }
#endif
