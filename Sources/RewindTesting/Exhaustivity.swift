/// How much a ``TestStore`` makes the test account for.
public enum Exhaustivity: Equatable, Sendable {
  /// Everything: every state change, every received action, every running effect at the end.
  case on
  /// Only what the test names: an assertion closure checks the fields it sets against the actual state;
  /// `receive` passes over other received actions; `finish()` cancels the effects still running.
  /// Unexpected diagnostics still fail the test.
  ///
  /// With `showSkippedAssertions`, what was passed over is listed in ``TestStore/skipped`` and shown to
  /// the test as a known issue (Swift Testing) or a printed line (XCTest).
  case off(showSkippedAssertions: Bool)

  /// Only what the test names, without listing what was skipped.
  public static var off: Exhaustivity { .off(showSkippedAssertions: false) }

  var isOn: Bool { self == .on }
  var showsSkipped: Bool { self == .off(showSkippedAssertions: true) }
}
