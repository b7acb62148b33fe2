import Foundation
import Rewind

// A small tour of Rewind: send actions, watch the events they become and the state they produce,
// then rebuild the same state from the journal alone.

let initial = MailboxFeature.State(
  inbox: [
    Mail(id: 1, sender: "Ada", subject: "Lunch on Friday?"),
    Mail(id: 2, sender: "Grace", subject: "Compiler review"),
    Mail(id: 3, sender: "Linus", subject: "Patch v2"),
  ])

let journal = InMemoryJournal<MailboxFeature.Action>()
let store = try Store(initialState: initial, reducer: MailboxFeature(), journal: journal, actor: "you")

func describe(_ mail: Mail) -> String {
  "#\(mail.id) \(mail.isFlagged ? "⚑" : " ") \(mail.sender): \(mail.subject)"
}

func printState(_ state: MailboxFeature.State) {
  print(
    "  inbox:    "
      + (state.inbox.isEmpty ? "(empty)" : state.inbox.map(describe).joined(separator: "\n            ")))
  print(
    "  archived: "
      + (state.archived.isEmpty ? "(none)" : state.archived.map { "#\($0.id)" }.joined(separator: ", ")))
}

/// Sends `action`, then prints the events it produced and what changed.
func perform(_ action: MailboxFeature.Action, from origin: Origin = .user) throws {
  let before = store.state
  let firstNew = store.sequence + 1
  store.send(action, from: origin)
  for event in try journal.events(in: firstNew...max(firstNew, store.sequence)) {
    let source =
      switch event.metadata.source {
      case .user: "user \(event.metadata.actor ?? "?")"
      case .system: "system"
      case .effect(let cause): "effect of #\(cause)"
      }
    print("event #\(event.sequence) [\(source)] \(event.payload)")
  }
  let after = store.state
  for mail in after.inbox where before.inbox[id: mail.id] != mail {
    print("  changed  \(before.inbox[id: mail.id].map(describe) ?? "new") → \(describe(mail))")
  }
  for mail in before.inbox where after.inbox[id: mail.id] == nil { print("  archived \(describe(mail))") }
  if after.celebrated && !before.celebrated { print("  🎉 inbox zero") }
}

print("Initial state:")
printState(store.state)
print()

try perform(.toggleFlag(id: 2))
try perform(.rename(id: 3, subject: "  Patch v3 (final)  "))
try perform(.archive(id: 1))
try perform(.toggleFlag(id: 2), from: .user(actor: "assistant"))
try perform(.archive(id: 3))
try perform(.archive(id: 2))

print("\nFinal state after \(store.sequence) events:")
printState(store.state)

// The journal is the source of truth: replaying it from the initial state gives the same state.
let replayed = try Store(initialState: initial, reducer: MailboxFeature(), journal: journal)
print(
  "\nReplayed \(replayed.sequence) events into a fresh store: "
    + (replayed.state == store.state ? "same state ✓" : "DIFFERENT state ✗"))
if replayed.state != store.state { exit(1) }

// Closing ends the stores: running effects are cancelled, subscriptions end, a later send is dropped (and
// reported), and a file journal is flushed and its directory released. This journal is in memory.
try store.close()
try replayed.close()
