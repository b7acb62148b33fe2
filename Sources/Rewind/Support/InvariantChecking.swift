/// A structure with internal invariants: `_checkInvariants()` traps, naming what is wrong, and the
/// structure calls ``checkInvariantsIfEnabled()`` after each mutation.
@usableFromInline
protocol InvariantChecking {
  /// Checks the invariants, trapping with a message when one does not hold.
  func _checkInvariants()
}

extension InvariantChecking {
  /// Runs `_checkInvariants()` in builds with `-DREWIND_CHECK_INVARIANTS` (the test suite's TSan pass in
  /// `Scripts/check.sh`); nothing otherwise, so release builds pay nothing.
  @inlinable
  func checkInvariantsIfEnabled() {
    #if REWIND_CHECK_INVARIANTS
      _checkInvariants()
    #endif
  }
}
