/// What the app shows and does while a tool is attached (Docs/Inspector.md, "What the app shows").
public enum InspectorMode: Sendable, Equatable {
  /// The app runs as usual.
  case live
  /// The app's sends are held; views show the state as of event `at` (recomputed without the skipped
  /// events, if any).
  case paused(at: UInt64)
  /// The app's sends are held; views show the state as of event `at` (without the skipped events).
  case past(at: UInt64)

  /// The sequence number views show, `nil` when live.
  public var shown: UInt64? {
    switch self {
    case .live: nil
    case .paused(let at), .past(let at): at
    }
  }

  /// The mode's name on the wire.
  var name: String {
    switch self {
    case .live: "live"
    case .paused: "paused"
    case .past: "past"
    }
  }
}

/// The inspector's state of the app, behind the inspector's lock: the mode, the skipped events and the
/// events whose outcome the skips changed.
struct InspectorView: Sendable {
  var mode: InspectorMode = .live
  var skipped: Set<UInt64> = []
  var changed: [UInt64] = []
  /// Why the app changed mode by itself, for the next status.
  var reason: String?
  /// Bumped on every change, so a session knows to send a status.
  var version: UInt64 = 0

  mutating func set(_ mode: InspectorMode, reason: String? = nil) {
    self.mode = mode
    if mode == .live {
      skipped = []
      changed = []
    }
    self.reason = reason
    version &+= 1
  }
}
