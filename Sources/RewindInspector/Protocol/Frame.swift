/// The inspector's framing: a 4-byte unsigned big-endian length, then that many bytes of UTF-8 JSON holding
/// one object with a string `type`.
public enum Frame {
  /// The largest frame a client may send before its `hello` is accepted.
  public static var helloLimit: Int { 1024 }
  /// The largest frame a client may send after.
  public static var clientLimit: Int { 256 * 1024 }
  /// The largest frame the app sends.
  public static var appLimit: Int { 8 * 1024 * 1024 }

  /// The bytes of a frame holding `message`.
  public static func encode(_ message: InspectorJSON) -> [UInt8] {
    var bytes: [UInt8] = [0, 0, 0, 0]
    message.write(to: &bytes)
    setLength(of: &bytes)
    return bytes
  }

  /// Writes the length of what follows the first four bytes of `bytes` into them: a frame built in place.
  static func setLength(of bytes: inout [UInt8]) {
    let length = UInt32(truncatingIfNeeded: bytes.count - 4)
    bytes[0] = UInt8(truncatingIfNeeded: length >> 24)
    bytes[1] = UInt8(truncatingIfNeeded: length >> 16)
    bytes[2] = UInt8(truncatingIfNeeded: length >> 8)
    bytes[3] = UInt8(truncatingIfNeeded: length)
  }

  /// The length a frame header announces.
  static func length(of header: [UInt8]) -> Int {
    header.prefix(4).reduce(0) { $0 << 8 | Int($1) }
  }

  /// The message in a frame's body: a JSON object with a string `type`.
  /// - Throws: ``FrameError``.
  public static func message(in body: [UInt8]) throws(FrameError) -> InspectorJSON {
    let json: InspectorJSON
    do {
      json = try InspectorJSON.parse(body)
    } catch {
      throw .malformed(error.description)
    }
    guard case .object = json else { throw .malformed("a frame must hold a JSON object") }
    guard json["type"]?.stringValue != nil else { throw .malformed("a frame needs a string \"type\"") }
    return json
  }
}

/// Why a frame could not be read.
public enum FrameError: Error, Equatable, CustomStringConvertible {
  /// The peer closed the connection between frames.
  case closed
  /// The connection failed or timed out, or the peer closed it inside a frame.
  case transport(String)
  /// The header announced more than the limit (or zero bytes).
  case badLength(Int, limit: Int)
  /// The body is not a JSON object with a string `type`.
  case malformed(String)

  public var description: String {
    switch self {
    case .closed: "the connection was closed"
    case .transport(let detail): detail
    case .badLength(let length, let limit):
      length == 0 ? "an empty frame" : "a frame of \(length) bytes, over the limit of \(limit)"
    case .malformed(let detail): detail
    }
  }
}

extension Socket {
  /// Reads one frame of at most `limit` bytes: waits up to `idleTimeout` milliseconds for it to start
  /// (negative: no limit) and up to `timeout` for each later chunk. The length is checked before the body
  /// is read.
  /// - Throws: ``FrameError``.
  ///
  /// With a `deadline` (`DispatchTime` nanoseconds), the whole frame must arrive by then: a peer that
  /// sends a byte at a time cannot hold the reader.
  public func readFrame(
    limit: Int, idleTimeout: Int32 = -1, timeout: Int32 = 10_000, deadline: UInt64? = nil
  ) throws(FrameError) -> InspectorJSON {
    let header: [UInt8]
    do {
      header = try read(exactly: 4, timeout: idleTimeout, deadline: deadline)
    } catch {
      throw error.detail == "closed by the peer" ? .closed : .transport("\(error)")
    }
    let length = Frame.length(of: header)
    guard length > 0, length <= limit else { throw .badLength(length, limit: limit) }
    let body: [UInt8]
    do {
      body = try read(exactly: length, timeout: timeout, deadline: deadline)
    } catch {
      throw .transport("\(error)")
    }
    return try Frame.message(in: body)
  }

  /// Writes `message` as one frame, waiting at most `timeout` milliseconds whenever the peer is not reading.
  /// - Throws: ``SocketError``.
  public func writeFrame(_ message: InspectorJSON, timeout: Int32 = 30_000) throws(SocketError) {
    try write(Frame.encode(message), timeout: timeout)
  }
}
