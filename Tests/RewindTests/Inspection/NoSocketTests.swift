import Foundation
import Rewind
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The inspector is off unless an app starts it: a store that never calls `inspect()` opens no socket,
/// however it is used. (This test target does not even link the inspector's module; the count is of the
/// process's socket descriptors, which no other test of this target opens.)
@Suite struct NoSocketTests {
  /// The number of open file descriptors that are sockets.
  static func socketCount() -> Int {
    var count = 0
    for descriptor in 0..<Int32(4_096) {
      var info = stat()
      if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK { count += 1 }
    }
    return count
  }

  @Test func aStoreWithoutInspectOpensNoSocket() async throws {
    let before = Self.socketCount()
    let store = Store(
      initialState: Counter.State(), reducer: Counter(), history: .undoEveryAction)
    let subscriber = Task { for await _ in store.states {} }
    for _ in 0..<1_000 { store.send(.increment) }
    store.undo()
    _ = try store.state(at: 500)
    _ = store.inspection.newest
    #expect(Self.socketCount() == before)
    subscriber.cancel()
  }
}
