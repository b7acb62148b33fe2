/// A byte stream to a server: plain TCP (``TCPTransport``) or, on Apple platforms, TLS through
/// Network.framework.
package protocol NATSTransport: Sendable {
  /// Sends every byte, or throws.
  func send(_ bytes: [UInt8]) throws(NATSError)
  /// Waits up to `timeout` (milliseconds) for bytes; `[]` when none arrived in time.
  /// - Throws: ``NATSError/connectionClosed(server:midMessage:)`` when the peer closed the stream.
  func receive(maximum: Int, timeout: Int32) throws(NATSError) -> [UInt8]
  /// Ends the stream in both directions, waking a blocked ``receive(maximum:timeout:)``.
  func shutdown()
  /// Releases the stream; call after every user of it has returned.
  func close()
}
