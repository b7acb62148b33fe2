import Foundation
import Rewind
import RewindTestSupport
import Testing

@testable import RewindLog

/// Torn tails, corruption, tampering and repair, on the in-memory file system so every byte can be
/// reached.
@Suite struct RecoveryTests {
  /// A log of `count` events in frames of `perFrame`, fully synced.
  func makeLog(count: UInt64, perFrame: UInt64 = 3, segmentSize: Int = 4096) throws -> FaultyFileSystem {
    let fileSystem = FaultyFileSystem(seed: 0)
    try appendNotes(count, to: fileSystem, perFrame: perFrame, segmentSize: segmentSize)
    return fileSystem
  }

  func segments(_ fileSystem: FaultyFileSystem) throws -> [String] {
    try fileSystem.contents(of: "/log").filter { $0.hasPrefix("segment-") }.sorted()
  }

  func bytes(_ fileSystem: FaultyFileSystem, _ name: String) throws -> [UInt8] {
    let file = try fileSystem.open("/log/" + name, create: false)
    return try file.read(at: 0, count: Int(try file.size()))
  }

  func replace(_ fileSystem: FaultyFileSystem, _ name: String, with bytes: [UInt8]) throws {
    let file = try fileSystem.open("/log/" + name, create: false)
    try file.truncate(to: 0)
    try file.write(bytes, at: 0)
    try file.sync()
  }

  func open(_ fileSystem: FaultyFileSystem) throws -> FileJournal<Note> {
    try FileJournal<Note>(directory: "/log", options: testOptions, fileSystem: fileSystem)
  }

  @Test func everyTruncationOfTheLastFrameIsATornTail() throws {
    let pristine = try makeLog(count: 12)
    let name = try #require(try segments(pristine).last)
    let full = try bytes(pristine, name)
    let journal = try open(pristine)
    let lastFrame = try #require(journal.committer.read { $0.frames.last })
    try journal.close()
    for cut in Int(lastFrame.offset)..<full.count {
      let fileSystem = pristine.copy()
      try replace(fileSystem, name, with: Array(full[0..<cut]))
      let reopened = try open(fileSystem)
      #expect(reopened.lastSequence == lastFrame.firstSequence - 1, "cut at \(cut)")
      #expect((reopened.recoveryReport.tornTail != nil) == (cut > Int(lastFrame.offset)), "cut at \(cut)")
      #expect(try reopened.events(in: 1...reopened.lastSequence) == (1...reopened.lastSequence).map(event))
      try reopened.append(event(reopened.lastSequence + 1))
      try reopened.close()
      #expect(try open(fileSystem).lastSequence == lastFrame.firstSequence)
    }
  }

  @Test func zeroFilledAndGarbageTailsAreCutOff() throws {
    for garbage in [[UInt8](repeating: 0, count: 5000), [0x12, 0x34, 0x56], (0..<200).map { UInt8($0) }] {
      let fileSystem = try makeLog(count: 9)
      let name = try #require(try segments(fileSystem).last)
      let original = try bytes(fileSystem, name)
      try replace(fileSystem, name, with: original + garbage)
      let journal = try open(fileSystem)
      #expect(journal.lastSequence == 9)
      let torn = try #require(journal.recoveryReport.tornTail)
      #expect(torn.discardedBytes == UInt64(garbage.count))
      try journal.close()
      #expect(try bytes(fileSystem, name) == original)
    }
  }

  /// Flip every byte of a small multi-segment log, one at a time: every flip is detected on open (a torn
  /// tail cut off, or an error naming segment and offset), nothing traps, and no wrong event is returned.
  @Test func everySingleByteFlipIsDetected() throws {
    let pristine = try makeLog(count: 20, perFrame: 4, segmentSize: 700)
    let names = try segments(pristine)
    #expect(names.count >= 2)
    for name in names {
      let original = try bytes(pristine, name)
      for position in original.indices {
        let fileSystem = pristine.copy()
        var damaged = original
        damaged[position] ^= 0x5A
        try replace(fileSystem, name, with: damaged)
        do {
          let journal = try open(fileSystem)
          // Opening succeeded only by cutting a torn tail off the newest segment.
          #expect(name == names.last, "flip at \(name):\(position) went unnoticed")
          #expect(journal.recoveryReport.tornTail != nil, "flip at \(name):\(position) went unnoticed")
          #expect(journal.lastSequence < 20)
          let last = journal.lastSequence
          #expect(
            try journal.events(in: 1...max(last, 1)) == Array((1...max(last, 1)).map(event).prefix(Int(last)))
          )
          try journal.close()
        } catch let error as FileJournalError {
          switch error.code {
          case .corrupted, .tampered:
            #expect(error.location?.segment == name, "flip at \(name):\(position)")
            #expect((error.location?.offset ?? .max) <= UInt64(position), "flip at \(name):\(position)")
            #expect((error.lastGoodSequence ?? .max) < 20)
            #expect(throws: FileJournalError.self, "flip at \(name):\(position)") {
              try LogAudit.verify(directory: "/log", fileSystem: fileSystem).requireIntact()
            }
          default:
            Issue.record("flip at \(name):\(position): unexpected \(error)")
          }
        } catch {
          // verify threw the same kind of error: fine.
          #expect(error is FileJournalError, "flip at \(name):\(position): \(error)")
        }
      }
    }
  }

  @Test func corruptionInTheMiddleNamesSegmentOffsetAndLastGoodEvent() throws {
    let fileSystem = try makeLog(count: 12)
    let name = try #require(try segments(fileSystem).first)
    var damaged = try bytes(fileSystem, name)
    let firstFrame = SegmentHeader.unkeyedSize
    damaged[firstFrame + 40] ^= 1  // inside the first frame; later frames are intact
    try replace(fileSystem, name, with: damaged)
    #expect {
      _ = try open(fileSystem)
    } throws: { error in
      guard let error = error as? FileJournalError, error.code == .corrupted else { return false }
      return error.location == LogLocation(segment: name, offset: UInt64(firstFrame))
        && error.lastGoodSequence == 0
    }
    #expect(throws: FileJournalError.self) {
      try LogAudit.verify(directory: "/log", fileSystem: fileSystem).requireIntact()
    }
  }

  @Test func aValidChecksumWithAWrongChainIsTampering() throws {
    let fileSystem = try makeLog(count: 9)
    let name = try #require(try segments(fileSystem).first)
    var damaged = try bytes(fileSystem, name)
    // Change an event byte in the second frame and recompute its checksum, as a forger without the chain would.
    let journal = try open(fileSystem)
    let frames = journal.committer.read(\.frames)
    try journal.close()
    let frame = frames[1]
    let start = Int(frame.offset)
    let end = start + Int(frame.size)
    damaged[start + 40] ^= 1
    let crc = CRC32C.mask(CRC32C.checksum(damaged[(start + 4)..<end]))
    for index in 0..<4 { damaged[start + index] = UInt8(truncatingIfNeeded: crc >> UInt32(index * 8)) }
    try replace(fileSystem, name, with: damaged)
    #expect {
      _ = try open(fileSystem)
    } throws: { error in
      guard let error = error as? FileJournalError, error.code == .tampered else { return false }
      return error.location == LogLocation(segment: name, offset: frame.offset)
        && error.lastGoodSequence == frames[0].lastSequence
    }
  }

  @Test func aMissingSegmentIsRefused() throws {
    let fileSystem = try makeLog(count: 30, segmentSize: 600)
    let names = try segments(fileSystem)
    #expect(names.count >= 3)
    try fileSystem.remove("/log/" + names[1])
    #expect(throws: FileJournalError.self) { try open(fileSystem) }
  }

  @Test func repairKeepsTheValidPrefixAndSetsTheRestAside() throws {
    let fileSystem = try makeLog(count: 30, segmentSize: 600)
    let names = try segments(fileSystem)
    var damaged = try bytes(fileSystem, names[1])
    damaged[SegmentHeader.unkeyedSize + 30] ^= 0xFF
    try replace(fileSystem, names[1], with: damaged)
    #expect(throws: FileJournalError.self) { try open(fileSystem) }
    let report = try FileJournal<Note>.repair(directory: "/log", fileSystem: fileSystem)
    #expect(report.quarantined.count == names.count - 1)
    let quarantined = try fileSystem.contents(of: "/log/quarantine")
    #expect(quarantined.count == names.count - 1)
    let journal = try open(fileSystem)
    #expect(journal.lastSequence == report.lastSequence)
    #expect(try journal.events(in: 1...journal.lastSequence) == (1...journal.lastSequence).map(event))
    // Nothing was deleted: the damaged bytes are in the quarantine.
    let setAside = try #require(quarantined.first { $0.contains(".from-byte-") })
    let file = try fileSystem.open("/log/quarantine/" + setAside, create: false)
    #expect(try file.size() + UInt64(SegmentHeader.unkeyedSize) >= UInt64(damaged.count) - 0)
  }

  /// Deleting, swapping or duplicating whole frames is caught by the chain (or the sequence numbers), never
  /// taken for a torn tail.
  @Test func deletedSwappedAndInsertedFramesAreDetected() throws {
    let pristine = try makeLog(count: 12)
    let name = try #require(try segments(pristine).first)
    let original = try bytes(pristine, name)
    let journal = try open(pristine)
    let frames = journal.committer.read(\.frames).filter { $0.segment == 0 }
    try journal.close()
    #expect(frames.count >= 3)
    func range(_ index: Int) -> Range<Int> {
      Int(frames[index].offset)..<Int(frames[index].offset + UInt64(frames[index].size))
    }
    let deleted = Array(original[..<range(0).upperBound]) + Array(original[range(1).upperBound...])
    let swapped =
      Array(original[..<range(0).lowerBound]) + Array(original[range(1)]) + Array(original[range(0)])
      + Array(original[range(1).upperBound...])
    let inserted =
      Array(original[..<range(1).upperBound]) + Array(original[range(0)])
      + Array(original[range(1).upperBound...])
    for (label, damaged) in [("deleted", deleted), ("swapped", swapped), ("inserted", inserted)] {
      let fileSystem = pristine.copy()
      try replace(fileSystem, name, with: damaged)
      #expect(throws: FileJournalError.self, "\(label) frame") { try open(fileSystem) }
      #expect(throws: FileJournalError.self, "\(label) frame") {
        try LogAudit.verify(directory: "/log", fileSystem: fileSystem).requireIntact()
      }
    }
  }

  /// Random bytes after a valid segment header, and random whole files: opening throws or cuts a tail,
  /// never traps.
  @Test func randomSegmentContentNeverTraps() throws {
    let pristine = try makeLog(count: 3)
    let name = try #require(try segments(pristine).first)
    let header = Array(try bytes(pristine, name).prefix(SegmentHeader.unkeyedSize))
    for seed in UInt64(0)..<300 {
      var random = TestRandom(seed: seed)
      let noise = (0..<Int(random.next() % 400)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      let fileSystem = pristine.copy()
      try replace(fileSystem, name, with: seed % 3 == 0 ? noise : header + noise)
      if let journal = try? open(fileSystem) {
        #expect(journal.lastSequence == 0, "seed \(seed)")
        try journal.close()
      }
    }
  }
}
