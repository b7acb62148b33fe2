import RewindLog

/// How the tool shows a discarded tail (``TornTail``): where it is, how long, and whether it was an
/// incomplete write or a complete frame whose checksum failed, which a crash rarely leaves.
enum DiscardedTail {
  /// `{"segment", "offset", "length", "kind", "completeFrame", "reason"}`.
  static func json(_ torn: TornTail) -> JSONValue {
    .object([
      ("segment", .string(LogText.escaped(torn.segment))), ("offset", .int(torn.offset)),
      ("length", .int(torn.discardedBytes)), ("kind", .string(torn.kind.rawValue)),
      ("completeFrame", .bool(torn.kind == .checksumMismatch)),
      ("reason", .string(LogText.escaped(torn.reason))),
    ])
  }

  /// What kind of tail it is, in words.
  static func kindText(_ torn: TornTail) -> String {
    switch torn.kind {
    case .incompleteSegment: "an incomplete segment header (an interrupted write)"
    case .incompleteFrame: "an incomplete frame (an interrupted write)"
    case .zeroFilled: "zero bytes (preallocated space)"
    case .badLength: "a frame length out of bounds"
    case .checksumMismatch:
      "a complete frame whose checksum failed (a crash rarely leaves one: possibly damage)"
    }
  }

  /// `N bytes at byte O of SEGMENT: KIND`.
  static func text(_ torn: TornTail) -> String {
    "\(torn.discardedBytes) bytes at byte \(torn.offset) of \(LogText.escaped(torn.segment)): \(kindText(torn))"
  }

  /// The one-line note `events` and `replay` write to standard error when they stopped at the log's
  /// last event and a discarded tail follows it: what they showed is not all the segment's bytes.
  static func note(_ reader: LogReader, through last: UInt64, command: String, on invocation: Invocation) {
    guard let torn = reader.summary.tornTail, last >= reader.summary.lastSequence else { return }
    invocation.errors.line(
      "\(invocation.tool) \(command): note: stopped after event "
        + "\(reader.summary.lastSequence) at a discarded tail, \(text(torn)); `rewind verify` reports it")
  }
}
