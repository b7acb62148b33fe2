import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Serializes whole `send` calls, and queues the sends that happen inside one on the same thread.
///
/// The store's state lock is held only while reducing. This gate is held for the whole of an outer
/// `send`, while observers, effects and diagnostics run outside the state lock: a send from another
/// thread waits here; a send from the owning thread (an observer or a synchronous effect) is queued and
/// processed, in order, before the outer `send` returns.
@safe
@usableFromInline
final class DispatchGate<Pending>: @unchecked Sendable {
  // @unchecked: `queued` is touched only by the thread that holds `mutex`.
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
  @usableFromInline let owner = Atomic<UInt>(0)
  /// Behind a pointer rather than in stored `var`s, which would cost a dynamic exclusivity check per access
  /// on every send; the mutex already makes access exclusive.
  @usableFromInline let queued: UnsafeMutablePointer<Queue>

  @usableFromInline
  struct Queue {
    @usableFromInline var items: [Pending] = []
    @usableFromInline var head = 0
  }

  @usableFromInline
  init() {
    unsafe mutex = .allocate(capacity: 1)
    unsafe mutex.initialize(to: pthread_mutex_t())
    unsafe pthread_mutex_init(mutex, nil)
    unsafe queued = .allocate(capacity: 1)
    unsafe queued.initialize(to: Queue())
  }

  deinit {
    unsafe pthread_mutex_destroy(mutex)
    unsafe mutex.deallocate()
    unsafe queued.deinitialize(count: 1)
    unsafe queued.deallocate()
  }

  /// Whether the calling thread is inside a `send` already.
  @inlinable
  var isHeldByCurrentThread: Bool { owner.load(ordering: .relaxed) == currentThreadID() }

  /// Waits for the gate and takes it for the calling thread.
  @inlinable
  func enter() {
    unsafe pthread_mutex_lock(mutex)
    owner.store(currentThreadID(), ordering: .relaxed)
  }

  /// Releases the gate; the queue must be empty.
  @inlinable
  func leave() {
    unsafe assert(
      queued.pointee.head == queued.pointee.items.count, "DispatchGate: leaving with queued sends")
    owner.store(0, ordering: .relaxed)
    unsafe pthread_mutex_unlock(mutex)
  }

  /// Queues a send made by the owning thread. Only the owner may call this.
  @inlinable
  func enqueue(_ pending: Pending) {
    unsafe queued.pointee.items.append(pending)
  }

  /// The next queued send, oldest first. Only the owner may call this.
  @inlinable
  func dequeue() -> Pending? {
    guard unsafe queued.pointee.head < queued.pointee.items.count else { return nil }
    let next = unsafe queued.pointee.items[queued.pointee.head]
    unsafe queued.pointee.head += 1
    if unsafe queued.pointee.head == queued.pointee.items.count {
      unsafe queued.pointee.items.removeAll(keepingCapacity: true)
      unsafe queued.pointee.head = 0
    }
    return next
  }
}

/// An identifier of the calling thread, never 0.
@inlinable
func currentThreadID() -> UInt {
  #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
  #else
    UInt(pthread_self())
  #endif
}
