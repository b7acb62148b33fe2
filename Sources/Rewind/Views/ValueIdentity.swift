#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// How observation decides that a value did not change between two states.
@usableFromInline
enum ValueIdentity {
  /// Whether `a` and `b` have the same bits: the same inline fields and the same storage references.
  ///
  /// Sound as an "unchanged" test for the values observation compares: both come from states the store
  /// keeps alive (the last state observers were told of, and the current one), so copy-on-write storage
  /// they share was never mutated in place. The converse does not hold (equal values may differ in storage,
  /// or in padding), so a `false` here means "compare further", never "changed". For a collection that
  /// shares its storage between versions, this is the O(1) test that skips everything below it.
  @inlinable
  static func isIdentical<T>(_ a: T, _ b: T) -> Bool {
    let size = MemoryLayout<T>.size
    if size == 0 { return true }
    return unsafe withUnsafeBytes(of: a) { left in
      unsafe withUnsafeBytes(of: b) { right in
        guard let left = left.baseAddress, let right = right.baseAddress else { return false }
        return unsafe memcmp(left, right, size) == 0
      }
    }
  }

  /// `a == b` when `T` is `Equatable` at run time; `nil` when it is not.
  @usableFromInline
  static func dynamicallyEqual<T>(_ a: T, _ b: T) -> Bool? {
    guard let a = a as? any Equatable else { return nil }
    return a.isEqual(toValue: b)
  }

  /// Whether the value changed: not identical, and not equal by `equal` (or by a run-time `Equatable`
  /// conformance when `equal` is `nil`); a value that cannot be compared counts as changed.
  @inlinable
  static func changed<T>(_ a: T, _ b: T, equal: ((T, T) -> Bool)?) -> Bool {
    if isIdentical(a, b) { return false }
    if let equal { return !equal(a, b) }
    return !(dynamicallyEqual(a, b) ?? false)
  }
}

extension Equatable {
  /// Whether `other` is a `Self` equal to this value.
  fileprivate func isEqual(toValue other: Any) -> Bool {
    guard let other = other as? Self else { return false }
    return self == other
  }
}
