import Synchronization

/// A progress bar on standard error for long work, drawn only when it is a terminal; piped output stays
/// plain. Redraws at most once per percent.
public final class ProgressBar: Sendable {
  private let output: any TextOutput
  private let label: String
  private let total: UInt64
  private let enabled: Bool
  private let drawn = Mutex<Int>(-1)

  /// A bar for `total` steps of `label`, drawn on `output` if it is a terminal (or `force` is set).
  public init(_ label: String, total: UInt64, output: any TextOutput, force: Bool = false) {
    self.output = output
    self.label = label
    self.total = total
    enabled = (output.isTerminal || force) && total > 0
  }

  /// Shows that `done` of the total steps are finished.
  public func update(_ done: UInt64) {
    guard enabled else { return }
    let percent = Int(min(done, total) * 100 / total)
    let redraw = drawn.withLock { last in
      defer { last = percent }
      return last != percent
    }
    guard redraw else { return }
    let width = 30
    let filled = percent * width / 100
    output.write(
      "\r\(label) [" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        + "] \(percent)% \(min(done, total))/\(total)")
  }

  /// Erases the bar.
  public func finish() {
    guard enabled, drawn.withLock({ $0 }) >= 0 else { return }
    output.write("\r\u{1B}[2K")
  }
}
