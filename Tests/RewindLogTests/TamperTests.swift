import Foundation
import Rewind
import RewindTestSupport
import RewindTesting
import Testing

@testable import RewindLog

/// Seeded tampering at many positions: every modified, deleted, swapped, inserted and (against an anchor)
/// truncated frame is detected, and the report names the right kind and the first affected event.
@Suite struct TamperTests {
  /// A segment file cut into its header and frames.
  struct SegmentImage {
    var name: String
    var header: [UInt8]
    var frames: [[UInt8]]
    var firsts: [UInt64]
    var bytes: [UInt8] { header + frames.flatMap { $0 } }
  }

  static let key = ChainKey(unchecked: Array(repeating: 7, count: 32))

  func makeLog(events: UInt64, perFrame: UInt64, key: ChainKey?) throws -> FaultyFileSystem {
    let fileSystem = FaultyFileSystem(seed: 0)
    try appendNotes(events, to: fileSystem, perFrame: perFrame, segmentSize: 1024, key: key)
    return fileSystem
  }

  func images(_ fileSystem: FaultyFileSystem) throws -> [SegmentImage] {
    try fileSystem.contents(of: "/log").filter { $0.hasPrefix("segment-") }.sorted().map { name in
      let file = try fileSystem.open("/log/" + name, create: false)
      let bytes = try file.read(at: 0, count: Int(try file.size()))
      let header = try SegmentHeader.parse(bytes).get()
      var image = SegmentImage(name: name, header: Array(bytes[0..<header.size]), frames: [], firsts: [])
      var offset = header.size
      while case .frame(let frame) = Frame.parse(bytes, at: offset) {
        image.frames.append(Array(bytes[offset..<(offset + frame.totalSize)]))
        image.firsts.append(frame.firstSequence)
        offset += frame.totalSize
      }
      return image
    }
  }

  func store(_ image: SegmentImage, in fileSystem: FaultyFileSystem) throws {
    let file = try fileSystem.open("/log/" + image.name, create: false)
    try file.truncate(to: 0)
    try file.write(image.bytes, at: 0)
  }

  /// Recomputes a frame's checksum after its bytes were changed.
  static func resealed(_ frame: [UInt8]) -> [UInt8] {
    var frame = frame
    let crc = CRC32C.mask(CRC32C.checksum(frame[4...]))
    withUnsafeBytes(of: crc.littleEndian) { frame.replaceSubrange(0..<4, with: $0) }
    return frame
  }

  /// Every frame of the log as (segment index, frame index).
  func positions(_ images: [SegmentImage]) -> [(segment: Int, frame: Int)] {
    images.indices.flatMap { segment in images[segment].frames.indices.map { (segment, $0) } }
  }

  func verify(_ fileSystem: FaultyFileSystem, key: ChainKey?, anchor: LogAnchor? = nil) throws -> AuditReport
  {
    try LogAudit.verify(directory: "/log", key: key, anchor: anchor, fileSystem: fileSystem)
  }

  enum Tamper: String, CaseIterable { case modify, delete, swap, duplicate, forge, truncate }

  /// Applies `tamper` at a random position; returns the kind and sequence number verification must report.
  func apply(
    _ tamper: Tamper, to fileSystem: FaultyFileSystem, random: inout SplitMix64, key: ChainKey?
  ) throws -> (kind: AuditFinding.Kind, sequence: UInt64) {
    var images = try images(fileSystem)
    let all = positions(images)
    switch tamper {
    case .modify:
      // A byte inside an event record's contents, checksum recomputed: only the chain can tell.
      let (segment, index) = all[Int.random(in: 0..<all.count, using: &random)]
      var frame = images[segment].frames[index]
      guard case .frame(let parsed) = Frame.parse(frame, at: 0) else { throw Failure("unparsable frame") }
      let record = parsed.records[Int.random(in: 0..<parsed.records.count, using: &random)]
      frame[Int.random(in: record, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
      images[segment].frames[index] = Self.resealed(frame)
      try store(images[segment], in: fileSystem)
      return (.modified, images[segment].firsts[index])
    case .delete:
      // Any frame but the very last one (removing that is a truncation).
      let (segment, index) = all[Int.random(in: 0..<(all.count - 1), using: &random)]
      let first = images[segment].firsts[index]
      images[segment].frames.remove(at: index)
      try store(images[segment], in: fileSystem)
      return (.deleted, first)
    case .swap:
      let candidates = images.indices.filter { images[$0].frames.count >= 2 }
      let segment = candidates[Int.random(in: 0..<candidates.count, using: &random)]
      let count = images[segment].frames.count
      let one = Int.random(in: 0..<(count - 1), using: &random)
      let other = Int.random(in: (one + 1)..<count, using: &random)
      images[segment].frames.swapAt(one, other)
      try store(images[segment], in: fileSystem)
      return (.reordered, images[segment].firsts[one])
    case .duplicate:
      // A copy of a frame inserted at another place of the same segment, before or after the original.
      let candidates = images.indices.filter { images[$0].frames.count >= 2 }
      let segment = candidates[Int.random(in: 0..<candidates.count, using: &random)]
      let count = images[segment].frames.count
      let source = Int.random(in: 0..<count, using: &random)
      var place = Int.random(in: 0...count, using: &random)
      if place == source || place == source + 1 { place = source == 0 ? 2 : source - 1 }
      let firsts = images[segment].firsts
      let displaced = place < count ? firsts[place] : firsts[count - 1] + 1
      images[segment].frames.insert(images[segment].frames[source], at: place)
      try store(images[segment], in: fileSystem)
      return (.inserted, displaced)
    case .forge:
      // A well-formed frame with the right sequence number and checksum, but made up.
      let (segment, index) = all[Int.random(in: 0..<all.count, using: &random)]
      let first = images[segment].firsts[index]
      var writer = ByteWriter()
      let made = event(first)
      try EventRecord.append(
        codec: .binary, schemaVersion: 1, sequence: first, timestamp: made.timestamp, metadata: made.metadata,
        kind: .action, to: &writer,
        payload: { writer in try StreamEncoding.append(note(first), to: &writer) },
        typeName: { _ in "add" })
      let forged = Frame.build(
        records: writer.bytes, count: 1, firstSequence: first, commitTime: 0,
        previousChain: SHA256.hash([UInt8.random(in: 0...255, using: &random)]), key: key)
      images[segment].frames.insert(forged.bytes, at: index)
      try store(images[segment], in: fileSystem)
      return (.inserted, first)
    case .truncate:
      // Cut at a frame boundary: the newest segment loses its last frames, or whole segments go.
      let keep = Int.random(in: 1..<all.count, using: &random)
      let (segment, index) = all[keep]
      let first = images[segment].firsts[index]
      for later in images[(segment + 1)...] { try fileSystem.remove("/log/" + later.name) }
      if index == 0 {
        try fileSystem.remove("/log/" + images[segment].name)
      } else {
        images[segment].frames.removeSubrange(index...)
        try store(images[segment], in: fileSystem)
      }
      return (.truncated, first)
    }
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  @Test(arguments: Tamper.allCases) func everyTamperingIsDetectedAtTheRightEvent(_ tamper: Tamper) throws {
    let plain = try makeLog(events: 40, perFrame: 1, key: nil)
    let keyed = try makeLog(events: 40, perFrame: 1, key: Self.key)
    #expect(try images(plain).count >= 3, "several segments")
    let plainAnchor = try #require(try verify(plain, key: nil).head)
    let keyedAnchor = try #require(try verify(keyed, key: Self.key).head)
    for seed in 0..<UInt64(50) {
      let key = seed % 2 == 0 ? nil : Self.key
      let pristine = key == nil ? plain : keyed
      let anchor = key == nil ? plainAnchor : keyedAnchor
      let fileSystem = pristine.copy()
      var random = SplitMix64(seed: seed)
      let expected = try apply(tamper, to: fileSystem, random: &random, key: key)
      let report = try verify(fileSystem, key: key, anchor: anchor)
      let problem = report.firstProblem
      #expect(problem?.kind == expected.kind, "seed \(seed), \(tamper): \(report)")
      #expect(problem?.sequence == expected.sequence, "seed \(seed), \(tamper): \(report)")
      #expect(report.lastSequence == expected.sequence - 1, "seed \(seed), \(tamper): \(report)")
      if tamper == .truncate {
        // Without an anchor a clean cut verifies: the limitation anchors exist for.
        #expect(try verify(fileSystem, key: key).isIntact, "seed \(seed)")
      } else {
        #expect(try !verify(fileSystem, key: key).isIntact, "seed \(seed)")
        // Opening refuses it too (checked for a few seeds: opening costs more than verifying).
        if seed % 5 == 0 {
          #expect(throws: FileJournalError.self, "seed \(seed), \(tamper)") {
            try FileJournal<Note>(
              directory: "/log", options: FileJournalOptions(segmentSize: 1024, chainKey: key),
              fileSystem: fileSystem)
          }
        }
      }
    }
  }

  /// With group commit a frame holds several events: the chain covers the frame, so the report names the
  /// frame's first event.
  @Test func aModifiedEventInAGroupIsNamedByItsFrame() throws {
    let pristine = try makeLog(events: 60, perFrame: 4, key: nil)
    for seed in 100..<UInt64(140) {
      let fileSystem = pristine.copy()
      var random = SplitMix64(seed: seed)
      let expected = try apply(.modify, to: fileSystem, random: &random, key: nil)
      let problem = try #require(try verify(fileSystem, key: nil).firstProblem, "seed \(seed)")
      #expect(problem.kind == .modified && problem.sequence == expected.sequence, "seed \(seed): \(problem)")
    }
  }

  @Test func aByteFlippedWithoutResealingIsCorruption() throws {
    let pristine = try makeLog(events: 12, perFrame: 1, key: nil)
    let images = try images(pristine)
    let fileSystem = pristine.copy()
    var image = images[0]
    image.frames[1][20] ^= 0x40
    try store(image, in: fileSystem)
    let problem = try #require(try verify(fileSystem, key: nil).firstProblem)
    #expect(problem.kind == .corrupted && problem.sequence == image.firsts[1], "\(problem)")
    #expect(
      problem.segment == image.name && problem.offset == UInt64(image.header.count + image.frames[0].count))
  }

  @Test func verificationNeverWritesAndNamesATornTailAsNoProblem() throws {
    let pristine = try makeLog(events: 10, perFrame: 1, key: nil)
    var images = try images(pristine)
    let last = images.count - 1
    let fileSystem = pristine.copy()
    let whole = images[last].frames.removeLast()
    var cut = images[last]
    cut.frames.append(Array(whole.prefix(whole.count / 2)))
    try store(cut, in: fileSystem)
    let before = try self.images(fileSystem).map(\.bytes) + [try raw(fileSystem, cut.name)]
    let report = try verify(fileSystem, key: nil)
    #expect(report.isIntact && report.tornTail != nil && report.lastSequence == 9, "\(report)")
    #expect(try self.images(fileSystem).map(\.bytes) + [try raw(fileSystem, cut.name)] == before)
  }

  func raw(_ fileSystem: FaultyFileSystem, _ name: String) throws -> [UInt8] {
    let file = try fileSystem.open("/log/" + name, create: false)
    return try file.read(at: 0, count: Int(try file.size()))
  }

  /// On the real file system, while a journal holds the log open for writing, with read-only files.
  @Test func verifiesALogThatIsOpenForWriting() throws {
    let directory = TemporaryDirectory()
    let journal = try FileJournal<Note>(
      directory: directory.path, options: FileJournalOptions(durability: .grouped(), segmentSize: 2048))
    for sequence in 1...50 as ClosedRange<UInt64> { try journal.append(event(sequence)) }
    let anchor = try #require(try journal.anchor())
    let report = try LogAudit.verify(directory: directory.path, anchor: anchor)
    #expect(report.isIntact && report.lastSequence == 50 && report.head == anchor, "\(report)")
    for sequence in 51...60 as ClosedRange<UInt64> { try journal.append(event(sequence)) }
    try journal.close()
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
      $0.hasPrefix("segment-")
    }
    for name in names {
      try FileManager.default.setAttributes(
        [.posixPermissions: 0o444], ofItemAtPath: directory.path + "/" + name)
    }
    let again = try LogAudit.verify(directory: directory.path, anchor: anchor)
    #expect(again.isIntact && again.lastSequence == 60, "\(again)")
    for name in names {
      try FileManager.default.setAttributes(
        [.posixPermissions: 0o644], ofItemAtPath: directory.path + "/" + name)
    }
    #expect(throws: FileJournalError.self) { try LogAudit.verify(directory: directory.path + "/missing") }
  }

  /// A writer appends (and rolls segments) on another thread while the log is verified again and again:
  /// every report is free of problems; an incomplete frame being written shows as a torn tail only.
  @Test func verifiesWhileAnotherThreadAppends() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path
    let journal = try FileJournal<Note>(
      directory: path, options: FileJournalOptions(durability: .none, segmentSize: 1024))
    let writer = Task.detached {
      for sequence in 1...400 as ClosedRange<UInt64> {
        try journal.append(event(sequence))
        if sequence % 20 == 0 { try journal.waitUntilHandedToOS() }
      }
      try journal.close()
    }
    var verified = 0
    var reports: [AuditReport] = []
    repeat {
      reports.append(try LogAudit.verify(directory: path))
      verified += 1
    } while !(reports.last?.lastSequence == 400) && verified < 10_000
    try await writer.value
    for report in reports { #expect(report.isIntact, "\(report)") }
    #expect(try LogAudit.verify(directory: path).lastSequence == 400)
  }
}
