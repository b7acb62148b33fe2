import Rewind

/// The actions the log and tool tests journal: an enum with and without payloads.
public enum Note: Codable, Sendable, Equatable {
  case add(String)
  case remove(index: Int)
  case rename(index: Int, title: String)
  case clear
}

/// A list of notes: the reducer over ``Note`` that the log and tool tests replay.
public struct Notes: Reducer, Sendable {
  public struct State: Codable, Sendable, Equatable {
    public var items: [String] = []
    public var removals = 0

    public init(items: [String] = [], removals: Int = 0) {
      self.items = items
      self.removals = removals
    }
  }

  public init() {}

  public func reduce(into state: inout State, action: Note) -> Effect<Note> {
    switch action {
    case .add(let text): state.items.append(text)
    case .remove(let index):
      if state.items.indices.contains(index) { state.items.remove(at: index) }
      state.removals += 1
    case .rename(let index, let title): if state.items.indices.contains(index) { state.items[index] = title }
    case .clear: state.items = []
    }
    return .none
  }
}
