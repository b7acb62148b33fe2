import Foundation
import Rewind
import RewindTesting

/// A counter: the smallest reducer.
struct Counter: Reducer {
  struct State: Equatable, Sendable, Codable { var count = 0 }
  enum Action: Equatable, Sendable, Codable {
    case increment
    case decrement
    case add(Int)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment: state.count += 1
    case .decrement: state.count -= 1
    case .add(let amount): state.count += amount
    }
    return .none
  }
}

/// Records the order in which actions were reduced.
struct Trace: Reducer {
  struct State: Equatable, Sendable { var log: [String] = [] }
  enum Action: Equatable, Sendable {
    case tap(String)
    case chain(String, remaining: Int)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .tap(let name):
      state.log.append(name)
      return .none
    case .chain(let name, let remaining):
      state.log.append("\(name)\(remaining)")
      return remaining > 0 ? .send(.chain(name, remaining: remaining - 1)) : .none
    }
  }
}

/// A mail row and a mailbox of rows, for scoping and forEach.
struct Mail: Identifiable, Equatable, Sendable, Codable {
  var id: Int
  var subject: String
  var isFlagged = false
}

struct MailRow: Reducer {
  enum Action: Equatable, Sendable { case toggleFlag, rename(String) }

  func reduce(into state: inout Mail, action: Action) -> Effect<Action> {
    switch action {
    case .toggleFlag: state.isFlagged.toggle()
    case .rename(let subject): state.subject = subject
    }
    return .none
  }
}

struct Mailbox: Reducer {
  struct State: Equatable, Sendable {
    var mails: IdentifiedArray<Mail> = []
    var counter = Counter.State()
    var draft: Mail?
    var flaggedCount = 0
  }

  enum Action: Equatable, Sendable {
    case mail(IdentifiedAction<Int, MailRow.Action>)
    case counter(Counter.Action)
    case draft(MailRow.Action)
    case startDraft
    case discardDraft
  }

  static let mailPath = ActionPath<Action, IdentifiedAction<Int, MailRow.Action>>(
    embed: Action.mail, extract: { if case .mail(let action) = $0 { action } else { nil } })
  static let counterPath = ActionPath<Action, Counter.Action>(
    embed: Action.counter, extract: { if case .counter(let action) = $0 { action } else { nil } })
  static let draftPath = ActionPath<Action, MailRow.Action>(
    embed: Action.draft, extract: { if case .draft(let action) = $0 { action } else { nil } })

  var body: some Reducer<State, Action> {
    Scope(state: \.counter, action: Self.counterPath) { Counter() }
    Reduce { state, action in
      switch action {
      case .startDraft: state.draft = Mail(id: 0, subject: "")
      case .discardDraft: state.draft = nil
      case .mail, .counter, .draft: break
      }
      state.flaggedCount = state.mails.filter(\.isFlagged).count
      return .none
    }
    .forEach(\.mails, action: Self.mailPath) { MailRow() }
    .ifLet(\.draft, action: Self.draftPath) { MailRow() }
  }
}

/// A clock that returns a fixed time, for deterministic timestamps.
struct FixedClock: EventClock {
  var date = Date(timeIntervalSince1970: 1_000_000)
  func timestamp() -> Date { date }
}

/// Collects diagnostics from any thread.
final class DiagnosticLog: Sendable {
  private let lock = NSLock()
  private nonisolated(unsafe) var items: [Diagnostic] = []

  var all: [Diagnostic] { lock.withLock { items } }

  @Sendable func record(_ diagnostic: Diagnostic) { lock.withLock { items.append(diagnostic) } }
}

/// The seeded generator of the tests.
typealias SeededGenerator = SplitMix64
