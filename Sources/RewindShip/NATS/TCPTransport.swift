import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// A TCP connection through POSIX sockets: connected with a timeout, Nagle off, sends that never raise
/// SIGPIPE.
package final class TCPTransport: NATSTransport {
  private let descriptor: Int32
  private let server: String
  private let closedOnce = Atomic<Bool>(false)

  private init(descriptor: Int32, server: String) {
    self.descriptor = descriptor
    self.server = server
  }

  /// Connects to `host:port`, trying each address the name resolves to, within `timeout` milliseconds each.
  package static func connect(host: String, port: UInt16, timeout: Int32) throws(NATSError) -> TCPTransport {
    let server = NATSServerAddress(host: host, port: port).description
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    #if canImport(Glibc) || canImport(Musl)
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    #else
      hints.ai_socktype = SOCK_STREAM
    #endif
    var list: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &list)
    guard status == 0, let first = list else {
      throw .connectionFailed(
        server: server, reason: "cannot resolve the host (\(String(cString: gai_strerror(status))))")
    }
    defer { freeaddrinfo(list) }
    var reason = "no address"
    var entry: UnsafeMutablePointer<addrinfo>? = first
    while let info = entry {
      entry = info.pointee.ai_next
      let descriptor = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
      guard descriptor >= 0 else {
        reason = String(cString: strerror(errno))
        continue
      }
      if let failure = connect(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen, timeout: timeout) {
        reason = failure
        _ = systemClose(descriptor)
        continue
      }
      var one: Int32 = 1
      _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
      #if canImport(Darwin)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
      #endif
      return TCPTransport(descriptor: descriptor, server: server)
    }
    throw .connectionFailed(server: server, reason: reason)
  }

  /// A non-blocking connect waited for with `poll`; returns why it failed, or `nil`.
  private static func connect(
    _ descriptor: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t, timeout: Int32
  ) -> String? {
    let flags = fcntl(descriptor, F_GETFL, 0)
    _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
    defer { _ = fcntl(descriptor, F_SETFL, flags) }
    if systemConnect(descriptor, address, length) == 0 { return nil }
    guard errno == EINPROGRESS else { return String(cString: strerror(errno)) }
    var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
    var ready: Int32
    repeat { ready = poll(&poller, 1, timeout) } while ready < 0 && errno == EINTR
    guard ready > 0 else { return ready == 0 ? "connect timed out" : String(cString: strerror(errno)) }
    var error: Int32 = 0
    var size = socklen_t(MemoryLayout<Int32>.size)
    guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &size) == 0 else {
      return String(cString: strerror(errno))
    }
    return error == 0 ? nil : String(cString: strerror(error))
  }

  package func send(_ bytes: [UInt8]) throws(NATSError) {
    var sent = 0
    let failure: Int32? = bytes.withUnsafeBytes { raw -> Int32? in
      guard let base = raw.baseAddress else { return nil }
      while sent < raw.count {
        #if canImport(Darwin)
          let result = systemSend(descriptor, base + sent, raw.count - sent, 0)
        #else
          let result = systemSend(descriptor, base + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
        #endif
        if result < 0 {
          if errno == EINTR { continue }
          return errno
        }
        sent += result
      }
      return nil
    }
    if let failure {
      if failure == EPIPE || failure == ECONNRESET || failure == EBADF || failure == ENOTCONN {
        throw .connectionClosed(server: server, midMessage: false)
      }
      throw .connectionFailed(server: server, reason: String(cString: strerror(failure)))
    }
  }

  package func receive(maximum: Int, timeout: Int32) throws(NATSError) -> [UInt8] {
    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    let ready = poll(&poller, 1, timeout)
    if ready == 0 || (ready < 0 && errno == EINTR) { return [] }
    guard ready > 0 else { throw .connectionFailed(server: server, reason: String(cString: strerror(errno))) }
    // Read straight into uninitialized capacity: zeroing 64 KiB per read cost more than the read.
    var failure: Int32 = 0
    let bytes = [UInt8](unsafeUninitializedCapacity: maximum) { buffer, initialized in
      var count = 0
      repeat {
        count = systemReceive(descriptor, buffer.baseAddress, buffer.count, 0)
      } while count < 0 && errno == EINTR
      if count < 0 { failure = errno }
      initialized = max(0, count)
    }
    if failure != 0 {
      if failure == ECONNRESET || failure == EBADF || failure == ENOTCONN {
        throw .connectionClosed(server: server, midMessage: false)
      }
      throw .connectionFailed(server: server, reason: String(cString: strerror(failure)))
    }
    if bytes.isEmpty { throw .connectionClosed(server: server, midMessage: false) }
    return bytes
  }

  package func shutdown() { _ = systemShutdown(descriptor, Int32(SHUT_RDWR)) }

  package func close() {
    guard !closedOnce.exchange(true, ordering: .acquiringAndReleasing) else { return }
    _ = systemClose(descriptor)
  }
}

// The C functions by names that do not clash with this type's methods.
#if canImport(Glibc)
  private let systemClose = Glibc.close
  private let systemConnect = Glibc.connect
  private let systemSend = Glibc.send
  private let systemReceive = Glibc.recv
  private let systemShutdown = Glibc.shutdown
#elseif canImport(Darwin)
  private let systemClose = Darwin.close
  private let systemConnect = Darwin.connect
  private let systemSend = Darwin.send
  private let systemReceive = Darwin.recv
  private let systemShutdown = Darwin.shutdown
#elseif canImport(Musl)
  private let systemClose = Musl.close
  private let systemConnect = Musl.connect
  private let systemSend = Musl.send
  private let systemReceive = Musl.recv
  private let systemShutdown = Musl.shutdown
#endif
