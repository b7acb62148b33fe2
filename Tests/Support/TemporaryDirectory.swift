import Foundation

/// A fresh directory under the system's temporary directory, removed when released.
///
/// `REWIND_KEEP_TEMP=1` keeps it (and prints its path) for a look by hand.
public final class TemporaryDirectory: Sendable {
  /// The directory's path.
  public let path: String

  /// A directory whose name includes `label` (by default the calling function's name): created empty, or
  /// with `create: false` only named, for tests of code that must create it.
  public init(_ label: String = #function, create: Bool = true) {
    let name = "rewind-\(label.filter { $0.isLetter || $0.isNumber })-\(UInt64.random(in: 0...UInt64.max))"
    path = (NSTemporaryDirectory() as NSString).appendingPathComponent(name)
    if create { try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
  }

  /// The path of `name` inside the directory.
  public func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

  deinit {
    if ProcessInfo.processInfo.environment["REWIND_KEEP_TEMP"] != nil {
      print("kept \(path)")
    } else {
      try? FileManager.default.removeItem(atPath: path)
    }
  }
}
