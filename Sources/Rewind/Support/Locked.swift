#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// A value guarded by a pthread mutex.
///
/// Used instead of `Synchronization.Mutex` throughout the package: on Linux, `Mutex` waits on a futex in
/// code ThreadSanitizer does not instrument, so under contention it misses the lock and reports races
/// that are not there. A pthread mutex it understands. (The uncontended cost is about the same.)
@usableFromInline
package final class Locked<Value>: @unchecked Sendable {
  // @unchecked: `value` is only touched while `mutex` is held.
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
  @usableFromInline var value: Value

  package init(_ value: Value) {
    self.value = value
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` with exclusive access to the value.
  @inlinable
  package func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}
