import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// A connected stream socket (TCP, or one end of a socket pair), read and written with deadlines.
///
/// Reads and writes wait with `poll` for at most their timeout, so no thread blocks forever on a silent
/// or stalled peer; ``shutdown()`` from another thread ends a wait at once.
public final class Socket: @unchecked Sendable {
  // @unchecked: `descriptor` is immutable; the kernel serializes concurrent reads and writes of it. It is
  // closed once, in deinit, so it is never reused while another thread may still use it.
  /// The file descriptor.
  public let descriptor: Int32

  /// Takes ownership of `descriptor`.
  public init(descriptor: Int32) {
    self.descriptor = descriptor
    #if canImport(Darwin)
      var one: Int32 = 1
      setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
  }

  deinit { systemClose(descriptor) }

  /// Connects to `127.0.0.1:port` (the only address the inspector's tools use).
  /// - Throws: ``SocketError``.
  public static func connect(loopbackPort port: UInt16, from source: String? = nil) throws(SocketError)
    -> Socket
  {
    let descriptor = socket(AF_INET, SocketAddress.streamType, 0)
    guard descriptor >= 0 else { throw .system("socket") }
    let socket = Socket(descriptor: descriptor)
    if let source {
      var local = try SocketAddress.ipv4(source, port: 0)
      let bound = withUnsafePointer(to: &local) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      guard bound == 0 else { throw .system("bind \(source)") }
    }
    var address = try SocketAddress.ipv4("127.0.0.1", port: port)
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        systemConnect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else { throw .system("connect 127.0.0.1:\(port)") }
    socket.setNoDelay()
    return socket
  }

  /// A connected pair of sockets in this process (for tests and in-process tools).
  public static func pair() throws(SocketError) -> (Socket, Socket) {
    var descriptors: [Int32] = [0, 0]
    guard socketpair(AF_UNIX, SocketAddress.streamType, 0, &descriptors) == 0 else {
      throw .system("socketpair")
    }
    return (Socket(descriptor: descriptors[0]), Socket(descriptor: descriptors[1]))
  }

  /// Sends small writes at once (frames are written whole).
  func setNoDelay() {
    var one: Int32 = 1
    setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
  }

  /// Waits until the socket is readable (`forWriting` false) or writable, for at most `milliseconds`
  /// (negative: no limit). Returns false on a timeout.
  func wait(forWriting: Bool, milliseconds: Int32) throws(SocketError) -> Bool {
    var descriptor = pollfd(fd: self.descriptor, events: Int16(forWriting ? POLLOUT : POLLIN), revents: 0)
    while true {
      let ready = poll(&descriptor, 1, milliseconds)
      if ready < 0 && errno == EINTR { continue }
      guard ready >= 0 else { throw .system("poll") }
      return ready > 0
    }
  }

  /// Reads exactly `count` bytes, waiting at most `timeout` milliseconds for each chunk.
  /// - Throws: ``SocketError`` on a timeout, when the peer closed before `count` bytes, or on an error.
  /// With a `deadline` (`DispatchTime` nanoseconds), gives up when it passes.
  public func read(exactly count: Int, timeout: Int32, deadline: UInt64? = nil) throws(SocketError) -> [UInt8]
  {
    var buffer = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      var wait = timeout
      if let deadline {
        let now = DispatchTime.now().uptimeNanoseconds
        let left = deadline > now ? Int32(clamping: (deadline - now) / 1_000_000) : 0
        wait = timeout < 0 ? left : min(timeout, left)
      }
      guard try self.wait(forWriting: false, milliseconds: wait) else {
        throw SocketError(operation: "read", code: 0, detail: "timed out")
      }
      let received = buffer.withUnsafeMutableBytes { raw in
        recv(descriptor, raw.baseAddress.map { $0 + filled }, count - filled, 0)
      }
      if received < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        throw .system("read")
      }
      guard received > 0 else {
        throw SocketError(
          operation: "read", code: 0, detail: filled == 0 ? "closed by the peer" : "truncated")
      }
      filled += received
    }
    return buffer
  }

  /// Reads what has arrived, up to `count` bytes, waiting at most `timeout` milliseconds for the first;
  /// empty when the peer closed.
  /// - Throws: ``SocketError`` on a timeout or an error.
  public func read(atMost count: Int, timeout: Int32) throws(SocketError) -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: count)
    while true {
      guard try wait(forWriting: false, milliseconds: timeout) else {
        throw SocketError(operation: "read", code: 0, detail: "timed out")
      }
      let received = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, count, 0) }
      if received < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        throw .system("read")
      }
      return Array(buffer.prefix(received))
    }
  }

  /// Writes all of `bytes`, waiting at most `timeout` milliseconds each time the peer is not reading.
  /// - Throws: ``SocketError`` on a timeout, when the peer closed, or on an error.
  public func write(_ bytes: [UInt8], timeout: Int32) throws(SocketError) {
    var sent = 0
    while sent < bytes.count {
      guard try wait(forWriting: true, milliseconds: timeout) else {
        throw SocketError(operation: "write", code: 0, detail: "timed out")
      }
      let written = bytes.withUnsafeBytes { raw in
        send(descriptor, raw.baseAddress.map { $0 + sent }, bytes.count - sent, Socket.sendFlags)
      }
      if written < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        throw .system("write")
      }
      sent += written
    }
  }

  /// `MSG_NOSIGNAL` where it exists: a write to a closed peer is an error, never a SIGPIPE.
  static var sendFlags: Int32 {
    #if canImport(Darwin)
      0
    #else
      Int32(MSG_NOSIGNAL)
    #endif
  }

  /// Ends both directions: a thread waiting to read or write wakes with an error or end of input.
  public func shutdown() { systemShutdown(descriptor) }

  /// Whether bytes the peer sent wait to be read (a look that consumes nothing and never blocks).
  var hasUnreadBytes: Bool {
    var byte: UInt8 = 0
    return recv(descriptor, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT)) > 0
  }
}
