import Foundation
import Rewind

// Accepting connections: the peer check, the hello, the token, the one-client rule.

extension Inspector {
  /// Accepts connections until ``stop()``; each is handled on a thread of its own.
  func acceptLoop() {
    while true {
      let socket: Socket?
      do {
        socket = try listener.accept()
      } catch {
        options.announce("inspector: stopped accepting connections: \(error)")
        return
      }
      guard let socket else { return }
      let peer = SocketAddress.peer(of: socket.descriptor)
      guard peer.isLoopback else {
        // Nothing is sent: the socket is closed when released.
        noteClosed("\(peer.text): refused: not a loopback peer")
        continue
      }
      guard let ticket = handshakes.admit(socket) else {
        noteClosed("\(peer.text): refused: too many connections are ending")
        continue
      }
      Thread.detachNewThread { [self] in serve(socket, peer: peer.text, ticket: ticket) }
    }
  }

  /// Reads the hello from `socket` within the handshake timeout, checks it, and runs the session if it is
  /// accepted.
  func serve(_ socket: Socket, peer: String, ticket: ConnectionSlots.Ticket) {
    let timeout = options.handshakeMilliseconds
    let read = Result { () throws(FrameError) in
      try socket.readFrame(
        limit: Frame.helloLimit, idleTimeout: timeout, timeout: timeout,
        deadline: DispatchTime.now().uptimeNanoseconds + UInt64(timeout) * 1_000_000)
    }
    // The hello is read or the wait is over: the slot is free. A displaced connection was shut down.
    guard handshakes.leave(ticket, wasServing: false) else {
      noteClosed("\(peer): closed before the token was checked: a newer connection took its place")
      return
    }
    let hello: Hello
    do {
      hello = try Hello(try read.get())
    } catch {
      // The token was not checked: nothing is sent.
      noteClosed("\(peer): closed before the token was checked: \(error)")
      return
    }
    guard token.matches(hello.token) else {
      refuse(socket, peer: peer, code: "token", reason: "the token is missing or wrong")
      return
    }
    guard let version = hello.versions.filter(Hello.supportedVersions.contains).max() else {
      refuse(
        socket, peer: peer, code: "version",
        reason: "no common protocol version (this app speaks \(Hello.supportedVersions))")
      return
    }
    guard !isStopped.load(ordering: .acquiring) else {
      refuse(socket, peer: peer, code: "shutdown", reason: "the inspector stopped")
      return
    }
    let session = InspectorSession(inspector: self, socket: socket, peer: peer, from: hello.from)
    let claimed = attached.withLock { attached -> Bool in
      guard attached == nil else { return false }
      attached = session
      return true
    }
    guard claimed else {
      refuse(socket, peer: peer, code: "busy", reason: "another tool is attached; one at a time")
      return
    }
    options.announce("inspector: \(hello.client ?? "a tool") attached from \(peer)")
    session.run(version: version)
  }

  /// Sends `bye` with `code` and `reason`, then closes.
  func refuse(_ socket: Socket, peer: String, code: String, reason: String) {
    noteClosed("\(peer): refused (\(code)): \(reason)")
    try? socket.writeFrame(Self.bye(code: code, reason: reason), timeout: 1_000)
    socket.shutdown()
  }

  /// The `bye` message.
  static func bye(code: String, reason: String) -> InspectorJSON {
    .object([("type", .string("bye")), ("code", .string(code)), ("reason", .string(reason))])
  }

  /// Called by a session when its connection is over: frees the slot and returns the app to live.
  func detach(_ session: InspectorSession<State, Action>, reason: String) {
    let wasAttached = attached.withLock { attached -> Bool in
      guard attached === session else { return false }
      attached = nil
      return true
    }
    guard wasAttached else { return }
    noteClosed("\(session.peer): \(reason)")
    returnToLive(reason: nil)
    options.announce("inspector: the tool detached (\(reason))")
  }
}
