import Foundation

// What the guides' snippets take from the app they are part of, and not from Rewind: its own networking
// code. Declared here, and only here, so that the snippets compile as the guides show them.

/// The app's HTTP client, which the live `MailServer` of Docs/Effects.md calls.
actor HTTPMailServer {
  static let shared = HTTPMailServer()

  /// The mails of `folder`, from the network in a real app.
  func fetch(_ folder: String) async throws -> [Mail] { [] }

  /// Sends `draft`, over the network in a real app.
  func send(_ draft: Draft) async throws {}
}
