import Foundation

/// How an inspector listens and what it allows; see Docs/Inspector.md.
public struct InspectorOptions: Sendable {
  /// The loopback port to listen on; 0 lets the system choose (the token file names it).
  public var port: UInt16
  /// Where to write the token file; `nil` for ``TokenFile/defaultPath(processID:)``.
  public var tokenFile: String?
  /// How many of the app's own sends are held while a tool pauses the app or looks at the past; the next
  /// one returns the app to live.
  public var queueLimit: Int
  /// The actor recorded on the actions, undos and redos a tool sends.
  public var actor: String
  /// Told where the inspector listens and where its token file is, and when a tool attaches or leaves:
  /// by default one line on standard error.
  public var announce: @Sendable (String) -> Void
  /// How long a connection may take to send its hello (with the token) before it is closed and its slot
  /// freed: by default 5 seconds. An attached tool is never timed out by it.
  public var handshakeTimeout: Duration

  /// Creates options; every parameter has the default the documentation gives.
  public init(
    port: UInt16 = 0, tokenFile: String? = nil, queueLimit: Int = 10_000, actor: String = "inspector",
    handshakeTimeout: Duration = .seconds(5),
    announce: @escaping @Sendable (String) -> Void = InspectorOptions.printToStandardError
  ) {
    self.port = port
    self.tokenFile = tokenFile
    self.queueLimit = queueLimit
    self.actor = actor
    self.handshakeTimeout = handshakeTimeout
    self.announce = announce
  }

  /// ``handshakeTimeout`` in whole milliseconds, at least 1 and at most `Int32.max`.
  var handshakeMilliseconds: Int32 {
    let (seconds, attoseconds) = handshakeTimeout.components
    let milliseconds = seconds.multipliedReportingOverflow(by: 1_000)
    guard !milliseconds.overflow else { return seconds < 0 ? 1 : .max }
    let total = milliseconds.partialValue.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
    guard !total.overflow else { return seconds < 0 ? 1 : .max }
    return Int32(clamping: max(1, total.partialValue))
  }

  /// Writes `line` to standard error, prefixed with `[Rewind] `.
  public static func printToStandardError(_ line: String) {
    FileHandle.standardError.write(Data("[Rewind] \(line)\n".utf8))
  }
}

/// Which actions a tool may dispatch, and how they are decoded: by default none.
public struct InspectorDispatch<Action: Sendable>: Sendable {
  /// The allowed action types: full action paths (`toggleFlag`, `list.swipe.panBegan`) or their prefixes
  /// (`list.swipe` allows every swipe action).
  public var allowed: [String]
  /// Decodes an action from JSON with the app's codec; `nil` when dispatch is off.
  let decode: (@Sendable ([UInt8]) throws -> Action)?

  /// No dispatch: every `dispatch` command is refused.
  public static var none: InspectorDispatch { InspectorDispatch(allowed: [], decode: nil) }

  /// Allows the action types in `types`, decoded from JSON by `decode` (the app's codec).
  public static func allowing(_ types: [String], decode: @escaping @Sendable (Data) throws -> Action)
    -> InspectorDispatch
  {
    InspectorDispatch(allowed: types, decode: { try decode(Data($0)) })
  }

  /// Whether an action of full path `type` may be dispatched.
  func allows(_ type: String) -> Bool {
    allowed.contains { type == $0 || type.hasPrefix($0 + ".") }
  }
}

extension InspectorDispatch where Action: Decodable {
  /// Allows the action types in `types`, decoded by the action's `Decodable` conformance from JSON.
  public static func allowing(_ types: [String]) -> InspectorDispatch {
    allowing(types) { try JSONDecoder().decode(Action.self, from: $0) }
  }
}
