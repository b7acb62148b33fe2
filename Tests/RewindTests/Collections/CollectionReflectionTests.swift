import Rewind
import Testing

/// `IdentifiedArray` and `PersistentArray` show their elements, never their storage trees.
@Suite struct CollectionReflectionTests {
  struct Row: Identifiable, Equatable, Sendable {
    var id: Int
    var title: String
    var isDone = false
  }

  struct ListState {
    var rows: IdentifiedArray<Row>
    var titles: PersistentArray<String>
  }

  static let storageWords = ["PersistentTree", "TreeNode", "IDIndex", "tree:", "root:", "index:"]

  func dumped<T>(_ value: T) -> String {
    var text = ""
    dump(value, to: &text)
    return text
  }

  @Test(arguments: [2, 5_000])
  func dumpShowsTheElementsLabelledByID(count: Int) {
    let rows = IdentifiedArray(uniqueElements: (0..<count).map { Row(id: $0, title: "row \($0)") })
    let text = dumped(ListState(rows: rows, titles: PersistentArray((0..<count).map { "t\($0)" })))
    for word in Self.storageWords { #expect(!text.contains(word), "dump shows \(word)") }
    #expect(text.contains("▿ rows: \(count) elements"))
    #expect(text.contains("▿ [id: 1]: RewindTests.CollectionReflectionTests.Row"))
    #expect(text.contains("- title: \"row 1\""))
    #expect(text.contains("▿ titles: \(count) elements"))
    #expect(text.contains("- \"t\(count - 1)\""))
  }

  @Test func mirrorsAreCollectionsOfTheElements() {
    let rows: IdentifiedArray<Row> = [Row(id: 7, title: "a"), Row(id: 3, title: "b")]
    let mirror = Mirror(reflecting: rows)
    #expect(mirror.displayStyle == .collection)
    #expect(mirror.children.map(\.label) == ["[id: 7]", "[id: 3]"])
    #expect(mirror.children.compactMap { $0.value as? Row } == Array(rows))

    let titles: PersistentArray = ["x", "y", "z"]
    let titlesMirror = Mirror(reflecting: titles)
    #expect(titlesMirror.displayStyle == .collection)
    #expect(titlesMirror.children.compactMap { $0.value as? String } == ["x", "y", "z"])
    #expect(titlesMirror.children.allSatisfy { $0.label == nil })
  }

  @Test func descriptionsAreTheElements() {
    let rows: IdentifiedArray<Row> = [Row(id: 1, title: "a")]
    #expect(rows.description == [Row(id: 1, title: "a")].description)
    #expect(rows.debugDescription == "IdentifiedArray(\([Row(id: 1, title: "a")].debugDescription))")
    let titles: PersistentArray = ["x"]
    #expect(titles.description == "[\"x\"]")
    #expect(titles.debugDescription == "PersistentArray([\"x\"])")
    #expect(String(describing: rows) == rows.description)
    #expect(String(reflecting: titles) == titles.debugDescription)
  }
}
