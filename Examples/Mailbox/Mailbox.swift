import Foundation
import Rewind

/// One mail in the list.
struct Mail: Identifiable, Equatable, Sendable {
  var id: Int
  var sender: String
  var subject: String
  var isFlagged = false
}

/// The mailbox feature: a list of mails that can be archived, flagged and renamed.
struct MailboxFeature: Reducer {
  struct State: Equatable, Sendable {
    var inbox: IdentifiedArray<Mail>
    var archived: IdentifiedArray<Mail> = []
    var celebrated = false
  }

  enum Action: Equatable, Sendable {
    case archive(id: Int)
    case toggleFlag(id: Int)
    case rename(id: Int, subject: String)
    case inboxZero
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .archive(let id):
      guard let mail = state.inbox.remove(id: id) else { return .none }
      state.archived.append(mail)
      // An effect: the reducer does not celebrate itself, it asks for a follow-up action.
      return state.inbox.isEmpty ? .send(.inboxZero) : .none
    case .toggleFlag(let id):
      state.inbox[id: id]?.isFlagged.toggle()
      return .none
    case .rename(let id, let subject):
      let trimmed = subject.trimmingCharacters(in: .whitespaces)
      if !trimmed.isEmpty { state.inbox[id: id]?.subject = trimmed }
      return .none
    case .inboxZero:
      state.celebrated = true
      return .none
    }
  }
}
