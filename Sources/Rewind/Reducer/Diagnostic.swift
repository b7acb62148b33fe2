import Foundation

/// Something a reducer or the store noticed that is not an error of the program but deserves attention.
///
/// Diagnostics reach the `diagnostics` handler given to the ``Store`` when it was created; a `TestStore`
/// (from RewindTesting) fails the test on any it did not expect.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
  /// What kind of thing happened.
  public enum Kind: String, Sendable, Hashable, Codable {
    /// An action addressed an element id that is not in the collection.
    case elementMissing
    /// An action arrived for optional child state that was `nil`.
    case childStateMissing
    /// An effect's operation threw an error other than cancellation.
    case effectFailed
    /// The journal refused an event; the store keeps working in memory.
    case journalFailed
    /// A history command had nothing to act on, such as ending a transaction that was never begun.
    case historyCommandIgnored
    /// An action carried a value outside its domain, such as a button index past the last button; the
    /// action changed nothing.
    case invalidInput
    /// An effect used a dependency that has no implementation in the store's context, such as a test
    /// value made with ``unimplemented(_:)``; the message names the dependency.
    case dependencyUnimplemented
    /// A replayed reducer drew a value its event did not record (see ``UnrecordedDraw``); the replay used
    /// a deterministic substitute.
    case unrecordedDraw
    /// An action or history command was sent after the store was closed (`Store.close()`); it was
    /// dropped, not recorded.
    case storeClosed
  }

  /// What kind of thing happened.
  public var kind: Kind
  /// A sentence that names what and where.
  public var message: String
  /// The draw a replay lacked, for a diagnostic of kind ``Kind/unrecordedDraw``.
  public var unrecordedDraw: UnrecordedDraw?

  /// Creates a diagnostic.
  public init(kind: Kind, message: String) {
    self.kind = kind
    self.message = message
  }

  /// The diagnostic of a draw a replay lacked.
  public init(_ draw: UnrecordedDraw) {
    self.init(kind: .unrecordedDraw, message: draw.description)
    unrecordedDraw = draw
  }

  public var description: String { "\(kind.rawValue): \(message)" }
}

/// Prints `diagnostic` as one line on standard error: the default when there is no store to report to.
func printToStandardError(_ diagnostic: Diagnostic) {
  FileHandle.standardError.write(Data("[Rewind] \(diagnostic)\n".utf8))
}
