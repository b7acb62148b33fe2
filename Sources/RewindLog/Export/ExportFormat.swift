/// The formats ``LogAudit/export(directory:options:progress:write:)`` writes.
public enum ExportFormat: String, Sendable, Hashable, CaseIterable, Codable {
  /// CloudEvents 1.0 JSON batch: one JSON array of events (`application/cloudevents-batch+json`).
  case cloudEventsBatch = "cloudevents-batch"
  /// CloudEvents 1.0 JSON, one structured-mode event per line (`application/cloudevents+json` each).
  case cloudEventsLines = "cloudevents-lines"
  /// Plain JSON lines: one object per event with its envelope fields and payload tree.
  case jsonLines = "json-lines"

  /// The media type of the whole output.
  public var mediaType: String {
    switch self {
    case .cloudEventsBatch: "application/cloudevents-batch+json"
    case .cloudEventsLines: "application/x-ndjson"
    case .jsonLines: "application/x-ndjson"
    }
  }
}

/// What to export and how to name it.
public struct ExportOptions: Sendable, Hashable {
  /// The output format.
  public var format: ExportFormat
  /// The CloudEvents `source` (a URI reference); `nil` uses `urn:rewind:log:<log id in hexadecimal>`.
  public var source: String?
  /// Put in front of each event's type name to form the CloudEvents `type`, e.g. `"com.example.notes."`
  /// (CloudEvents recommends a reverse-DNS prefix). Empty by default.
  public var typePrefix: String
  /// Only the events in this range; `nil` for all.
  public var range: ClosedRange<UInt64>?
  /// The chain key of a keyed log (export verifies the chain as it reads).
  public var key: ChainKey?

  /// Creates options.
  public init(
    format: ExportFormat = .cloudEventsLines, source: String? = nil, typePrefix: String = "",
    range: ClosedRange<UInt64>? = nil, key: ChainKey? = nil
  ) {
    self.format = format
    self.source = source
    self.typePrefix = typePrefix
    self.range = range
    self.key = key
  }
}

/// What an export wrote.
public struct ExportSummary: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The number of events written.
  public var eventCount: Int
  /// The first and last sequence numbers written; `nil` when none were.
  public var sequences: ClosedRange<UInt64>?
  /// The number of events whose payload could not be shown as JSON and went into `data_base64`
  /// (CloudEvents) or `payloadBase64` (plain JSON lines).
  public var binaryPayloads: Int
  /// The bytes written to the output.
  public var bytesWritten: UInt64

  public var description: String {
    "\(eventCount) events" + (sequences.map { " (\($0.lowerBound)...\($0.upperBound))" } ?? "")
      + ", \(bytesWritten) bytes" + (binaryPayloads > 0 ? ", \(binaryPayloads) payloads as base64" : "")
  }
}
