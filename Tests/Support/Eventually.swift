/// Waits until `condition` holds, checking it every millisecond, and gives up after `limit` of real time:
/// for a test that waits for something another task or thread does (an effect's send, a file written off
/// the caller's thread) and has no signal to await.
///
/// - Returns: whether `condition` held in time.
public func eventually(limit: Duration = .seconds(10), _ condition: () -> Bool) async -> Bool {
  let deadline = ContinuousClock.now.advanced(by: limit)
  while !condition() {
    if ContinuousClock.now >= deadline { return condition() }
    // The pause leaves the cores to the code under test between checks.
    try? await Task.sleep(for: .milliseconds(1))  // waits for `condition`
  }
  return true
}
