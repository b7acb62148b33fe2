#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

// The C library's calls whose names the transport's types reuse for their own methods.

/// `close(2)`.
func systemClose(_ descriptor: Int32) { _ = close(descriptor) }

/// `accept(2)`, without the peer's address (it is read with `getpeername`).
func systemAccept(_ descriptor: Int32) -> Int32 { accept(descriptor, nil, nil) }

/// `write(2)` of one byte.
func systemWriteByte(_ descriptor: Int32) {
  var byte: UInt8 = 1
  _ = write(descriptor, &byte, 1)
}

/// `connect(2)`.
func systemConnect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
  connect(descriptor, address, length)
}

/// `shutdown(2)` of both directions.
func systemShutdown(_ descriptor: Int32) {
  #if canImport(Darwin)
    _ = shutdown(descriptor, SHUT_RDWR)
  #else
    _ = shutdown(descriptor, Int32(SHUT_RDWR))
  #endif
}
