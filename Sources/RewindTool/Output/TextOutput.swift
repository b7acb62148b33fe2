import Rewind

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a command writes text: standard output or error, or a buffer in tests.
public protocol TextOutput: Sendable {
  /// Writes `text` as it is (add the newline yourself).
  func write(_ text: String)
  /// Writes raw bytes (UTF-8 text in chunks that may split a character).
  func write(bytes: [UInt8])
  /// Whether this output is a terminal (progress bars and colours only go to terminals).
  var isTerminal: Bool { get }
  /// Writes anything buffered.
  func flush()
  /// The first write that failed (other than to a closed pipe), naming the output; `nil` while all went
  /// well. Once set, later writes are dropped.
  var writeError: ToolError? { get }
}

extension TextOutput {
  /// `nil`: an output that cannot fail.
  public var writeError: ToolError? { nil }
}

extension TextOutput {
  /// Writes `text` and a newline.
  public func line(_ text: String = "") { write(text + "\n") }
}

/// A file descriptor such as standard output (1) or standard error (2), buffered up to 64 KiB.
///
/// A failed write is remembered (``writeError``) and later output dropped; a closed pipe (`EPIPE`, e.g.
/// `| head`) ends the output quietly.
public final class FileDescriptorOutput: TextOutput {
  private let fd: Int32
  private let name: String
  private let buffer = Locked<[UInt8]>([])
  /// `errno` of the first failed write; `EPIPE` when the reader went away.
  private let failure = Locked<Int32?>(nil)
  /// Whether the descriptor is a terminal.
  public let isTerminal: Bool

  /// Wraps `fd`; `name` is what error messages call it.
  public init(fd: Int32, name: String? = nil) {
    self.fd = fd
    self.name = name ?? (fd == 1 ? "standard output" : fd == 2 ? "standard error" : "file descriptor \(fd)")
    isTerminal = isatty(fd) == 1
  }

  public var writeError: ToolError? {
    guard let code = failure.withLock({ $0 }), code != EPIPE else { return nil }
    return .io(path: name, cause: "cannot write: \(String(cString: strerror(code))) (errno \(code))")
  }

  /// Standard output.
  public static let standardOutput = FileDescriptorOutput(fd: 1)
  /// Standard error; written through at once.
  public static let standardError = FileDescriptorOutput(fd: 2)

  public func write(_ text: String) { append(text.utf8) }

  public func write(bytes: [UInt8]) { append(bytes) }

  private func append(_ new: some Collection<UInt8>) {
    let full = buffer.withLock { bytes -> Bool in
      bytes.append(contentsOf: new)
      return bytes.count >= 65_536 || fd == 2
    }
    if full { flush() }
  }

  public func flush() {
    let bytes = buffer.withLock { bytes in
      defer { bytes.removeAll(keepingCapacity: true) }
      return bytes
    }
    guard failure.withLock({ $0 }) == nil else { return }
    let code = bytes.withUnsafeBytes { raw -> Int32? in
      var done = 0
      while done < raw.count {
        let result = systemWrite(fd, raw.baseAddress.map { $0 + done }, raw.count - done)
        if result < 0 {
          if errno == EINTR { continue }
          return errno
        }
        done += result
      }
      return nil
    }
    if let code { failure.withLock { $0 = $0 ?? code } }
  }
}

private func systemWrite(_ fd: Int32, _ pointer: UnsafeRawPointer?, _ count: Int) -> Int {
  write(fd, pointer, count)
}

/// Collects what a command writes, for tests and for callers that post-process output.
public final class CapturedOutput: TextOutput {
  private let storage = Locked<[UInt8]>([])
  /// Whether to pretend to be a terminal.
  public let isTerminal: Bool

  /// Creates an empty buffer.
  public init(isTerminal: Bool = false) { self.isTerminal = isTerminal }

  /// Everything written so far, as UTF-8 text.
  public var text: String { storage.withLock { String(decoding: $0, as: UTF8.self) } }

  public func write(_ text: String) { storage.withLock { $0.append(contentsOf: text.utf8) } }
  public func write(bytes: [UInt8]) { storage.withLock { $0.append(contentsOf: bytes) } }
  public func flush() {}
}
