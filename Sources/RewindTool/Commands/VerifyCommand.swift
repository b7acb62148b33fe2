import Foundation
import RewindLog

/// `rewind verify DIR`: checks every frame, the chain and every record; optionally against an anchor.
enum VerifyCommand {
  static let command = ToolCommand(
    CommandSpec(
      name: "verify", summary: "Check every frame, the hash chain and every event; exit 1 if damaged",
      positionals: [.init("DIR", help: "the log directory")],
      options: [
        .value("anchor", "SEQ:HEX", help: "the head (sequence number and chain value) stored elsewhere earlier"),
        .value("key-file", "FILE", help: "the key of a keyed (HMAC) chain"),
        .flag("json", help: "print one JSON object"),
      ],
      discussion: """
        An anchor is the head printed by 'rewind info' or 'rewind verify' at some earlier time. Verifying
        against it detects a log cut short (truncated) or rewritten before that point.
        exit status: 0 verified, 1 damaged, tampered, truncated or not matching the anchor.
        example: rewind verify ./log --anchor 120:3f9a...c1
        """),
    run: run)

  struct Anchor {
    var sequence: UInt64
    var chain: String
  }

  static func parseAnchor(_ text: String) throws(UsageError) -> Anchor {
    let parts = text.split(separator: ":", maxSplits: 1)
    guard parts.count == 2, let sequence = UInt64(parts[0]), parts[1].count == 64,
      parts[1].allSatisfy(\.isHexDigit)
    else {
      throw UsageError("--anchor expects SEQ:HEX (a sequence number and a 64-digit chain value), not '\(text)'")
    }
    return Anchor(sequence: sequence, chain: parts[1].lowercased())
  }

  static func run(_ invocation: Invocation) throws -> ExitStatus {
    let directory = invocation.directory
    let anchor = try invocation.arguments.value("anchor").map(parseAnchor)
    if let keyFile = invocation.arguments.value("key-file") {
      _ = try readKey(keyFile)
      throw UsageError("--key-file: keyed chains are not supported by this build")
    }
    try LogInput.requireLogDirectory(directory)
    var problem: String?
    var firstBad: UInt64?
    var summary: LogSummary?
    do {
      let reader = try LogReader(directory: directory)
      summary = reader.summary
      // The scan checked every frame's checksum and chain value; now every record must decode too.
      try LogInput.events(reader, progress: invocation.progress("verify", total: reader.summary.lastSequence)) { _ in }
      if let anchor {
        if reader.summary.lastSequence < anchor.sequence {
          problem = "truncated: the log ends at event \(reader.summary.lastSequence), the anchor names event \(anchor.sequence)"
          firstBad = reader.summary.lastSequence + 1
        } else if let chain = reader.chainValue(endingAt: anchor.sequence), chain == anchor.chain {
        } else {
          problem = "the log does not match the anchor at event \(anchor.sequence): it was modified at or before it"
          firstBad = anchor.sequence
        }
      }
    } catch let error as FileJournalError {
      switch error {
      case .corrupted(_, _, let last, _), .tampered(_, _, let last), .undecodableEvent(let last, _, _, _):
        problem = error.description
        if case .undecodableEvent = error { firstBad = last } else { firstBad = last + 1 }
      default: throw ToolError.reading(directory, error)
      }
    }
    if invocation.arguments.flag("json") {
      var fields: [(String, JSONValue)] = [("directory", .string(directory)), ("ok", .bool(problem == nil))]
      if let summary {
        fields += [
          ("lastSequence", .int(summary.lastSequence)), ("frames", .int(summary.frameCount)),
          ("segments", .int(summary.segments.count)), ("headChain", summary.headChain.map(JSONValue.string) ?? .null),
          ("tornTail", summary.tornTail.map { .string($0.description) } ?? .null),
        ]
      }
      fields.append(("firstBadSequence", firstBad.map { .int($0) } ?? .null))
      fields.append(("problem", problem.map(JSONValue.string) ?? .null))
      invocation.output.line(JSONValue.object(fields).serialized(pretty: true))
    } else if let problem {
      invocation.output.line("FAILED \(directory): \(problem)")
      if let firstBad { invocation.output.line("first bad event: \(firstBad)") }
    } else if let summary {
      invocation.output.line(
        "verified \(directory): \(summary.lastSequence) events in \(summary.frameCount) frames, "
          + "\(summary.segments.count) segment(s)")
      if let head = summary.headChain { invocation.output.line("head: \(summary.lastSequence):\(head)") }
      if anchor != nil { invocation.output.line("matches the anchor") }
      if let torn = summary.tornTail { invocation.output.line("torn tail (a crashed write, not damage): \(torn)") }
    }
    return problem == nil ? .ok : .failure
  }

  /// The bytes of a key file (a trailing newline is not part of the key).
  static func readKey(_ path: String) throws(ToolError) -> [UInt8] {
    guard FileManager.default.fileExists(atPath: path) else { throw .noInput(path: path, cause: "no such key file") }
    guard let data = FileManager.default.contents(atPath: path) else { throw .io(path: path, cause: "cannot read the key file") }
    var bytes = [UInt8](data)
    while bytes.last == 0x0A || bytes.last == 0x0D { bytes.removeLast() }
    guard !bytes.isEmpty else { throw .usage(UsageError("--key-file: \(path) is empty")) }
    return bytes
  }
}
