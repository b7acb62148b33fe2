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
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    queued = .allocate(capacity: 1)
    queued.initialize(to: Queue())
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
    queued.deinitialize(count: 1)
    queued.deallocate()
  }

  /// Whether the calling thread is inside a `send` already.
  @inlinable
  var isHeldByCurrentThread: Bool { owner.load(ordering: .relaxed) == currentThreadID() }

  /// Waits for the gate and takes it for the calling thread.
  @inlinable
  func enter() {
    pthread_mutex_lock(mutex)
    owner.store(currentThreadID(), ordering: .relaxed)
  }

  /// Releases the gate; the queue must be empty.
  @inlinable
  func leave() {
    assert(queued.pointee.head == queued.pointee.items.count, "DispatchGate: leaving with queued sends")
    owner.store(0, ordering: .relaxed)
    pthread_mutex_unlock(mutex)
  }

  /// Queues a send made by the owning thread. Only the owner may call this.
  @inlinable
  func enqueue(_ pending: Pending) {
    queued.pointee.items.append(pending)
  }

  /// The next queued send, oldest first. Only the owner may call this.
  @inlinable
  func dequeue() -> Pending? {
    guard queued.pointee.head < queued.pointee.items.count else { return nil }
    let next = queued.pointee.items[queued.pointee.head]
    queued.pointee.head += 1
    if queued.pointee.head == queued.pointee.items.count {
      queued.pointee.items.removeAll(keepingCapacity: true)
      queued.pointee.head = 0
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
