import Foundation
import Rewind
import RewindTestSupport
import Testing

@testable import RewindInspector

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A small app for the inspector's tests: notes in an `IdentifiedArray`, a title, nested actions.
struct Notes: Reducer {
  struct Note: Identifiable, Equatable, Sendable, Codable {
    var id: Int
    var text: String
    var done = false
  }

  struct State: Equatable, Sendable {
    var notes: IdentifiedArray<Note> = []
    var title = "Notes"
    var count = 0
  }

  enum Edit: Equatable, Sendable, Codable {
    case toggle
    case rename(String)
  }

  enum Action: Equatable, Sendable, Codable {
    case add(String)
    case note(id: Int, edit: Edit)
    case row(IdentifiedAction<Int, Edit>)
    case setTitle(String)
    case increment
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .add(let text):
      state.notes.append(Note(id: state.notes.count + 1, text: text))
    case .note(let id, let edit): Self.apply(edit, to: id, in: &state)
    case .row(let addressed): Self.apply(addressed.action, to: addressed.id, in: &state)
    case .setTitle(let title): state.title = title
    case .increment: state.count += 1
    }
    return .none
  }

  static func apply(_ edit: Edit, to id: Int, in state: inout State) {
    switch edit {
    case .toggle: state.notes[id: id]?.done.toggle()
    case .rename(let text): state.notes[id: id]?.text = text
    }
  }
}

/// A store of notes with an inspector on a fresh token file, announcing nothing.
func makeInspectedStore(
  notes: Int = 3, allowing: [String] = ["setTitle", "note"], queueLimit: Int = 10_000,
  handshakeTimeout: Duration = .seconds(5)
) throws -> (Store<Notes.State, Notes.Action>, Inspector<Notes.State, Notes.Action>) {
  let store = Store(
    initialState: Notes.State(), reducer: Notes(), history: .undoEveryAction)
  for index in 0..<notes { store.send(.add("note \(index + 1)")) }
  let path = NSTemporaryDirectory() + "rewind-inspector-test-\(UUID().uuidString).json"
  let inspector = try store.inspect(
    InspectorOptions(
      tokenFile: path, queueLimit: queueLimit, handshakeTimeout: handshakeTimeout, announce: { _ in }),
    allowing: allowing)
  return (store, inspector)
}

/// A tool's side of a connection, for tests: frames in and out, with the messages it is not waiting for
/// kept aside.
final class TestClient {
  let socket: Socket
  var events: [InspectorJSON] = []
  var gaps: [(UInt64, UInt64)] = []
  var statuses: [InspectorJSON] = []
  var nextID: UInt64 = 1

  init(socket: Socket) { self.socket = socket }

  /// Connects to `inspector` over TCP.
  static func connect(to inspector: Inspector<Notes.State, Notes.Action>, from source: String? = nil) throws
    -> TestClient
  {
    TestClient(socket: try Socket.connect(loopbackPort: inspector.port, from: source))
  }

  /// Connects to `inspector` over a socket pair, served as an accepted connection is.
  static func pair(with inspector: Inspector<Notes.State, Notes.Action>) throws -> TestClient {
    let (mine, theirs) = try Socket.pair()
    guard let ticket = inspector.handshakes.admit(theirs) else { throw SocketError.system("admit") }
    Thread.detachNewThread { inspector.serve(theirs, peer: "test pair", ticket: ticket) }
    return TestClient(socket: mine)
  }

  /// Sends the hello with `inspector`'s token and returns the welcome.
  func attach(to inspector: Inspector<Notes.State, Notes.Action>, from: UInt64 = 1) throws -> InspectorJSON {
    let file = try TokenFile.read(from: inspector.tokenFilePath)
    try socket.writeFrame(Hello(token: file.token.hexadecimal, from: from, client: "test").message)
    let welcome = try read()
    #expect(welcome["type"]?.stringValue == "welcome", "\(welcome.text)")
    return welcome
  }

  func read(timeout: Int32 = 10_000) throws -> InspectorJSON {
    try socket.readFrame(limit: Frame.appLimit, idleTimeout: timeout, timeout: timeout)
  }

  /// Reads until a message that `stop` accepts, keeping events, gaps and statuses aside.
  func read(until stop: (InspectorJSON) -> Bool) throws -> InspectorJSON {
    while true {
      let message = try read()
      switch message["type"]?.stringValue {
      case "events": events += message["events"]?.arrayValue ?? []
      case "gap":
        gaps.append((message["from"]?.unsignedValue ?? 0, message["to"]?.unsignedValue ?? 0))
      case "status": statuses.append(message)
      default: break
      }
      if stop(message) { return message }
    }
  }

  /// Sends `command` and returns its reply.
  @discardableResult
  func perform(_ command: InspectorCommand) throws -> InspectorJSON {
    let id = nextID
    nextID += 1
    try socket.writeFrame(command.message(id: id))
    return try read { $0["type"]?.stringValue == "reply" && $0["id"]?.unsignedValue == id }
  }

  /// Reads until events through `sequence` have arrived.
  func waitForEvents(through sequence: UInt64) throws {
    while (events.last?["seq"]?.unsignedValue ?? 0) < sequence { _ = try read { _ in true } }
  }

  /// Reads until events or gaps cover everything through `sequence`.
  func waitForCoverage(through sequence: UInt64) throws {
    func covered() -> UInt64 { max(events.last?["seq"]?.unsignedValue ?? 0, gaps.last?.1 ?? 0) }
    while covered() < sequence { _ = try read { _ in true } }
  }

  /// Reads until the connection ends; returns the `bye` if one came.
  func readToEnd() -> InspectorJSON? {
    var bye: InspectorJSON?
    while let message = try? read(timeout: 10_000) {
      if message["type"]?.stringValue == "bye" { bye = message }
    }
    return bye
  }

  /// Whether the peer closed without sending a byte.
  func closedSilently() -> Bool {
    (try? socket.read(exactly: 1, timeout: 10_000)) == nil
  }
}
