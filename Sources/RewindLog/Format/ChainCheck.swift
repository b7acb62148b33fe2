import Dispatch
import Synchronization

/// Checks a log's hash chain on another thread while the scan, and then the replay, go on.
///
/// The chain is SHA-256 (or HMAC) over every frame: about a third of the instructions of opening a store and
/// replaying it. But each frame's value can be checked on its own once the stored values are known:
/// frame *i* is right when `chain(stored value of frame i-1 ‖ its bytes)` equals its stored value. So the
/// scanner trusts the stored values, hands each read window's frames here, and goes on with the checksums and
/// the structure; the caller calls ``finish()`` before it trusts what it read. When every check passes,
/// the stored values are the computed ones, exactly as if the scan had computed them.
///
/// One window (a few MiB of a segment) is checked at a time, and the scan (several times faster than the
/// hashing) waits with the next one in hand: so a long log does not end up in memory while the hashing
/// catches up, and the hashing is idle only for the moment it takes to hand over the next window.
final class ChainCheck: Sendable {
  /// One frame to check: its hashed bytes in its window, the chain value before it, the one it stores.
  struct Item: Sendable {
    var hashed: Range<Int>
    var previous: SHA256.Digest
    var stored: SHA256.Digest
    var offset: Int
    /// The last sequence number before the frame: what a tampering error reports.
    var lastGoodSequence: UInt64
  }

  private let key: ChainKey?
  private let queue = DispatchQueue(label: "RewindLog chain check", qos: .userInitiated)
  private let waiting = DispatchSemaphore(value: 1)
  /// The first frame whose chain value is wrong, in log order.
  // `Locked`, not `Mutex`: the ThreadSanitizer build swaps in a lock the sanitizer understands.
  private let failure = Locked<FileJournalError?>(nil)

  init(key: ChainKey?) { self.key = key }

  /// Queues the frames of one window of `segment` (`bytes`); blocks while the previous one is still being
  /// checked.
  func submit(segment: String, bytes: [UInt8], frames: [Item]) {
    guard !frames.isEmpty else { return }
    waiting.wait()
    queue.async { [self] in
      defer { waiting.signal() }
      guard failure.withLock({ $0 == nil }) else { return }
      for item in frames
      where Frame.chainValue(previous: item.previous, hashed: bytes[item.hashed], key: key) != item.stored {
        failure.withLock {
          $0 = .tampered(
            segment: segment, offset: UInt64(item.offset), lastGoodSequence: item.lastGoodSequence)
        }
        return
      }
    }
  }

  /// Waits for every queued check. Throws ``FileJournalError/tampered(segment:offset:lastGoodSequence:)``
  /// for the first frame whose chain value is wrong.
  func finish() throws(FileJournalError) {
    queue.sync {}
    if let failure = failure.withLock({ $0 }) { throw failure }
  }
}
