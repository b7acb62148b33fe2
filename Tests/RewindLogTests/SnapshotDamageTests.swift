import Foundation
import Rewind
import RewindTestSupport
import RewindTesting
import Testing

@testable import RewindLog

/// Damaged version 3 snapshots: each falls back to an older snapshot or a whole replay, with the reason in
/// `snapshotRecovery`, and reading one never holds more than a window of it.
@Suite(.timeLimit(.minutes(2))) struct SnapshotDamageTests {
  static let options = FileJournalOptions(durability: .grouped(), segmentSize: 4096, snapshotInterval: nil)

  /// A log of 100 edits of 300 rows, with snapshots (version 3, binary) as of events 40 and 70.
  func fill(_ directory: String) throws -> RowList.State {
    let store = try Store.open(
      directory: directory, initialState: RowList.State(rows: 300), reducer: RowList(), options: Self.options,
      diagnostics: { _ in })
    let journal = try #require(store.journal as? FileJournal<RowList.Action>)
    var random = SplitMix64(seed: 11)
    for sequence in 1...100 {
      store.send(RowList.random(&random, store.state))
      if sequence == 40 || sequence == 70 { try store.writeSnapshot(to: journal) }
    }
    try journal.close()
    return store.state
  }

  func reopen(_ directory: String) throws -> (Store<RowList.State, RowList.Action>, SnapshotRecovery?) {
    let store = try Store.open(
      directory: directory, initialState: RowList.State(rows: 300), reducer: RowList(), options: Self.options,
      diagnostics: { _ in })
    let journal = store.journal as? FileJournal<RowList.Action>
    defer { try? journal?.close() }
    return (store, journal?.snapshotRecovery)
  }

  func path(_ directory: String, _ sequence: UInt64) -> String {
    directory + "/" + SnapshotFile.fileName(sequence: sequence)
  }

  func rewrite(_ file: String, _ change: (inout [UInt8]) -> Void) throws {
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
    change(&bytes)
    try Data(bytes).write(to: URL(fileURLWithPath: file))
  }

  /// Opens `directory` after `damage` to the newest snapshot: the state is the same, restored from the
  /// older snapshot, and the newer one is named with `reason`.
  func expectFallBack(
    _ damage: (inout [UInt8]) -> Void, reason: SnapshotRejection.Reason, _ comment: Comment
  ) throws {
    let directory = TemporaryDirectory()
    let before = try fill(directory.path)
    try rewrite(path(directory.path, 70), damage)
    let (store, recovery) = try reopen(directory.path)
    #expect(store.state == before, comment)
    #expect(recovery?.usedSequence == 40, comment)
    #expect(
      recovery?.rejected == [SnapshotRejection(file: SnapshotFile.fileName(sequence: 70), reason: reason)],
      comment)
  }

  @Test func theSnapshotsAreVersion3BinaryStates() throws {
    let directory = TemporaryDirectory()
    _ = try fill(directory.path)
    for sequence in [40, 70] as [UInt64] {
      let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(directory.path, sequence))))
      guard case .success(let snapshot) = SnapshotFile.parse(bytes) else {
        Issue.record("snapshot \(sequence) does not parse")
        continue
      }
      #expect(snapshot.version == 3 && snapshot.isBinaryCodable && snapshot.position != nil)
    }
    let (_, recovery) = try reopen(directory.path)
    #expect(recovery == SnapshotRecovery(usedSequence: 70, rejected: []))
  }

  @Test func aFlippedByteInTheHeader() throws {
    try expectFallBack({ $0[30] ^= 0x01 }, reason: .damaged("header checksum mismatch"), "sequence number")
    try expectFallBack(
      { $0[SnapshotFile.headerSize - 10] ^= 0x80 }, reason: .damaged("header checksum mismatch"), "length")
  }

  @Test func aFlippedByteInTheState() throws {
    for offset in [0, 1, 2, 700, -5] {
      try expectFallBack(
        { bytes in bytes[offset >= 0 ? SnapshotFile.headerSize + offset : bytes.count + offset] ^= 0x20 },
        reason: .damaged("checksum mismatch"), "state byte \(offset)")
    }
  }

  @Test func aTruncatedSnapshot() throws {
    for keep in [0, 11, 12, 100, SnapshotFile.headerSize, SnapshotFile.headerSize + 50] {
      let reason: SnapshotRejection.Reason =
        keep < 12
        ? .damaged("file too short")
        : keep < SnapshotFile.fixedSize
          ? .damaged("file too short") : .damaged("the state length does not match the file size")
      try expectFallBack({ $0.removeSubrange(keep...) }, reason: reason, "kept \(keep) bytes")
    }
    try expectFallBack(
      { $0.removeLast(1) }, reason: .damaged("the state length does not match the file size"),
      "one byte short")
  }

  /// The header's length field claims more than the file holds, its checksum made to match.
  @Test func aLengthClaimingMoreThanTheFileHolds() throws {
    for claimed in [UInt64(1) << 40, UInt64.max, 1_000_000] {
      try expectFallBack(
        { bytes in Self.setLength(claimed, in: &bytes) },
        reason: .damaged("the state length does not match the file size"), "claimed \(claimed)")
    }
  }

  /// A count inside the state claims more rows than the file holds, every checksum made to match: the
  /// decoder refuses it before reading on, and never reads more than a window at a time.
  @Test func aCountClaimingMoreRowsThanTheFileHolds() throws {
    let directory = TemporaryDirectory()
    let before = try fill(directory.path)
    try rewrite(path(directory.path, 70)) { bytes in
      // The state: a keyed value of 5 fields (tag, count), the first "rows" (a 1-byte name length, 4 bytes),
      // an array: its tag at 7, then 300 as a 2-byte varint.
      var state = Array(bytes[SnapshotFile.headerSize..<(bytes.count - 4)])
      #expect(state[7] == BinaryValue.Tag.array.rawValue && state[8...9] == [0xAC, 0x02])
      var huge = ByteWriter()
      huge.varint(UInt64(1) << 40)
      state.replaceSubrange(8..<10, with: huge.bytes)
      bytes = Self.rebuilt(bytes, state: state)
    }
    let fileSystem = BoundedMemoryTests.MeasuringFileSystem()
    let journal = try FileJournal<RowList.Action>(
      directory: directory.path, options: Self.options, fileSystem: fileSystem)
    let loaded = journal.loadSnapshot(RowList.State.self)
    try journal.close()
    #expect(loaded.sequence == 40)
    guard case .undecodable(let why)? = loaded.recovery.rejected.first?.reason else {
      Issue.record("expected an undecodable state, got \(loaded.recovery)")
      return
    }
    #expect(why.contains("exceeds the remaining input"), "\(why)")
    #expect(fileSystem.largest.value <= 64 << 10)
    let (store, recovery) = try reopen(directory.path)
    #expect(store.state == before)
    #expect(recovery?.usedSequence == 40)
  }

  @Test func everySnapshotDamagedMeansAWholeReplay() throws {
    let directory = TemporaryDirectory()
    let before = try fill(directory.path)
    try rewrite(path(directory.path, 70)) { $0[SnapshotFile.headerSize + 3] ^= 1 }
    try rewrite(path(directory.path, 40)) { $0.removeLast(7) }
    let (store, recovery) = try reopen(directory.path)
    #expect(store.state == before)
    #expect(recovery?.usedSequence == nil)
    #expect(recovery?.rejected.map(\.file) == [70, 40].map(SnapshotFile.fileName(sequence:)))
  }

  /// Random damage, seeded: flipped bytes, cut or stretched files, overwritten runs, with and without the
  /// checksums made to match again (so the decoder itself meets the damage). Every load either restores a
  /// state (only when checksums were remade) or rejects the snapshot with a reason; none traps, and none
  /// reads more than a window of the file at a time.
  @Test(arguments: [1, 2, 3] as [UInt64])
  func randomDamageNeverTrapsOrReadsWithoutBound(seed: UInt64) throws {
    let directory = TemporaryDirectory()
    _ = try fill(directory.path)
    let newest = path(directory.path, 70)
    let good = [UInt8](try Data(contentsOf: URL(fileURLWithPath: newest)))
    try FileManager.default.removeItem(atPath: path(directory.path, 40))
    var random = SplitMix64(seed: seed)
    for trial in 0..<60 {
      var bytes = good
      let remake = Bool.random(using: &random)
      let stateRange = SnapshotFile.headerSize..<(good.count - 4)
      switch Int.random(in: 0..<4, using: &random) {
      case 0:
        for _ in 0..<Int.random(in: 1...4, using: &random) {
          let offset =
            remake
            ? Int.random(in: stateRange, using: &random) : Int.random(in: 0..<bytes.count, using: &random)
          bytes[offset] ^= UInt8.random(in: 1...255, using: &random)
        }
      case 1:
        bytes.removeSubrange(Int.random(in: 0..<bytes.count, using: &random)...)
      case 2:
        bytes += (0..<Int.random(in: 1...300, using: &random)).map { _ in
          UInt8.random(in: 0...255, using: &random)
        }
      default:
        let start = Int.random(in: stateRange, using: &random)
        let end = Swift.min(start + Int.random(in: 1...64, using: &random), stateRange.upperBound)
        for index in start..<end { bytes[index] = UInt8.random(in: 0...255, using: &random) }
      }
      if remake, bytes.count == good.count { bytes = Self.rebuilt(bytes, state: Array(bytes[stateRange])) }
      try Data(bytes).write(to: URL(fileURLWithPath: newest))
      let fileSystem = BoundedMemoryTests.MeasuringFileSystem()
      let journal = try FileJournal<RowList.Action>(
        directory: directory.path, options: Self.options, fileSystem: fileSystem)
      let loaded = journal.loadSnapshot(RowList.State.self)
      try journal.close()
      let comment = Comment(rawValue: "seed \(seed), trial \(trial), checksums remade: \(remake)")
      if bytes == good {
        #expect(loaded.sequence == 70, comment)
      } else if loaded.state == nil {
        #expect(loaded.recovery.rejected.count == 1, comment)
      } else {
        // Only bytes whose checksums were made to match can decode into some state.
        #expect(remake, comment)
      }
      #expect(fileSystem.largest.value <= 64 << 10, comment)
    }
  }

  /// `bytes` with its header's state length set to `length` and the header's checksum made to match.
  static func setLength(_ length: UInt64, in bytes: inout [UInt8]) {
    let field = SnapshotFile.headerSize - 12
    for index in 0..<8 { bytes[field + index] = UInt8(truncatingIfNeeded: length >> UInt64(index * 8)) }
    let crc = CRC32C.mask(CRC32C.checksum(bytes[0..<(SnapshotFile.headerSize - 4)]))
    for index in 0..<4 {
      bytes[SnapshotFile.headerSize - 4 + index] = UInt8(truncatingIfNeeded: crc >> UInt32(index * 8))
    }
  }

  /// The file `bytes` with `state` as its state, every length and checksum made to match.
  static func rebuilt(_ bytes: [UInt8], state: [UInt8]) -> [UInt8] {
    var header = Array(bytes[0..<SnapshotFile.headerSize])
    setLength(UInt64(state.count), in: &header)
    var writer = ByteWriter()
    writer.append(header)
    writer.append(state)
    writer.u32(CRC32C.mask(CRC32C.checksum(state)))
    return writer.bytes
  }
}
