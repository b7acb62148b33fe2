import Rewind

/// Where new mail comes from: the inbox's one dependency on the outside world.
///
/// The reducer never calls it: `getMail` starts an effect that does, and the mail it brings back arrives
/// as a `received` action, recorded in the log like any other. Replaying the log therefore needs no
/// server, and a test replaces the server (``DependencyValues/mailServer``) with one of its own.
public struct MailServer: Sendable {
  /// The mail with ids above `id` (the highest the inbox knows), oldest first.
  public var fetchMail: @Sendable (_ after: Int) async throws -> [Mail]

  /// Creates a server that answers with `fetchMail`.
  public init(fetchMail: @escaping @Sendable (_ after: Int) async throws -> [Mail]) {
    self.fetchMail = fetchMail
  }

  /// The example's server, on this machine: each fetch delivers the next two mails of a fixed list of
  /// senders, so runs are repeatable.
  public static var sample: MailServer {
    MailServer { after in
      let senders = [("Build bot", "Nightly build passed"), ("Calendar", "Reminder: design review")]
      return senders.enumerated().map { offset, mail in
        Mail(id: after + 1 + offset, sender: mail.0, subject: mail.1)
      }
    }
  }
}

/// The key of ``DependencyValues/mailServer``.
public enum MailServerKey: DependencyKey {
  /// ``MailServer/sample``: the example has no network.
  public static var liveValue: MailServer { .sample }
  /// Fails the test that fetches without giving a server of its own.
  public static var testValue: MailServer { MailServer(fetchMail: unimplemented("MailServer.fetchMail")) }
}

extension DependencyValues {
  /// The inbox's mail server.
  public var mailServer: MailServer {
    get { self[MailServerKey.self] }
    set { self[MailServerKey.self] = newValue }
  }
}
