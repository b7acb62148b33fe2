import Foundation
import Rewind
import RewindTestSupport
import Testing

@testable import RewindLog

/// Keyed (HMAC-SHA-256) chains, the header that records them, and anchors.
@Suite struct KeyedChainTests {
  static let key = ChainKey(unchecked: (0..<32).map { UInt8($0) })
  static let otherKey = ChainKey(unchecked: (0..<32).map { UInt8(255 - $0) })

  func makeLog(count: UInt64, key: ChainKey?, perFrame: UInt64 = 1, segmentSize: Int = 4096) throws
    -> FaultyFileSystem
  {
    let fileSystem = FaultyFileSystem(seed: 0)
    try append(count: count, to: fileSystem, key: key, perFrame: perFrame, segmentSize: segmentSize)
    return fileSystem
  }

  func append(
    count: UInt64, to fileSystem: FaultyFileSystem, key: ChainKey?, perFrame: UInt64 = 1,
    segmentSize: Int = 4096
  ) throws {
    try appendNotes(count, to: fileSystem, perFrame: perFrame, segmentSize: segmentSize, key: key)
  }

  func open(_ fileSystem: FaultyFileSystem, key: ChainKey?, segmentSize: Int = 4096) throws -> FileJournal<
    Note
  > {
    try FileJournal<Note>(
      directory: "/log",
      options: FileJournalOptions(durability: .grouped(), segmentSize: segmentSize, chainKey: key),
      fileSystem: fileSystem)
  }

  func segments(_ fileSystem: FaultyFileSystem) throws -> [String] {
    try fileSystem.contents(of: "/log").filter { $0.hasPrefix("segment-") }.sorted()
  }

  @Test func aKeyedLogRoundTripsAndRecordsThatItIsKeyed() throws {
    let fileSystem = try makeLog(count: 120, key: Self.key)
    let names = try segments(fileSystem)
    #expect(names.count > 1)
    for name in names {
      let file = try fileSystem.open("/log/" + name, create: false)
      let header = try SegmentHeader.parse(file.read(at: 0, count: SegmentHeader.keyedSize)).get()
      #expect(header.isKeyed)
      #expect(header.keyCheck == Self.key.checkValue(logID: header.logID))
    }
    let journal = try open(fileSystem, key: Self.key)
    #expect(journal.lastSequence == 120)
    #expect(try journal.events(in: 1...120) == (1...120).map(event))
    try journal.close()
    let report = try LogAudit.verify(directory: "/log", key: Self.key, fileSystem: fileSystem)
    #expect(report.isIntact && report.isKeyed && report.lastSequence == 120, "\(report)")
    #expect(try report.requireIntact().lastSequence == 120)
  }

  @Test func theChainIsHMACNotSHA256() throws {
    let fileSystem = try makeLog(count: 3, key: Self.key)
    let scanned = try LogScanner(fileSystem: fileSystem, directory: "/log", key: Self.key).scan()
    let name = try #require(try segments(fileSystem).first)
    let file = try fileSystem.open("/log/" + name, create: false)
    let bytes = try file.read(at: 0, count: Int(try file.size()))
    let logID = try #require(scanned.logID)
    guard case .frame(let frame) = Frame.parse(bytes, at: SegmentHeader.keyedSize) else {
      Issue.record("no frame after the keyed header")
      return
    }
    let genesis = SegmentHeader.genesisChain(logID: logID)
    let expected = HMACSHA256.authenticationCode(
      for: genesis.bytes + Array(bytes[frame.hashed]), key: Self.key.bytes)
    #expect(frame.storedChain == expected)
    #expect(frame.storedChain != SHA256.hash(genesis.bytes + Array(bytes[frame.hashed])))
  }

  @Test func openingWithoutTheKeyOrWithAnotherKeyIsATypedError() throws {
    let keyed = try makeLog(count: 5, key: Self.key)
    let first = try #require(try segments(keyed).first)
    #expect(throws: FileJournalError.self) { try open(keyed, key: nil) }
    do {
      _ = try open(keyed, key: nil)
    } catch let error as FileJournalError {
      guard error.code == .keyRequired else { throw error }
      #expect(error.location?.segment == first)
    }
    do {
      _ = try open(keyed, key: Self.otherKey)
      Issue.record("opened with the wrong key")
    } catch let error as FileJournalError {
      guard error.code == .wrongKey else { throw error }
      #expect(error.location?.segment == first)
    }
    let plain = try makeLog(count: 5, key: nil)
    do {
      _ = try open(plain, key: Self.key)
      Issue.record("opened an unkeyed log with a key")
    } catch let error as FileJournalError {
      guard error.code == .notKeyed else { throw error }
    }
    // The same errors from verification and repair, before anything is read or moved.
    #expect(throws: FileJournalError.keyRequired(segment: first)) {
      try LogAudit.verify(directory: "/log", fileSystem: keyed)
    }
    #expect(throws: FileJournalError.wrongKey(segment: first)) {
      try FileJournal<Note>.repair(directory: "/log", key: Self.otherKey, fileSystem: keyed)
    }
    #expect(throws: FileJournalError.self) {
      try LogAudit.anchor(directory: "/log", key: Self.key, fileSystem: plain)
    }
  }

  @Test func unkeyedLogsKeepTheUnkeyedHeader() throws {
    let fileSystem = try makeLog(count: 3, key: nil)
    let name = try #require(try segments(fileSystem).first)
    let file = try fileSystem.open("/log/" + name, create: false)
    let header = try file.read(at: 0, count: SegmentHeader.unkeyedSize)
    #expect(
      header[8] == UInt8(SegmentHeader.unkeyedVersion) && header[12] == UInt8(SegmentHeader.unkeyedSize))
    #expect(try LogAudit.verify(directory: "/log", fileSystem: fileSystem).isIntact)
  }

  /// The attack a key defends against: change an event, then recompute the chain values from there on
  /// (starting from the stored value before it) and every checksum with plain SHA-256, as anyone without
  /// the key can.
  @Test func aChainRecomputedWithoutTheKeyIsRejectedAtTheChangedEvent() throws {
    for target in [1, 4, 9, 17] as [UInt64] {
      let fileSystem = try makeLog(count: 20, key: Self.key, segmentSize: 1 << 20)
      let name = try #require(try segments(fileSystem).first)
      let file = try fileSystem.open("/log/" + name, create: false)
      var bytes = try file.read(at: 0, count: Int(try file.size()))
      let header = try SegmentHeader.parse(bytes).get()
      var chain = SegmentHeader.genesisChain(logID: header.logID)
      var offset = header.size
      while case .frame(let frame) = Frame.parse(bytes, at: offset) {
        guard frame.firstSequence >= target else {
          chain = frame.storedChain
          offset += frame.totalSize
          continue
        }
        if frame.firstSequence == target, let last = frame.records.last { bytes[last.upperBound - 3] ^= 0x01 }
        let hashedRange = frame.hashed
        chain = Frame.chainValue(previous: chain, hashed: bytes[hashedRange])
        bytes.replaceSubrange(hashedRange.upperBound..<(hashedRange.upperBound + 32), with: chain.bytes)
        let crc = CRC32C.mask(CRC32C.checksum(bytes[(offset + 4)..<(offset + frame.totalSize)]))
        withUnsafeBytes(of: crc.littleEndian) { bytes.replaceSubrange(offset..<(offset + 4), with: $0) }
        offset += frame.totalSize
      }
      try file.truncate(to: 0)
      try file.write(bytes, at: 0)
      let report = try LogAudit.verify(directory: "/log", key: Self.key, fileSystem: fileSystem)
      let problem = try #require(report.firstProblem, "target \(target)")
      #expect(
        problem.kind == .modified && problem.sequence == target && problem.segment == name, "\(problem)")
      #expect(report.lastSequence == target - 1)
      #expect(throws: FileJournalError.self) { try open(fileSystem, key: Self.key) }
    }
  }

  @Test func anchorsHaveATextFormAndAreCodable() throws {
    let anchor = LogAnchor(sequence: 42, chain: SHA256.hash(Array("x".utf8)))
    #expect(anchor.description == "42:" + SHA256.hash(Array("x".utf8)).description)
    #expect(LogAnchor(anchor.description) == anchor)
    let json = try JSONEncoder().encode([anchor])
    #expect(String(decoding: json, as: UTF8.self) == "[\"\(anchor.description)\"]")
    #expect(try JSONDecoder().decode([LogAnchor].self, from: json) == [anchor])
    for bad in [
      "", "42", "0:" + String(repeating: "0", count: 64), "x:ab", "42:abc",
      "42:" + String(repeating: "0", count: 62),
    ] {
      #expect(LogAnchor(bad) == nil, "\(bad)")
    }
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode([LogAnchor].self, from: Data("[\"7:zz\"]".utf8))
    }
  }

  @Test(arguments: [nil, key] as [ChainKey?]) func anchorsFromTheJournalAndTheDirectoryAgree(_ key: ChainKey?)
    throws
  {
    let fileSystem = FaultyFileSystem(seed: 0)
    let journal = try open(fileSystem, key: key)
    #expect(try journal.anchor() == nil)
    for sequence in 1...9 as ClosedRange<UInt64> { try journal.append(event(sequence)) }
    let anchor = try #require(try journal.anchor())
    #expect(anchor.sequence == 9 && journal.durableAnchor == anchor)
    #expect(try LogAudit.anchor(directory: "/log", key: key, fileSystem: fileSystem) == anchor)
    try journal.close()
    #expect(try LogAudit.verify(directory: "/log", key: key, anchor: anchor, fileSystem: fileSystem).isIntact)
    try append(count: 5, to: fileSystem, key: key)
    // An older anchor still matches a longer log.
    let longer = try LogAudit.verify(directory: "/log", key: key, anchor: anchor, fileSystem: fileSystem)
    #expect(longer.isIntact && longer.lastSequence == 14 && longer.head?.sequence == 14, "\(longer)")
  }

  @Test func anAnchorOfAnotherHistoryIsAModification() throws {
    let one = try makeLog(count: 6, key: nil)
    let other = try makeLog(count: 6, key: nil)
    let anchor = try #require(try LogAudit.anchor(directory: "/log", fileSystem: other))
    let report = try LogAudit.verify(directory: "/log", anchor: anchor, fileSystem: one)
    let problem = try #require(report.firstProblem)
    #expect(problem.kind == .modified && problem.sequence == 6, "\(problem)")
  }

  @Test func verificationReportsProgressUpToTheTotal() throws {
    let fileSystem = try makeLog(count: 60, key: Self.key, perFrame: 2)
    var updates: [AuditProgress] = []
    let report = try LogAudit.verify(
      directory: "/log", key: Self.key, progress: { updates.append($0) }, fileSystem: fileSystem)
    let last = try #require(updates.last)
    #expect(last.bytesDone == last.bytesTotal && last.fraction == 1 && last.framesDone == report.frameCount)
    #expect(report.bytesVerified == last.bytesTotal)
    #expect(zip(updates, updates.dropFirst()).allSatisfy { $0.bytesDone <= $1.bytesDone })
  }

  @Test func storeOpenTakesTheKeyThroughItsOptions() throws {
    let directory = TemporaryDirectory()
    let options = FileJournalOptions(chainKey: Self.key)
    let store = try Store.open(
      directory: directory.path, initialState: Notes.State(), reducer: Notes(), options: options)
    store.send(.add("milk"))
    store.send(.add("eggs"))
    try (store.journal as? FileJournal<Note>)?.close()
    let reopened = try Store.open(
      directory: directory.path, initialState: Notes.State(), reducer: Notes(), options: options)
    #expect(reopened.state.items == ["milk", "eggs"])
    try (reopened.journal as? FileJournal<Note>)?.close()
    #expect(throws: FileJournalError.keyRequired(segment: SegmentHeader.fileName(firstSequence: 1))) {
      try Store.open(directory: directory.path, initialState: Notes.State(), reducer: Notes())
    }
    #expect(try LogAudit.verify(directory: directory.path, key: Self.key).lastSequence == 2)
  }

  /// The strongest rewrite without the key: turn the keyed log into an unkeyed one (unkeyed headers) and
  /// recompute every chain value and checksum with SHA-256. It is a valid unkeyed log, so only a reader
  /// that expects the key can tell: it gets `notKeyed`, never a clean report.
  @Test func strippingTheKeyingIsRefusedByAReaderThatHasTheKey() throws {
    let fileSystem = try makeLog(count: 60, key: Self.key)
    let names = try segments(fileSystem)
    #expect(names.count > 1)
    var chain: SHA256.Digest?
    for name in names {
      let file = try fileSystem.open("/log/" + name, create: false)
      let bytes = try file.read(at: 0, count: Int(try file.size()))
      let header = try SegmentHeader.parse(bytes).get()
      let start = chain ?? SegmentHeader.genesisChain(logID: header.logID)
      var out = SegmentHeader(logID: header.logID, firstSequence: header.firstSequence, previousChain: start)
        .encoded
      var running = start
      var offset = SegmentHeader.keyedSize
      while case .frame(let frame) = Frame.parse(bytes, at: offset) {
        var rebuilt = Array(bytes[offset..<(offset + frame.totalSize)])
        running = Frame.chainValue(previous: running, hashed: rebuilt[4..<(rebuilt.count - 32)])
        rebuilt.replaceSubrange((rebuilt.count - 32)..., with: running.bytes)
        let crc = CRC32C.mask(CRC32C.checksum(rebuilt[4...]))
        withUnsafeBytes(of: crc.littleEndian) { rebuilt.replaceSubrange(0..<4, with: $0) }
        out += rebuilt
        offset += frame.totalSize
      }
      chain = running
      try file.truncate(to: 0)
      try file.write(out, at: 0)
    }
    #expect(try LogAudit.verify(directory: "/log", fileSystem: fileSystem).isIntact, "a valid unkeyed log")
    #expect(throws: FileJournalError.notKeyed(segment: names[0])) {
      try LogAudit.verify(directory: "/log", key: Self.key, fileSystem: fileSystem)
    }
    #expect(throws: FileJournalError.notKeyed(segment: names[0])) { try open(fileSystem, key: Self.key) }
  }
}
