#if canImport(Glibc)
  import Glibc
#else
  import Darwin
#endif

/// The terminal settings before raw mode; restored on exit and by the signal handler.
nonisolated(unsafe) private var savedSettings: termios?

/// The controlling terminal in raw mode, on the alternate screen, with the cursor hidden.
///
/// Restores everything on ``restore()``, and on SIGINT, SIGTERM and SIGHUP (then exits with 128 + signal).
/// In raw mode Ctrl-C arrives as a key, which the app treats as quit.
enum Terminal {
  /// Switches standard input to raw mode and standard output to the alternate screen.
  /// - Throws: ``TerminalError`` when standard input is not a terminal.
  static func enterRawMode() throws(TerminalError) {
    var settings = termios()
    guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1, tcgetattr(STDIN_FILENO, &settings) == 0
    else {
      throw .notATerminal
    }
    savedSettings = settings
    // A parent may have started us with these signals blocked; unblock them, or the handler never runs.
    var signals = sigset_t()
    sigemptyset(&signals)
    for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
      sigaddset(&signals, signalNumber)
      signal(signalNumber) { received in
        Terminal.restoreSettings()
        _exit(128 + received)
      }
    }
    pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    var raw = settings
    cfmakeraw(&raw)
    // Reads return as soon as one byte is there; poll() decides how long to wait.
    withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
      bytes[Int(VMIN)] = 1
      bytes[Int(VTIME)] = 0
    }
    guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else { throw .notATerminal }
    write("\u{1B}[?1049h\u{1B}[?25l")
  }

  /// Leaves the alternate screen, shows the cursor and restores the terminal settings.
  static func restore() {
    restoreSettings()
    signal(SIGINT, SIG_DFL)
    signal(SIGTERM, SIG_DFL)
    signal(SIGHUP, SIG_DFL)
  }

  /// Async-signal-safe: only write(2) and tcsetattr(3).
  private static func restoreSettings() {
    guard var settings = savedSettings else { return }
    let reset = "\u{1B}[?25h\u{1B}[?1049l"
    _ = reset.withCString { systemWrite(STDOUT_FILENO, $0, strlen($0)) }
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings)
  }

  /// Writes `text` to standard output, all of it.
  static func write(_ text: String) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { systemWrite(STDOUT_FILENO, $0.baseAddress, $0.count) }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { return }
      bytes = bytes.dropFirst(written)
    }
  }

  /// Waits up to `milliseconds` (−1: forever) for input and returns the bytes read; `nil` at end of input.
  static func read(timeout milliseconds: Int32) -> [UInt8]? {
    var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
    let ready = poll(&descriptor, 1, milliseconds)
    guard ready > 0 else { return [] }
    var buffer = [UInt8](repeating: 0, count: 256)
    let count = buffer.withUnsafeMutableBytes { systemRead(STDIN_FILENO, $0.baseAddress, $0.count) }
    if count < 0 && (errno == EINTR || errno == EAGAIN) { return [] }
    guard count > 0 else { return nil }
    return Array(buffer[..<count])
  }
}

/// Why the terminal UI cannot start.
enum TerminalError: Error, CustomStringConvertible {
  case notATerminal

  var description: String {
    "the interactive mode needs a terminal on standard input and output; use --script to play the scripted session"
  }
}

/// A key the terminal UI understands.
enum Key: Equatable {
  case up, down, left, right, enter, escape, backspace, interrupt, endOfInput
  case character(Character)

  /// The keys in `bytes`, as a terminal sends them (arrows as `ESC [ A`…, a lone ESC as Escape).
  static func parse(_ bytes: [UInt8]) -> [Key] {
    var keys: [Key] = []
    var index = 0
    var text: [UInt8] = []
    func flushText() {
      keys += String(decoding: text, as: UTF8.self).map { Key.character($0) }
      text.removeAll()
    }
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case 0x1B:
        flushText()
        if index + 2 < bytes.count, bytes[index + 1] == 0x5B || bytes[index + 1] == 0x4F {
          let arrows: [UInt8: Key] = [0x41: .up, 0x42: .down, 0x43: .right, 0x44: .left]
          if let arrow = arrows[bytes[index + 2]] { keys.append(arrow) }
          index += 3
          continue
        }
        keys.append(.escape)
      case 0x0D, 0x0A: flushText(); keys.append(.enter)
      case 0x7F, 0x08: flushText(); keys.append(.backspace)
      case 0x03: flushText(); keys.append(.interrupt)
      case 0x04: flushText(); keys.append(.endOfInput)
      case 0x00..<0x20: flushText()
      default: text.append(byte)
      }
      index += 1
    }
    flushText()
    return keys
  }
}

/// write(2), named apart from ``Terminal/write(_:)``.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
  write(descriptor, buffer, count)
}

/// read(2), named apart from ``Terminal/read(timeout:)``.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(descriptor, buffer, count)
}
