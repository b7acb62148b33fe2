import Foundation
import Rewind

/// A to-do list whose reducer draws from recorded dependencies: each new to-do gets a UUID, the date it
/// was added and a random priority; touching one draws a new date. What the tests of recorded draws
/// replay, through memory, a file journal and the tool.
public struct Todos: Reducer, Sendable {
  public struct Todo: Codable, Sendable, Equatable, Identifiable {
    public var id: UUID
    public var title: String
    public var created: Date
    public var priority: Int
    public var isDone = false
  }

  public struct State: Codable, Sendable, Equatable {
    public var todos: IdentifiedArray<Todo> = []
    public init() {}
  }

  public enum Action: Codable, Sendable, Equatable {
    case add(String)
    case toggle(UUID)
    case touch(UUID)
    case remove(UUID)
  }

  @Dependency(\.uuid) var uuid
  @Dependency(\.date) var date
  @Dependency(\.random) var random

  /// How many UUIDs an add draws (it keeps the last): 1 in the build that records; a later build in the
  /// tests draws 2.
  public var uuidsPerAdd: Int
  /// Whether an add draws a random priority (a later build in the tests stops).
  public var drawsPriority: Bool

  public init(uuidsPerAdd: Int = 1, drawsPriority: Bool = true) {
    self.uuidsPerAdd = uuidsPerAdd
    self.drawsPriority = drawsPriority
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .add(let title):
      var id = uuid()
      for _ in 1..<max(1, uuidsPerAdd) { id = uuid() }
      let priority = drawsPriority ? random.int(in: 1...5) : 3
      state.todos.append(Todo(id: id, title: title, created: date.now, priority: priority))
    case .toggle(let id):
      state.todos[id: id]?.isDone.toggle()
    case .touch(let id):
      state.todos[id: id]?.created = date.now
    case .remove(let id):
      state.todos[id: id] = nil
    }
    return .none
  }
}

extension Todos.State {
  /// The id of the `index`-th to-do, or a fixed unknown id when there is none (the action then changes
  /// nothing).
  public func id(at index: Int) -> UUID {
    todos.indices.contains(index)
      ? todos[index].id : UUID(uuid: (0xFF, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
  }
}
