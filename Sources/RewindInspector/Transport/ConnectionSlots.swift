import Rewind

/// The connections a server handles at once, so that local peers that never authenticate cannot hold a
/// real client off (Docs/Inspector.md, "The security model").
///
/// A connection is *waiting* from its accept until it authenticates (sends the token), then *serving*
/// until it leaves. At most `limit` are handled at once. When all are taken, a new connection takes the
/// place of the oldest waiting one that has sent nothing yet, which is shut down (its thread wakes at once
/// and leaves): a real client, which authenticates as soon as it connects, gets in however many silent
/// peers there are, and a flood of new connections does not displace one whose hello has arrived but
/// not yet been read. When every slot is serving, or every waiting connection has bytes to be read, a new
/// connection is refused. The connections shut down but not yet gone are
/// bounded too (four times the limit; more are refused until they end), so a flood cannot pile up threads.
package final class ConnectionSlots: Sendable {
  /// A handled connection's place.
  package struct Ticket: Sendable, Hashable {
    let number: UInt64
  }

  private struct State {
    var next: UInt64 = 1
    /// Waiting connections, oldest first.
    var waiting: [(ticket: Ticket, socket: Socket)] = []
    var serving = 0
    /// Displaced connections whose threads have not left yet.
    var ending = 0
  }

  /// The most connections handled at once.
  package let limit: Int
  private let state = Locked(State())

  /// Slots for at most `limit` connections.
  package init(limit: Int) { self.limit = limit }

  /// Admits `socket` as waiting, shutting down the oldest waiting connection when every slot is taken.
  /// Returns `nil` (the caller closes `socket`) when every slot is serving or too many displaced
  /// connections are still ending.
  package func admit(_ socket: Socket) -> Ticket? {
    let (ticket, displaced) = state.withLock { state -> (Ticket?, Socket?) in
      var displaced: Socket?
      if state.waiting.count + state.serving >= limit {
        guard state.ending < limit * 4,
          let silent = state.waiting.firstIndex(where: { !$0.socket.hasUnreadBytes })
        else { return (nil, nil) }
        displaced = state.waiting.remove(at: silent).socket
        state.ending += 1
      }
      let ticket = Ticket(number: state.next)
      state.next += 1
      state.waiting.append((ticket, socket))
      return (ticket, displaced)
    }
    displaced?.shutdown()
    return ticket
  }

  /// The connection of `ticket` authenticated: it is served and no longer displaced. False when it was
  /// displaced already (the caller ends it).
  package func authenticated(_ ticket: Ticket) -> Bool {
    state.withLock { state in
      guard let index = state.waiting.firstIndex(where: { $0.ticket == ticket }) else { return false }
      state.waiting.remove(at: index)
      state.serving += 1
      return true
    }
  }

  /// The connection of `ticket` is over (`wasServing`: it authenticated): its slot is free. Returns false
  /// when it had been displaced.
  @discardableResult
  package func leave(_ ticket: Ticket, wasServing: Bool) -> Bool {
    state.withLock { state in
      if wasServing {
        state.serving -= 1
        return true
      }
      guard let index = state.waiting.firstIndex(where: { $0.ticket == ticket }) else {
        state.ending -= 1
        return false
      }
      state.waiting.remove(at: index)
      return true
    }
  }

  /// How many connections are waiting, serving, and displaced but not gone.
  package var counts: (waiting: Int, serving: Int, ending: Int) {
    state.withLock { ($0.waiting.count, $0.serving, $0.ending) }
  }
}
