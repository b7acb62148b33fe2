import RewindDiff

/// A test element: identity `id`, content `content`.
struct Item: Differentiable, Hashable, Sendable, CustomStringConvertible {
  var id: Int
  var content: Int

  init(_ id: Int, _ content: Int = 0) {
    self.id = id
    self.content = content
  }

  var differenceIdentifier: Int { id }
  func isContentEqual(to source: Item) -> Bool { content == source.content }
  var description: String { content == 0 ? "\(id)" : "\(id)'\(content)" }
}

/// A test section model: identity `id`, content `title`.
struct Header: Differentiable, Hashable, Sendable, CustomStringConvertible {
  var id: Int
  var title: Int

  init(_ id: Int, _ title: Int = 0) {
    self.id = id
    self.title = title
  }

  var differenceIdentifier: Int { id }
  func isContentEqual(to source: Header) -> Bool { title == source.title }
  var description: String { title == 0 ? "S\(id)" : "S\(id)'\(title)" }
}

typealias TestSection = ArraySection<Header, Item>

/// A section with the given header id and element ids (content 0).
func section(_ id: Int, _ elements: [Int], title: Int = 0) -> TestSection {
  TestSection(model: Header(id, title), elements: elements.map { Item($0) })
}

/// Items with the given ids and content 0.
func items(_ ids: [Int]) -> [Item] { ids.map { Item($0) } }
