import Foundation
import Rewind
import Testing

@Suite struct IdentifiedArrayTests {
  private func sample() -> IdentifiedArray<Mail> {
    [Mail(id: 1, subject: "a"), Mail(id: 2, subject: "b"), Mail(id: 3, subject: "c")]
  }

  @Test func lookupInsertRemoveAndMoveKeepTheIndexInStep() {
    var mails = sample()
    #expect(mails.index(id: 2) == 1)
    mails.insert(Mail(id: 9, subject: "z"), at: 0)
    #expect(mails.ids == [9, 1, 2, 3])
    #expect(mails.index(id: 3) == 3)
    #expect(mails.remove(id: 1)?.subject == "a")
    #expect(mails.ids == [9, 2, 3])
    mails.move(from: 0, to: 2)
    #expect(mails.ids == [2, 3, 9])
    #expect(mails.index(id: 9) == 2)
    #expect(mails[id: 4] == nil)
  }

  @Test func appendingAnExistingIdDoesNotDuplicate() {
    var mails = sample()
    let result = mails.append(Mail(id: 2, subject: "other"))
    #expect(result.inserted == false)
    #expect(result.index == 1)
    #expect(mails.count == 3)
    #expect(mails[id: 2]?.subject == "b")
  }

  @Test func subscriptByIdReplacesAppendsAndRemoves() {
    var mails = sample()
    mails[id: 2]?.subject = "B"
    mails[id: 4] = Mail(id: 4, subject: "d")
    mails[id: 1] = nil
    #expect(mails.map(\.subject) == ["B", "c", "d"])
  }

  @Test func uniquingResolvesRepeatedIds() {
    let mails = IdentifiedArray([Mail(id: 1, subject: "a"), Mail(id: 1, subject: "b")]) { _, new in new }
    #expect(mails.map(\.subject) == ["b"])
  }

  @Test func codableRoundTripAndDuplicateIdsAreADecodingError() throws {
    let data = try JSONEncoder().encode(sample())
    #expect(try JSONDecoder().decode(IdentifiedArray<Mail>.self, from: data) == sample())
    let duplicated = Data(
      #"[{"id":1,"subject":"a","isFlagged":false},{"id":1,"subject":"b","isFlagged":false}]"#.utf8)
    #expect(throws: DecodingError.self) {
      _ = try JSONDecoder().decode(IdentifiedArray<Mail>.self, from: duplicated)
    }
  }

  @Test func convertsToAnArrayAndExposesContiguousStorage() {
    var mails = IdentifiedArray(uniqueElements: (1...5).map { Mail(id: $0, subject: "s\($0)") })
    _ = mails.remove(id: 2)
    mails.append(Mail(id: 9, subject: "late"))
    #expect(Array(mails) == Array(mails.elements))
    #expect(Array(mails).map(\.id) == [1, 3, 4, 5, 9])
    let viaStorage = mails.withContiguousStorageIfAvailable { Array($0) }
    #expect(viaStorage == Array(mails.elements))
  }
}
