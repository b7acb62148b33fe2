import Foundation
import Rewind
import RewindTestSupport
import Testing

@testable import RewindLog

/// An action of version 1 whose one case takes text.
private enum TextAction: Codable, Sendable { case add(String) }
/// The same case name, now taking a number: a payload that no longer fits.
private enum NumberAction: Codable, Sendable { case add(Int) }

/// Every way a record can fail to decode gives the same error through every reader of a log: the
/// journal's replay (`forEachEvent`), its reads (`events(in:)`) and the tool's `LogReader`.
@Suite struct EventDecoderTests {
  enum Failure: String, CaseIterable, Sendable {
    /// A case the app's type does not have.
    case unknownCase
    /// A known case whose payload does not fit.
    case wrongShape
    /// An older schema version with no upcaster.
    case noUpcastPath
    /// An upcaster that throws.
    case upcastThrows
  }

  struct Thrown: Error, CustomStringConvertible {
    var description: String { "the step refuses" }
  }

  static let throwing: EventUpcasters = {
    var upcasters = EventUpcasters()
    upcasters.register("add", from: 1) { _ in throw Thrown() }
    return upcasters
  }()

  @Test(arguments: Failure.allCases, [EventCodec.binary, .json])
  func everyReaderGivesTheSameError(_ failure: Failure, codec: EventCodec) throws {
    let directory = TemporaryDirectory()
    let options = FileJournalOptions(durability: .none, codec: codec)
    switch failure {
    case .unknownCase:
      try write([NotesWithArchive.add("a"), .archive(index: 0)], to: directory.path, options: options)
      try expectSameError(NotesV1.self, EventUpcasters(), in: directory.path, options: options) {
        $0.code == .unknownEventType && $0.eventType == "archive" && $0.schemaVersion == 1
          && $0.location?.sequence == 2
      }
    case .wrongShape:
      try write([TextAction.add("a")], to: directory.path, options: options)
      try expectSameError(NumberAction.self, EventUpcasters(), in: directory.path, options: options) {
        guard $0.code == .undecodableEvent, $0.location?.sequence == 1, $0.eventType == "add",
          $0.schemaVersion == 1
        else {
          return false
        }
        return true
      }
    case .noUpcastPath:
      try write([NotesV1.add("a")], to: directory.path, options: options)
      try expectSameError(NotesV3.self, EventUpcasters(), in: directory.path, options: options) {
        guard let place = $0.location.flatMap(EventLocation.init), place.sequence == 1 else { return false }
        return $0 == .noUpcastPath("add", from: 1, to: 3, missingStep: 1, at: place)
      }
    case .upcastThrows:
      try write([NotesV1.add("a")], to: directory.path, options: options)
      try expectSameError(NotesV2.self, Self.throwing, in: directory.path, options: options) {
        $0.code == .upcastFailed && $0.eventType == "add" && $0.schemaVersion == 1
          && $0.location?.sequence == 1
          && $0.description.contains("the step refuses")
      }
    }
  }

  private func write<A: Codable & Sendable>(_ actions: [A], to directory: String, options: FileJournalOptions)
    throws
  {
    let journal = try FileJournal<A>(directory: directory, options: options)
    for (index, action) in actions.enumerated() {
      let sequence = UInt64(index + 1)
      try journal.append(
        Event(
          sequence: sequence, timestamp: Date(timeIntervalSince1970: Double(sequence)),
          metadata: EventMetadata(
            actor: "test", source: .user, correlationID: CorrelationID(rawValue: sequence)),
          action: action))
    }
    try journal.close()
  }

  /// Reads the log as `A` three ways and checks that each fails with the same error, of the expected kind.
  private func expectSameError<A: Codable & Sendable>(
    _ type: A.Type, _ upcasters: EventUpcasters, in directory: String, options: FileJournalOptions,
    sourceLocation: SourceLocation = #_sourceLocation, _ expected: (FileJournalError) -> Bool
  ) throws {
    var errors: [String: FileJournalError] = [:]
    let journal = try FileJournal<A>(directory: directory, options: options, upcasters: upcasters)
    defer { try? journal.close() }
    do {
      try journal.forEachEvent(from: 1) { _ in }
    } catch let error as FileJournalError { errors["replay"] = error }
    do {
      _ = try journal.events(in: 1...journal.lastSequence)
    } catch let error as FileJournalError { errors["events(in:)"] = error }
    do {
      try LogReader(directory: directory).forEachEvent(as: A.self, upcasters: upcasters) { _ in }
    } catch let error as FileJournalError { errors["LogReader"] = error }

    #expect(errors.count == 3, "every reader fails: \(errors)", sourceLocation: sourceLocation)
    #expect(Set(errors.values).count == 1, "one error: \(errors)", sourceLocation: sourceLocation)
    for (reader, error) in errors {
      #expect(expected(error), "\(reader): \(error)", sourceLocation: sourceLocation)
    }
  }
}
