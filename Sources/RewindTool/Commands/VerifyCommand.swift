import Foundation
import RewindLog

/// `rewind verify DIR`: checks every frame, the chain and every record; optionally against an anchor.
enum VerifyCommand {
  static let command = ToolCommand(
    CommandSpec(
      name: "verify", summary: "Check every frame, the hash chain and every event; exit 1 if damaged",
      positionals: [.init("DIR", help: "the log directory")],
      options: [
        .value(
          "anchor", "SEQ:HEX", help: "a head (sequence number and chain value) stored elsewhere earlier"),
        KeyFile.option,
        .flag(
          "strict",
          help: "fail (exit 65) when the discarded tail is a complete frame whose checksum failed"),
        .flag("json", help: "print one JSON object"),
      ],
      discussion: """
        Reports the first event at which the log was modified, deleted from, reordered, inserted into or
        damaged. Cutting off a log's tail leaves a valid shorter chain: to detect that, keep the head this
        command prints ("head: SEQ:HEX") somewhere else and pass it back later with --anchor.
        A keyed log needs its key (--key-file); a chain recomputed without the key fails.
        A tail after the last valid frame of the newest segment, with no valid frame after it, is what an
        interrupted write leaves: recovery cuts it off and it is reported, with its offset, its length and
        whether it was an incomplete frame or a complete frame whose checksum failed. A crash rarely leaves
        the latter: --strict fails on it.
        exit status: 0 verified; 1 damaged, tampered, truncated, not matching the anchor or the key;
        65 with --strict, a complete frame with a bad checksum at the end.
        example: rewind verify ./log --anchor 120:3f9a...c1 --key-file log.key
        """),
    run: run)

  static func run(_ invocation: Invocation) throws -> ExitStatus {
    let directory = invocation.directory
    let anchor = try invocation.arguments.value("anchor").map { text throws(UsageError) -> LogAnchor in
      guard let anchor = LogAnchor(text) else {
        throw UsageError(
          "--anchor expects SEQ:HEX (a sequence number and a 64-digit chain value), not '\(text)'")
      }
      return anchor
    }
    let key = try KeyFile.key(invocation.arguments)
    try LogInput.requireLogDirectory(directory)
    let progress = invocation.progress("verify", total: 0)
    var report: AuditReport?
    var refusal: String?
    do {
      report = try LogAudit.verify(directory: directory, key: key, anchor: anchor) { step in
        progress.update(step.bytesDone, of: step.bytesTotal)
      }
    } catch {
      switch error.code {
      case .wrongKey, .notKeyed: refusal = error.description
      default: throw ToolError.reading(directory, error)
      }
    }
    progress.finish()
    let verified = refusal == nil && report?.isIntact == true
    // --strict: a whole frame with a bad checksum at the end is more likely damage than a torn write.
    let suspectTail = report?.tornTail.flatMap { $0.kind.isIncompleteWrite ? nil : $0 }
    let strictFailure = verified && invocation.arguments.flag("strict") && suspectTail != nil
    let ok = verified && !strictFailure
    let status: ExitStatus = ok ? .ok : (strictFailure ? .dataError : .failure)
    if invocation.arguments.flag("json") {
      var fields: [(String, JSONValue)] = [("directory", .string(directory)), ("ok", .bool(ok))]
      if let report {
        fields += [
          ("keyed", .bool(report.isKeyed)), ("lastSequence", .int(report.lastSequence)),
          ("frames", .int(report.frameCount)), ("segments", .int(report.segmentCount)),
          ("bytes", .int(report.bytesVerified)),
          ("head", report.head.map { .string($0.description) } ?? .null),
          ("anchor", report.anchor.map { .string($0.description) } ?? .null),
          ("tornTail", report.tornTail.map { .string($0.description) } ?? .null),
          ("discardedTail", report.tornTail.map(DiscardedTail.json) ?? .null),
          ("cutThrough", report.cut.map { .int($0.throughSequence) } ?? .null),
        ]
      }
      let problem = report?.firstProblem
      fields += [
        ("firstBadSequence", problem.map { .int($0.sequence) } ?? .null),
        ("problem", problem.map { .string($0.kind.rawValue) } ?? (refusal != nil ? .string("key") : .null)),
        ("detail", problem.map { .string($0.description) } ?? refusal.map(JSONValue.string) ?? .null),
      ]
      if strictFailure {
        fields.append(("strict", .string("a complete frame with a bad checksum at the end")))
      }
      invocation.output.line(JSONValue.object(fields).serialized(pretty: true))
      return status
    }
    let out = invocation.output
    // A log cut by retention is proved from its first kept event.
    let first = (report?.cut?.throughSequence ?? 0) + 1
    if let refusal {
      out.line("FAILED \(directory): \(refusal)")
    } else if let report, let problem = report.firstProblem {
      out.line("FAILED \(directory): \(problem.kind.rawValue) at event \(problem.sequence)")
      out.line("  \(problem.description)")
      out.line(
        report.lastSequence >= first
          ? "  events \(first)...\(report.lastSequence) verified before it" : "  no event verified before it")
    } else if let report {
      let count = report.lastSequence >= first ? report.lastSequence - first + 1 : 0
      out.line(
        "verified \(directory): \(count) events in \(report.frameCount) frames, "
          + "\(report.segmentCount) segment(s), \(report.isKeyed ? "keyed (HMAC-SHA-256)" : "SHA-256") chain")
      if let cut = report.cut {
        out.line(
          "cut through event \(cut.throughSequence) by retention; the kept events \(first)...\(report.lastSequence) "
            + "continue the cut record's chain value"
            + (cut.isKeyed ? " (record authenticated with the key)" : " (record checksummed, not keyed)"))
      }
      if let anchor = report.anchor { out.line("matches the anchor at event \(anchor.sequence)") }
      if let head = report.head { out.line("head: \(head)") }
      if let torn = report.tornTail {
        out.line(
          "discarded tail (after the last valid frame, cut off on recovery): \(DiscardedTail.text(torn))")
      }
      if strictFailure, let torn = suspectTail {
        out.line(
          "FAILED \(directory) (--strict): a complete frame with a bad checksum at byte \(torn.offset) of "
            + "\(LogText.escaped(torn.segment)), after event \(report.lastSequence)")
      }
    }
    return status
  }
}
