import Foundation
import Rewind
import RewindLog

extension ReplayReport {
  /// The report as text: a verdict line, then the divergence with its event, cause and state changes.
  public var text: String {
    var lines: [String] = []
    let range = eventCount == 0 ? "no events" : "events \(firstSequence)...\(lastSequence)"
    if let divergence {
      lines.append(
        "DIVERGED \(LogText.escaped(source)): \(divergence.kind) at event \(divergence.event.sequence)")
      lines += divergence.lines.map { "  " + $0 }
    } else {
      let checked =
        fingerprintsChecked == 0
        ? "no fingerprints to check" : "\(fingerprintsChecked) fingerprint(s) agree"
      lines.append("OK \(LogText.escaped(source)): replayed \(range); \(checked)")
    }
    lines += notes.map { "  note: " + $0 }
    return lines.joined(separator: "\n")
  }

  /// The report as a JSON object.
  public var json: JSONValue {
    .object([
      ("source", .string(source)), ("ok", .bool(isClean)), ("firstSequence", .int(firstSequence)),
      ("lastSequence", .int(lastSequence)), ("fingerprintsChecked", .int(fingerprintsChecked)),
      ("divergence", divergence?.json ?? .null), ("notes", .array(notes.map(JSONValue.string))),
      ("redactionChangedOutcomeAt", redactionChangedOutcomeAt.map(JSONValue.int) ?? .null),
      ("seconds", .double(seconds)),
    ])
  }
}

extension Divergence {
  /// The divergence in lines of text, without indentation.
  public var lines: [String] {
    var lines: [String] = []
    let at = isExact ? "" : " (somewhere in events \(window.lowerBound)...\(window.upperBound))"
    lines.append(
      "event #\(event.sequence)\(at): \(LogText.escaped(event.type)) from \(event.origin)"
        + (event.actor.map { ", actor \(LogText.escaped($0))" } ?? "")
        + ", correlation \(event.correlationID), at \(EventView.format(event.timestamp))")
    if !event.payload.isEmpty { lines.append("action: \(LogText.escaped(event.payload))") }
    lines.append("cause: \(LogText.escaped(cause))")
    if let recorded { lines.append("recorded fingerprint: \(recorded)") }
    if let replayed { lines.append("replayed fingerprint: \(replayed)") }
    if let comparedWith {
      if changes.isEmpty {
        lines.append("against \(comparedWith): no difference in the encoded state")
      } else {
        lines.append("replayed state against \(comparedWith) (− recorded, + replayed):")
        lines += changes.map { "  " + $0.line }
      }
    } else if !replayedChange.isEmpty {
      lines.append(
        "no recorded state after it to compare with; what this build's replay of the event changed:")
      lines += replayedChange.map { "  " + $0.line }
    }
    for redaction in redactions { lines.append("redacted input before it: \(LogText.escaped(redaction))") }
    return lines
  }

  /// The divergence as a JSON object.
  public var json: JSONValue {
    .object([
      ("kind", .string(kind.rawValue)), ("sequence", .int(event.sequence)), ("exact", .bool(isExact)),
      ("lastAgreeing", .int(lastAgreeing)), ("type", .string(event.type)),
      ("actor", event.actor.map(JSONValue.string) ?? .null), ("source", .string(event.origin)),
      ("cause", .string(cause)), ("correlationID", .int(event.correlationID)),
      ("time", .string(EventView.format(event.timestamp))), ("action", .string(event.payload)),
      ("recorded", recorded.map { .string($0.state.description) } ?? .null),
      ("recordedBuild", recorded?.build.map { .string($0.description) } ?? .null),
      ("replayed", replayed.map { .string($0.description) } ?? .null),
      ("comparedWith", comparedWith.map { .string($0.description) } ?? .null),
      ("changes", .array(changes.map(\.json))), ("replayedChange", .array(replayedChange.map(\.json))),
      ("redactions", .array(redactions.map(JSONValue.string))),
    ])
  }
}
