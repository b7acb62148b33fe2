import Foundation

/// Which build of an app computed a fingerprint: a replay that disagrees with a fingerprint its own build
/// recorded has found nondeterminism (the build does not reproduce its own log), not a change of
/// behaviour.
///
/// A 64-bit tag of a name the app chooses, such as its version and build number. ``current`` guesses one
/// for the running program.
public struct BuildIdentity: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The tag the log records.
  public var tag: UInt64

  /// The identity of the build named `name` (e.g. `"2.4.1 (318)"`): the first 64 bits of the name's
  /// fingerprint, so the same name always gives the same tag.
  public init(_ name: String) {
    tag = CanonicalValue.string(name).high
  }

  /// An identity from its recorded tag.
  public init(tag: UInt64) {
    self.tag = tag
  }

  /// The tag in 16 hexadecimal digits.
  public var description: String {
    let digits = String(tag, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// The running program's identity, found once: on Apple platforms the main bundle's version and build
  /// number when it has them; otherwise the main executable's path, size and modification time, which
  /// change with every build that is installed; `unknown` when none can be read.
  public static let current: BuildIdentity = BuildIdentity(BuildIdentity.currentName)

  /// The name ``current`` is made from.
  public static let currentName: String = {
    let info = Bundle.main.infoDictionary ?? [:]
    if let version = info["CFBundleShortVersionString"] as? String,
      let build = info["CFBundleVersion"] as? String
    {
      return "\(Bundle.main.bundleIdentifier ?? "app") \(version) (\(build))"
    }
    guard let path = Bundle.main.executablePath,
      let attributes = try? FileManager.default.attributesOfItem(atPath: path)
    else {
      return "unknown"
    }
    let size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
    let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
    return "\(path) \(size) \(modified)"
  }()
}

/// A fingerprint as a log records it with an event: the digest of the state after the event, and the
/// build that computed it.
public struct RecordedFingerprint: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The state's fingerprint after the event.
  public var state: StateFingerprint
  /// The build that recorded it, when the store knew one.
  public var build: BuildIdentity?

  /// Creates a recorded fingerprint.
  public init(state: StateFingerprint, build: BuildIdentity?) {
    self.state = state
    self.build = build
  }

  /// The fingerprint, and the build's tag when there is one: `3fa2…90 (build 8c41…)`.
  public var description: String {
    build.map { "\(state) (build \($0))" } ?? state.description
  }
}
