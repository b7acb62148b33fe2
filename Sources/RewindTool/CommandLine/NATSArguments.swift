import Foundation
import RewindShip

/// The options the NATS commands share: servers, stream, credentials from a file or the environment.
enum NATSArguments {
  static let server = CommandSpec.Option.value(
    "server", "URL", repeatable: true,
    help: "a NATS server, nats://host:port (repeat for a cluster; no credentials)")
  static let stream = CommandSpec.Option.value("stream", "NAME", help: "the JetStream stream (one per log)")
  static let credentials = CommandSpec.Option.value(
    "credentials", "FILE",
    help: "a file of user=/password= or token= lines (else REWIND_NATS_USER/_PASSWORD/_TOKEN)")

  /// The servers named by `--server` (at least one).
  static func servers(_ arguments: ParsedArguments) throws(ToolError) -> [NATSServerAddress] {
    let texts = arguments.allValues("server")
    guard !texts.isEmpty else { throw .usage(UsageError("--server URL is required")) }
    var servers: [NATSServerAddress] = []
    for text in texts {
      do { servers.append(try NATSServerAddress(parsing: text)) } catch {
        throw .usage(UsageError("--server: \(error)"))
      }
    }
    return servers
  }

  /// The stream named by `--stream`.
  static func stream(_ arguments: ParsedArguments) throws(ToolError) -> String {
    guard let name = arguments.value("stream"), !name.isEmpty else {
      throw .usage(UsageError("--stream NAME is required"))
    }
    return name
  }

  /// Credentials from `--credentials FILE`, else from the environment.
  static func credentials(_ arguments: ParsedArguments) throws(ToolError) -> NATSCredentials? {
    do {
      if let path = arguments.value("credentials") { return try NATSCredentials.fromFile(path) }
      return try NATSCredentials.fromEnvironment()
    } catch {
      throw .usage(UsageError(error.description))
    }
  }
}
