#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// A TCP listener on `127.0.0.1`, never on another interface.
package final class Listener: @unchecked Sendable {
  // @unchecked: both descriptors are immutable after init and closed once, in deinit.
  package let descriptor: Int32
  /// The port it listens on (the one asked for, or the one the system chose for 0).
  package let port: UInt16
  /// A pipe whose write end wakes ``accept()`` for ``close()``.
  private let wake: (read: Int32, write: Int32)

  /// Listens on `127.0.0.1:port` (0: any free port).
  /// - Throws: ``SocketError``.
  package init(port: UInt16) throws(SocketError) {
    let descriptor = socket(AF_INET, SocketAddress.streamType, 0)
    guard descriptor >= 0 else { throw .system("socket") }
    var one: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    var address: sockaddr_in
    do {
      address = try SocketAddress.ipv4("127.0.0.1", port: port)
    } catch {
      systemClose(descriptor)
      throw error
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(descriptor, 16) == 0 else {
      let error = SocketError.system("listen on 127.0.0.1:\(port)")
      systemClose(descriptor)
      throw error
    }
    var actual = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &actual) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    var pipeEnds: [Int32] = [0, 0]
    guard pipe(&pipeEnds) == 0 else {
      let error = SocketError.system("pipe")
      systemClose(descriptor)
      throw error
    }
    self.descriptor = descriptor
    self.port = UInt16(bigEndian: actual.sin_port)
    self.wake = (pipeEnds[0], pipeEnds[1])
  }

  deinit {
    systemClose(descriptor)
    systemClose(wake.read)
    systemClose(wake.write)
  }

  /// Waits for the next connection; `nil` once ``close()`` was called.
  /// - Throws: ``SocketError`` when `accept` fails for another reason than an interruption.
  package func accept() throws(SocketError) -> Socket? {
    while true {
      var descriptors = [
        pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
        pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&descriptors, 2, -1)
      if ready < 0 && errno == EINTR { continue }
      guard ready >= 0 else { throw .system("poll") }
      if descriptors[1].revents != 0 { return nil }
      let accepted = systemAccept(descriptor)
      if accepted < 0 {
        // The peer may have given up between poll and accept; try again.
        if [EINTR, EAGAIN, ECONNABORTED, EPROTO].contains(errno) { continue }
        throw .system("accept")
      }
      let socket = Socket(descriptor: accepted)
      socket.setNoDelay()
      return socket
    }
  }

  /// Stops listening: a waiting ``accept()`` returns `nil`, and so does every later one.
  package func close() {
    systemWriteByte(wake.write)
  }
}
