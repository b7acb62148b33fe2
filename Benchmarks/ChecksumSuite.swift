import Foundation
import RewindLog

/// Suite `checksum`: throughput of the log's checksums in MB/s over messages of 64 B, 1 KiB and 1 MiB.
/// SHA-256 (the chain of an unkeyed log), HMAC-SHA-256 under a key whose pads are hashed once (the chain of
/// a keyed log, as ``ChainKey`` does it) and CRC-32C (every frame). Each message is hashed from a fresh
/// start and finished, so the small sizes include padding and the finishing block.
/// SHA-256 runs with the processor's SHA instructions where it has them (x86-64 SHA extensions);
/// `checksum/sha256-portable-*` is the portable Swift engine on the same input, which processors without
/// them use. `checksum/chain-step-1KiB` is one unkeyed chain step as the journal takes it: the previous 32-byte chain
/// value, then a 1 KiB frame, in two updates.
/// For profiling (e.g. under callgrind): `REWIND_BENCH_CHECKSUM_ONLY=sha256-1KiB` (a name without the
/// `checksum/` prefix) runs that line alone, once, over `REWIND_BENCH_CHECKSUM_BYTES` bytes (default 32 MiB
/// per repetition); `Scripts/checksum-instructions.sh` divides its instructions by 64-byte blocks.
let checksumSuite = Suite(
  name: "checksum", summary: "SHA-256, HMAC-SHA-256, CRC-32C: MB/s at 64 B, 1 KiB, 1 MiB"
) {
  reporter in
  let environment = ProcessInfo.processInfo.environment
  let only = environment["REWIND_BENCH_CHECKSUM_ONLY"]
  let volume = environment["REWIND_BENCH_CHECKSUM_BYTES"].flatMap { Int($0) }.map { max($0, 64) } ?? 32 << 20
  var random = SplitMix64(seed: 2026)
  let input = (0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &random) }
  let key = (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) }
  let sizes = [("64B", 64), ("1KiB", 1024), ("1MiB", 1 << 20)]

  var lines: [(name: String, size: Int, hash: (UnsafeRawBufferPointer) -> UInt8)] = []
  for (label, size) in sizes {
    lines.append(("sha256-\(label)", size, { SHA256.hash($0).withUnsafeBytes { $0[0] } }))
  }
  for (label, size) in sizes {
    lines.append(
      (
        "sha256-portable-\(label)", size,
        { bytes in
          var hasher = SHA256(engine: .portable)
          hasher.update(bytes)
          return hasher.finalize().withUnsafeBytes { $0[0] }
        }
      ))
  }
  let mac = HMACSHA256(key: key)
  for (label, size) in sizes {
    lines.append(
      (
        "hmac-sha256-\(label)", size,
        { bytes in
          var copy = mac
          copy.update(bytes)
          return copy.finalize().withUnsafeBytes { $0[0] }
        }
      ))
  }
  for (label, size) in sizes {
    lines.append(("crc32c-\(label)", size, { UInt8(truncatingIfNeeded: CRC32C.checksum($0)) }))
  }
  let previous = SHA256.hash([1, 2, 3])
  lines.append(
    (
      "chain-step-1KiB", 1024,
      { bytes in
        var hasher = SHA256()
        previous.withUnsafeBytes { hasher.update($0) }
        hasher.update(bytes)
        return hasher.finalize().withUnsafeBytes { $0[0] }
      }
    ))

  for line in lines where only == nil || only == line.name {
    let messages = max(1, volume / line.size)
    let seconds = input.withUnsafeBytes { whole in
      let message = UnsafeRawBufferPointer(rebasing: whole[0..<line.size])
      let run = { checksumRun(messages: messages, message: message, line.hash) }
      return only == nil ? medianSeconds(repetitions: 5, run) : time(run)
    }
    reporter.report(
      Measurement(
        name: "checksum/\(line.name)", unit: "MB/s",
        median: Double(messages * line.size) / seconds / 1e6))
  }
}

/// Hashes `message` `messages` times; a separate function so a profile can attribute its instructions.
@inline(never)
func checksumRun(
  messages: Int, message: UnsafeRawBufferPointer, _ hash: (UnsafeRawBufferPointer) -> UInt8
) {
  var sink: UInt8 = 0
  for _ in 0..<messages { sink ^= hash(message) }
  blackHole(sink)
}
