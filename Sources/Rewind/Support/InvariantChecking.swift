/// The package's one convention for internal invariants, in every module: a type with invariants conforms,
/// keeps its check as `_checkInvariants()` in `Type+Invariants.swift`, and calls
/// ``checkInvariantsIfEnabled()`` after every mutation.
///
/// The checks run only in builds with `-DREWIND_CHECK_INVARIANTS`: the ThreadSanitizer pass of
/// `Scripts/check.sh` passes it to every module with `-Xswiftc`. In other builds the call is an empty
/// inlinable function, so they pay nothing. A failed check is a bug in the package, never bad input: it
/// traps, naming what is wrong. (`Scripts/check.sh` also checks that the flag appears nowhere else, and
/// that every `_checkInvariants()` lives in a `+Invariants.swift` file.)
@usableFromInline
package protocol InvariantChecking {
  /// Checks the invariants, trapping with a message when one does not hold. Mutations call
  /// ``checkInvariantsIfEnabled()``; tests may call this directly, in any build.
  func _checkInvariants()
}

extension InvariantChecking {
  /// Runs `_checkInvariants()` in builds with `-DREWIND_CHECK_INVARIANTS`; nothing otherwise.
  @inlinable
  package func checkInvariantsIfEnabled() {
    #if REWIND_CHECK_INVARIANTS
      _checkInvariants()
    #endif
  }
}

/// Whether this build runs the checks: compiled with `-DREWIND_CHECK_INVARIANTS`. For the tests that show a
/// mutation runs its type's check.
package var invariantChecksAreEnabled: Bool {
  #if REWIND_CHECK_INVARIANTS
    return true
  #else
    return false
  #endif
}
