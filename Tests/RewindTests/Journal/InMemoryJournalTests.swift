import Foundation
import Rewind
import Testing

@Suite struct InMemoryJournalTests {
  private func event(_ sequence: UInt64) -> Event<Int> {
    Event(
      sequence: sequence, timestamp: Date(timeIntervalSince1970: Double(sequence)),
      metadata: EventMetadata(actor: nil, source: .user, correlationID: CorrelationID(rawValue: sequence)),
      action: Int(sequence))
  }

  @Test func appendRefusesASequenceGap() throws {
    let journal = InMemoryJournal<Int>()
    try journal.append(event(1))
    #expect(throws: JournalError.sequenceGap(expected: 2, received: 3)) { try journal.append(event(3)) }
    #expect(journal.lastSequence == 1)
  }

  @Test func readsAcrossChunkBoundaries() throws {
    let journal = try InMemoryJournal(events: (1...10_000).map(event))
    #expect(journal.lastSequence == 10_000)
    #expect(try journal.events(in: 4_090...4_100).compactMap(\.action) == Array(4_090...4_100))
    #expect(try journal.events(in: 9_999...20_000).compactMap(\.action) == [9_999, 10_000])
    #expect(try journal.events(in: 20_000...30_000).isEmpty)
    var visited: [Int] = []
    try journal.forEachEvent(from: 8_190) { if let action = $0.action { visited.append(action) } }
    #expect(visited == Array(8_190...10_000))
    #expect(journal.allEvents.count == 10_000)
  }

  @Test func eventsAreCodable() throws {
    let original = event(5)
    let decoded = try JSONDecoder().decode(Event<Int>.self, from: JSONEncoder().encode(original))
    #expect(decoded == original)
  }
}
