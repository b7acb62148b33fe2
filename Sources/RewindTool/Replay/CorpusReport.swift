import Foundation

/// What a corpus replay writes for CI: JUnit XML (one test case per recording, a failure per divergence,
/// an error per recording that could not be replayed) and JSON (every replay report).
struct CorpusReport {
  /// The corpus directory.
  var directory: String
  /// The outcomes, in the order of the recordings.
  var outcomes: [CorpusReplay.Outcome]
  /// The wall-clock time of the whole corpus.
  var seconds: Double

  var divergences: Int {
    outcomes.filter { if case .replayed(let report) = $0 { !report.isClean } else { false } }.count
  }
  var errors: Int { outcomes.filter { if case .failed = $0 { true } else { false } }.count }
  var isClean: Bool { divergences == 0 && errors == 0 }

  /// One line: how many recordings replayed, diverged and failed.
  var summary: String {
    "\(isClean ? "OK" : "FAILED") \(directory): \(outcomes.count) recording(s) replayed in "
      + String(format: "%.2f", seconds) + " s: \(divergences) diverged, \(errors) could not be replayed"
  }

  /// JUnit XML, as CI systems read it: `testsuites` > `testsuite` > one `testcase` per recording.
  var junitXML: String {
    var lines = [
      #"<?xml version="1.0" encoding="UTF-8"?>"#,
      "<testsuites name=\"rewind replay\" tests=\"\(outcomes.count)\" failures=\"\(divergences)\" "
        + "errors=\"\(errors)\" time=\"\(Self.seconds(seconds))\">",
      "  <testsuite name=\"\(XMLText.escaped(directory))\" tests=\"\(outcomes.count)\" "
        + "failures=\"\(divergences)\" errors=\"\(errors)\" time=\"\(Self.seconds(seconds))\">",
    ]
    for outcome in outcomes {
      let name = XMLText.escaped(Self.name(of: outcome.source, in: directory))
      let open =
        "    <testcase classname=\"replay\" name=\"\(name)\" time=\"\(Self.seconds(outcome.seconds))\""
      switch outcome {
      case .replayed(let report):
        guard let divergence = report.divergence else {
          lines.append(open + "/>")
          continue
        }
        lines.append(open + ">")
        let message = "\(divergence.kind) at event \(divergence.event.sequence): \(divergence.cause)"
        lines.append(
          "      <failure type=\"\(divergence.kind)\" message=\"\(XMLText.escaped(message))\">"
            + XMLText.escaped(report.text) + "</failure>")
        lines.append("    </testcase>")
      case .failed(_, let error, _):
        lines.append(open + ">")
        lines.append(
          "      <error type=\"replay\" message=\"\(XMLText.escaped(error))\">\(XMLText.escaped(error))</error>"
        )
        lines.append("    </testcase>")
      }
    }
    lines += ["  </testsuite>", "</testsuites>"]
    return lines.joined(separator: "\n") + "\n"
  }

  /// The whole corpus as one JSON object.
  var json: JSONValue {
    .object([
      ("corpus", .string(directory)), ("ok", .bool(isClean)), ("recordings", .int(outcomes.count)),
      ("diverged", .int(divergences)), ("failed", .int(errors)), ("seconds", .double(seconds)),
      (
        "results",
        .array(
          outcomes.map { outcome in
            switch outcome {
            case .replayed(let report): report.json
            case .failed(let source, let error, let seconds):
              .object([
                ("source", .string(source)), ("ok", .bool(false)), ("error", .string(error)),
                ("seconds", .double(seconds)),
              ])
            }
          })
      ),
    ])
  }

  /// A recording's name relative to the corpus directory.
  static func name(of path: String, in directory: String) -> String {
    path.hasPrefix(directory + "/") ? String(path.dropFirst(directory.count + 1)) : path
  }

  static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }
}

/// Text in an XML document: markup characters as entities, and what XML 1.0 cannot hold at all (control
/// characters other than tab, line feed and carriage return) escaped as log text is (`\u{1B}`).
enum XMLText {
  /// `text` escaped for an attribute value or element content.
  static func escaped(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
      default:
        if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0xFFFE
          || scalar.value == 0xFFFF
        {
          out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out
  }
}
