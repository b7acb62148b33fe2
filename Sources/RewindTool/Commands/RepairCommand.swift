import Foundation
import RewindLog

/// `rewind repair DIR [--yes]`: says what repair would set aside; with `--yes`, does it.
enum RepairCommand {
  static let command = ToolCommand(
    CommandSpec(
      name: "repair", summary: "Keep the valid prefix of a damaged log and move the rest into quarantine/",
      positionals: [.init("DIR", help: "the log directory")],
      options: [
        KeyFile.option,
        .flag("yes", short: "y", help: "really repair (without it, only say what would be moved aside)"),
      ],
      discussion: """
        Without --yes nothing is changed: the command prints what it would keep and move aside, and exits
        with 1 when the log needs repair. Nothing is ever deleted: bytes after the first damage are copied
        to quarantine/ before the segment is truncated, and later segments are moved there whole. A log an
        app has open is refused (74), intact or not: close the app first (verify reads an open log).
        example: rewind repair ./log && rewind repair ./log --yes
        """),
    run: run)

  static func run(_ invocation: Invocation) throws -> ExitStatus {
    let directory = invocation.directory
    try LogInput.requireLogDirectory(directory)
    let key = try KeyFile.key(invocation.arguments)
    // While an app writes the log, its newest frame can look torn and a repair would cut what the app is
    // writing: refused, with or without --yes, whatever the log holds.
    if LogLockProbe.isHeld(directory: directory) {
      throw ToolError.io(
        path: directory,
        cause: "the log is open in another process (its LOCK is held); close it, then repair"
          + " (rewind verify checks a log that is open)")
    }
    let plan = try plan(directory, key: key)
    let out = invocation.output
    guard let plan else {
      out.line("nothing to repair in \(directory): the log is intact")
      return .ok
    }
    guard invocation.arguments.flag("yes") else {
      out.line("\(directory) needs repair: \(plan.reason)")
      out.line("would keep events 1...\(plan.lastGood) and move into \(directory)/quarantine/:")
      for item in plan.moved { out.line("  \(item)") }
      out.line("nothing changed; run again with --yes to repair")
      return .failure
    }
    let report: RepairReport
    // repair is static and reads no events: any action type will do.
    do { report = try FileJournal<Int>.repair(directory: directory, key: key) } catch {
      throw ToolError.reading(directory, error)
    }
    out.line("repaired \(directory): kept events 1...\(report.lastSequence)")
    for path in report.quarantined { out.line("  set aside \(path)") }
    return .ok
  }

  struct Plan {
    var reason: String
    var lastGood: UInt64
    var moved: [String]
  }

  /// What repair would do, found by scanning; `nil` when the log is intact.
  static func plan(_ directory: String, key: ChainKey?) throws -> Plan? {
    let segments = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
      .filter { $0.hasPrefix("segment-") && $0.hasSuffix(".log") }.sorted()
    // The checks repair acts on, in the order it acts: structure, chain, and every record.
    guard let damage = try LogRepair.firstDamage(directory: directory, key: key) else { return nil }
    var moved: [String] = []
    let size =
      (try? FileManager.default.attributesOfItem(atPath: directory + "/" + damage.segment)[.size] as? UInt64)
      ?? nil
    if damage.offset == 0 {
      moved.append("\(damage.segment) (whole segment)")
    } else {
      moved.append(
        "\(damage.segment) from byte \(damage.offset)"
          + (size.map { " (\($0 - min($0, damage.offset)) bytes)" } ?? ""))
    }
    moved += segments.filter { $0 > damage.segment }.map { "\($0) (whole segment)" }
    return Plan(reason: damage.reason, lastGood: damage.lastGoodSequence, moved: moved)
  }
}
