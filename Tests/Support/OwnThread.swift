import Foundation

/// Runs `body` on a thread of its own and awaits it, so that a test that blocks for seconds (sockets, child
/// processes, a browser) holds none of the cooperative pool's threads: on two cores there are two, and a test
/// holding them stalls every other test's tasks until their time limits run out.
///
/// Expectations in `body` still fail the run (Swift Testing posts an issue recorded off the test's task to
/// every running configuration), but the report names no test: put what identifies a failure (a seed, a
/// step) in the expectation's message.
public func onOwnThread<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws
  -> Result
{
  try await withCheckedThrowingContinuation { continuation in
    Thread.detachNewThread { continuation.resume(with: Swift.Result { try body() }) }
  }
}
