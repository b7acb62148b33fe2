import Rewind
import RewindTesting

@testable import RewindLog

// A state made of ``BinaryCodable`` values, so that its snapshots are version 3 binary states.

/// A row of a list.
struct ListRow: Identifiable, Codable, Equatable, Sendable, BinaryCodable {
  var id: Int
  var title: String
  var done = false

  func encode(to writer: inout BinaryWriter) {
    writer.keyed(count: 3)
    writer.key("id")
    writer.int(id)
    writer.key("title")
    writer.string(title)
    writer.key("done")
    writer.bool(done)
  }

  init(id: Int, title: String, done: Bool = false) {
    (self.id, self.title, self.done) = (id, title, done)
  }

  init(from reader: inout BinaryReader) throws {
    try reader.keyed(count: 3)
    try reader.key("id")
    id = try reader.int()
    try reader.key("title")
    title = try reader.string()
    try reader.key("done")
    done = try reader.bool()
  }
}

/// Lists of rows: empty, one row, many.
struct RowList: Reducer {
  struct State: Codable, Equatable, Sendable, BinaryCodable {
    var rows: IdentifiedArray<ListRow>
    /// Lists no action fills: they stay empty.
    var archived = IdentifiedArray<ListRow>()
    var labels = PersistentArray<String>()
    var recent: [Int] = []
    var edits = 0

    init(rows count: Int) {
      rows = IdentifiedArray(uniqueElements: (0..<count).map { ListRow(id: $0, title: "Row \($0): a title") })
    }

    func encode(to writer: inout BinaryWriter) {
      writer.keyed(count: 5)
      writer.key("rows")
      writer.encode(rows)
      writer.key("archived")
      writer.encode(archived)
      writer.key("labels")
      writer.encode(labels)
      writer.key("recent")
      writer.encode(recent)
      writer.key("edits")
      writer.int(edits)
    }

    init(from reader: inout BinaryReader) throws {
      try reader.keyed(count: 5)
      try reader.key("rows")
      rows = try reader.decode(IdentifiedArray<ListRow>.self)
      try reader.key("archived")
      archived = try reader.decode(IdentifiedArray<ListRow>.self)
      try reader.key("labels")
      labels = try reader.decode(PersistentArray<String>.self)
      try reader.key("recent")
      recent = try reader.decode([Int].self)
      try reader.key("edits")
      edits = try reader.int()
    }
  }

  enum Action: Codable, Equatable, Sendable {
    case toggle(Int)
    case rename(Int, String)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.edits += 1
    switch action {
    case .toggle(let id): state.rows[id: id]?.done.toggle()
    case .rename(let id, let title): state.rows[id: id]?.title = title
    }
    return .none
  }

  static func random(_ random: inout SplitMix64, _ state: State) -> Action {
    let id = Int.random(in: 0..<Swift.max(1, state.rows.count), using: &random)
    return Bool.random(using: &random)
      ? .toggle(id) : .rename(id, "renamed \(Int.random(in: 0..<100, using: &random))")
  }
}
