import Foundation
import Testing

@testable import RewindInspector

/// Which waiting connection a new one displaces when every slot is taken (`ConnectionSlots`).
@Suite struct ConnectionSlotsTests {
  /// A connected pair: the server's end (admitted) and the peer's end (which may send).
  static func pair() throws -> (server: Socket, peer: Socket) {
    let (server, peer) = try Socket.pair()
    return (server, peer)
  }

  /// A connection whose hello has arrived but not been read is not displaced by a newer one: the oldest
  /// connection that has sent nothing is (a review found a connect flood could displace a real tool
  /// whose hello was waiting in the kernel's buffer).
  @Test func aConnectionWithBytesWaitingIsNotDisplaced() throws {
    let slots = ConnectionSlots(limit: 2)
    let spoken = try Self.pair()
    let silent = try Self.pair()
    #expect(slots.admit(spoken.server) != nil)
    #expect(slots.admit(silent.server) != nil)
    try spoken.peer.write([1, 2, 3], timeout: 1_000)
    let newcomer = try Self.pair()
    #expect(slots.admit(newcomer.server) != nil)
    // The silent one was shut down: its peer reads the end of input.
    #expect(try silent.peer.read(atMost: 1, timeout: 1_000).isEmpty)
    #expect(spoken.server.hasUnreadBytes)
    #expect(slots.counts == (waiting: 2, serving: 0, ending: 1))
  }

  /// When every waiting connection has bytes to be read, a newer one is refused rather than displacing a
  /// handshake about to be read.
  @Test func whenEveryWaitingConnectionHasSpokenANewOneIsRefused() throws {
    let slots = ConnectionSlots(limit: 2)
    let first = try Self.pair()
    let second = try Self.pair()
    #expect(slots.admit(first.server) != nil)
    #expect(slots.admit(second.server) != nil)
    try first.peer.write([1], timeout: 1_000)
    try second.peer.write([1], timeout: 1_000)
    let newcomer = try Self.pair()
    #expect(slots.admit(newcomer.server) == nil)
    #expect(slots.counts == (waiting: 2, serving: 0, ending: 0))
  }
}
