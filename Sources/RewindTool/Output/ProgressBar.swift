import Rewind

/// A progress bar on standard error for long work, drawn only when it is a terminal; piped output stays
/// plain. Redraws at most once per percent.
public final class ProgressBar: Sendable {
  private let output: any TextOutput
  private let label: String
  private let enabled: Bool
  private let state: Locked<(total: UInt64, drawn: Int)>

  /// A bar for `total` steps of `label`, drawn on `output` if it is a terminal (or `force` is set).
  public init(_ label: String, total: UInt64, output: any TextOutput, force: Bool = false) {
    self.output = output
    self.label = label
    enabled = output.isTerminal || force
    state = Locked((total, -1))
  }

  /// Shows that `done` of `total` steps (default: the total given before) are finished.
  public func update(_ done: UInt64, of total: UInt64? = nil) {
    guard enabled else { return }
    let percent = state.withLock { state -> Int? in
      if let total { state.total = total }
      guard state.total > 0 else { return nil }
      let percent = Int(min(done, state.total) * 100 / state.total)
      defer { state.drawn = percent }
      return state.drawn == percent ? nil : percent
    }
    guard let percent else { return }
    let width = 30
    let filled = percent * width / 100
    output.write(
      "\r\(label) [" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        + "] \(percent)%")
  }

  /// Erases the bar.
  public func finish() {
    guard enabled, state.withLock({ $0.drawn }) >= 0 else { return }
    output.write("\r\u{1B}[2K")
  }
}
