/// How a log directory names the files it numbers by sequence: a prefix, the number zero-padded to 20
/// digits (so names sort as numbers), and a suffix. Segments are `segment-<first sequence>.log`,
/// snapshots `snapshot-<sequence>.bin`.
struct NumberedFileName {
  let prefix: String
  let suffix: String

  /// The name of the file numbered `number`.
  func name(_ number: UInt64) -> String {
    let digits = String(number)
    return prefix + String(repeating: "0", count: max(0, 20 - digits.count)) + digits + suffix
  }

  /// The number in `name`, or `nil` for a file not named this way.
  func number(in name: String) -> UInt64? {
    guard name.hasPrefix(prefix), name.hasSuffix(suffix) else { return nil }
    return UInt64(name.dropFirst(prefix.count).dropLast(suffix.count))
  }
}
