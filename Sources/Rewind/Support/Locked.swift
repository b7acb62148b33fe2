import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

#if REWIND_THREAD_SANITIZER
  /// A value guarded by a pthread mutex: the ThreadSanitizer build of ``Locked``.
  ///
  /// On Linux, `Synchronization.Mutex` waits on a futex in code ThreadSanitizer does not instrument, so
  /// under contention TSan misses the lock and reports races that are not there. `Scripts/check.sh` builds
  /// the sanitizer run with `-DREWIND_THREAD_SANITIZER`, which swaps in this pthread mutex TSan understands;
  /// everything around the lock is checked the same.
  @safe
  @usableFromInline
  package final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched while `mutex` is held.
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline let value: UnsafeMutablePointer<Value>

    package init(_ value: Value) {
      unsafe self.value = .allocate(capacity: 1)
      unsafe self.value.initialize(to: value)
      unsafe mutex = .allocate(capacity: 1)
      unsafe mutex.initialize(to: pthread_mutex_t())
      unsafe pthread_mutex_init(mutex, nil)
    }

    deinit {
      unsafe pthread_mutex_destroy(mutex)
      unsafe mutex.deallocate()
      unsafe value.deinitialize(count: 1)
      unsafe value.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable
    package func withLock<Result, Failure: Error>(
      _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
      unsafe pthread_mutex_lock(mutex)
      defer { unsafe pthread_mutex_unlock(mutex) }
      return unsafe try body(&value.pointee)
    }

    /// Runs `body` with exclusive access to the value, handing it `input` to consume (say, to append
    /// without a copy).
    @inlinable
    package func withLock<Input, Result, Failure: Error>(
      moving input: consuming Input, _ body: (inout Value, consuming Input) throws(Failure) -> Result
    ) throws(Failure) -> Result {
      unsafe pthread_mutex_lock(mutex)
      defer { unsafe pthread_mutex_unlock(mutex) }
      return unsafe try body(&value.pointee, input)
    }
  }
#else
  /// A value guarded by a lock, shared by the package's modules.
  ///
  /// Backed by `Synchronization.Mutex`, whose uncontended path is an inline compare-and-swap. For the
  /// ThreadSanitizer run see the `REWIND_THREAD_SANITIZER` variant above.
  ///
  /// The value lives behind a pointer rather than in a stored `var`: the lock already makes access
  /// exclusive, and a class's `var` would add a dynamic exclusivity check (a thread-local access set) to
  /// every `withLock`, measured at about a sixth of a store's `send`.
  @safe
  @usableFromInline
  package final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched while `lock` is held.
    @usableFromInline let lock = Mutex<Void>(())
    @usableFromInline let value: UnsafeMutablePointer<Value>

    package init(_ value: Value) {
      unsafe self.value = .allocate(capacity: 1)
      unsafe self.value.initialize(to: value)
    }

    deinit {
      unsafe value.deinitialize(count: 1)
      unsafe value.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable
    package func withLock<Result, Failure: Error>(
      _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
      lock._unsafeLock()
      defer { lock._unsafeUnlock() }
      return unsafe try body(&value.pointee)
    }

    /// Runs `body` with exclusive access to the value, handing it `input` to consume (say, to append
    /// without a copy).
    @inlinable
    package func withLock<Input, Result, Failure: Error>(
      moving input: consuming Input, _ body: (inout Value, consuming Input) throws(Failure) -> Result
    ) throws(Failure) -> Result {
      lock._unsafeLock()
      defer { lock._unsafeUnlock() }
      return unsafe try body(&value.pointee, input)
    }
  }
#endif
