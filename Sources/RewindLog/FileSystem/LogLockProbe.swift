#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// Whether a journal (in this process or another) has a log directory open, found without taking the lock
/// for more than an instant and without creating the lock file.
package enum LogLockProbe {
  /// True when `directory`'s `LOCK` is held. A directory without a `LOCK` file was never opened for
  /// writing, so nothing holds it. The answer can be stale by the time it is used: an app may open the log
  /// right after; a writer (`FileJournal.repair`) still takes the lock itself.
  package static func isHeld(directory: String) -> Bool {
    let fd = open(directory + "/LOCK", O_RDONLY | O_CLOEXEC | O_NONBLOCK)  // a FIFO must not block
    guard fd >= 0 else { return false }
    defer { _ = close(fd) }
    // A shared lock is refused only while someone holds the writer's exclusive one.
    var attempts = 0
    while flock(fd, LOCK_SH | LOCK_NB) != 0 {
      // A process forked by the writer holds an inherited copy until its exec: retry briefly, as the
      // journal's own lock does.
      attempts += 1
      guard (errno == EWOULDBLOCK || errno == EINTR) && attempts < 25 else { return errno == EWOULDBLOCK }
      usleep(2_000)
    }
    _ = flock(fd, LOCK_UN)
    return false
  }
}
