import Foundation
import Rewind
import RewindTestSupport
import Synchronization
import Testing

@testable import RewindLog

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Item 4 of "Failure paths": every length read from a file is checked against what the file holds before
/// anything is read for it, and segments are scanned through bounded buffers whatever their size. The
/// file system here is the real one, wrapped to record the largest single read (what a read allocates).
@Suite struct BoundedMemoryTests {
  /// The real file system, recording the largest read asked of it.
  final class MeasuringFileSystem: LogFileSystem {
    let base = POSIXFileSystem()
    let largest = Largest()

    func open(_ path: String, create: Bool) throws(IOError) -> any LogFile {
      MeasuredFile(try base.open(path, create: create), largest)
    }
    func openForReading(_ path: String) throws(IOError) -> any LogFile {
      MeasuredFile(try base.openForReading(path), largest)
    }
    func contents(of directory: String) throws(IOError) -> [String] { try base.contents(of: directory) }
    func exists(_ path: String) -> Bool { base.exists(path) }
    func createDirectory(_ directory: String) throws(IOError) { try base.createDirectory(directory) }
    func rename(_ source: String, to destination: String) throws(IOError) {
      try base.rename(source, to: destination)
    }
    func remove(_ path: String) throws(IOError) { try base.remove(path) }
    func syncDirectory(_ directory: String) throws(IOError) { try base.syncDirectory(directory) }
    func lock(_ path: String) throws(IOError) -> any LogFileLock { try base.lock(path) }
  }

  final class MeasuredFile: LogFile {
    let file: any LogFile
    let largest: Largest
    init(_ file: any LogFile, _ largest: Largest) {
      self.file = file
      self.largest = largest
    }
    func size() throws(IOError) -> UInt64 { try file.size() }
    func read(at offset: UInt64, count: Int) throws(IOError) -> [UInt8] {
      largest.max(count)
      return try file.read(at: offset, count: count)
    }
    func write(_ bytes: [UInt8], at offset: UInt64) throws(IOError) { try file.write(bytes, at: offset) }
    func sync() throws(IOError) { try file.sync() }
    func truncate(to size: UInt64) throws(IOError) { try file.truncate(to: size) }
    func close() { file.close() }
  }

  /// A log of `count` events in one segment; returns the segment's path.
  func makeLog(_ directory: String, count: UInt64 = 20) throws -> String {
    let journal = try FileJournal<Note>(
      directory: directory, options: FileJournalOptions(durability: .grouped()))
    for sequence in 1...count {
      try journal.append(event(sequence))
      if sequence % 5 == 0 { try journal.flush() }
    }
    try journal.close()
    return directory + "/" + SegmentHeader.fileName(firstSequence: 1)
  }

  /// Stretches the file at `path` with a sparse zero tail of `bytes` (no disk blocks, no memory).
  func stretch(_ path: String, by bytes: UInt64) throws {
    let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? UInt64)
    #expect(systemTruncate(path, off_t(size + bytes)) == 0)
  }

  /// Far more than a window, so reading it whole would show.
  static let zeroTail: UInt64 = 64 << 20

  @Test func aSegmentStretchedWithZerosIsScannedThroughBoundedReads() throws {
    let directory = TemporaryDirectory()
    let segment = try makeLog(directory.path)
    try stretch(segment, by: Self.zeroTail)
    let fileSystem = MeasuringFileSystem()

    let report = try LogAudit.verify(directory: directory.path, fileSystem: fileSystem)
    #expect(report.isIntact && report.lastSequence == 20)
    #expect(report.tornTail?.discardedBytes == Self.zeroTail)
    #expect(fileSystem.largest.value <= SegmentReader.windowSize)

    // What repair would act on: the scan and the record check, reading no more at a time.
    let damage = try LogRepair(fileSystem: fileSystem, directory: directory.path, key: nil).firstDamage()
    #expect(damage?.lastGoodSequence == 20 && damage?.offset ?? 0 > 0)
    let scanned = try LogScanner(fileSystem: fileSystem, directory: directory.path).scan()
    #expect(scanned.tornTail?.reason == "zero-filled tail")
    var exported = 0
    _ = try LogAudit.export(
      directory: directory.path, options: ExportOptions(format: .jsonLines), progress: nil,
      fileSystem: fileSystem
    ) { exported += $0.count }
    #expect(exported > 0)
    #expect(fileSystem.largest.value <= SegmentReader.windowSize)

    // Opening for writing cuts the tail off, reading no more at a time.
    let journal = try FileJournal<Note>(
      directory: directory.path, options: testOptions, fileSystem: fileSystem)
    #expect(journal.recoveryReport.tornTail?.discardedBytes == Self.zeroTail)
    #expect(try journal.events(in: 1...20).count == 20)
    try journal.close()
    #expect(fileSystem.largest.value <= SegmentReader.windowSize)
  }

  @Test func theHolesOfASparseFileAreSkipped() throws {
    let directory = TemporaryDirectory()
    let path = directory.path + "/sparse"
    _ = FileManager.default.createFile(atPath: path, contents: Data([1, 2, 3]))
    try stretch(path, by: Self.zeroTail)
    let file = try POSIXFileSystem().openForReading(path)
    defer { file.close() }
    #expect(file.nextData(from: 0) == 0)
    // Past the data, only a hole: nothing to read (on file systems that report holes).
    if let next = file.nextData(from: 4096) { #expect(next == 4096, "no SEEK_DATA: data may be anywhere") }
    var reader = try SegmentReader(fileSystem: POSIXFileSystem(), directory: directory.path, name: "sparse")
    defer { reader.close() }
    #expect(try reader.isZero(from: 3))
    #expect(try !reader.isZero(from: 0))
    _ = try reader.parse(at: 3)
  }

  @Test func aLengthFieldClaimingGigabytesInATinyFileReadsNothingForIt() throws {
    for claimed in [UInt32.max, UInt32(Frame.maximumBodySize)] {
      let directory = TemporaryDirectory()
      let segment = try makeLog(directory.path)
      // A frame prefix whose length field claims 4 GiB (out of bounds) or 16 MiB (in bounds, past the end).
      var prefix = ByteWriter()
      prefix.u32(0x1234_5678)
      prefix.u32(claimed)
      let handle = try #require(FileHandle(forWritingAtPath: segment))
      try handle.seekToEnd()
      try handle.write(contentsOf: Data(prefix.bytes + [UInt8](repeating: 7, count: 100)))
      try handle.close()
      let fileSystem = MeasuringFileSystem()
      let report = try LogAudit.verify(directory: directory.path, fileSystem: fileSystem)
      #expect(report.tornTail != nil, "claimed \(claimed)")
      let reader = try LogReader(directory: directory.path)
      #expect(reader.summary.lastSequence == 20)
      let size = try #require(try FileManager.default.attributesOfItem(atPath: segment)[.size] as? Int)
      #expect(fileSystem.largest.value <= max(size, SegmentReader.chunkSize), "claimed \(claimed)")
    }
  }

  @Test func aSnapshotClaimingMoreThanItsFileIsRejectedWithoutReadingIt() throws {
    let directory = TemporaryDirectory()
    _ = try makeLog(directory.path)
    // A snapshot file stretched to 256 MiB of zeros, and one whose state length claims 4 GiB.
    let stretched = directory.path + "/" + SnapshotFile.fileName(sequence: 20)
    _ = FileManager.default.createFile(atPath: stretched, contents: Data(SnapshotFile.magic))
    try stretch(stretched, by: Self.zeroTail)
    var lying = ByteWriter()
    lying.append(SnapshotFile.magic)
    lying.u32(SnapshotFile.versionWithoutPosition)
    lying.append([UInt8](repeating: 0, count: 16 + 8 + 32 + 1))
    lying.u32(UInt32.max)
    lying.u32(0)
    _ = FileManager.default.createFile(
      atPath: directory.path + "/" + SnapshotFile.fileName(sequence: 10), contents: Data(lying.bytes))
    let fileSystem = MeasuringFileSystem()
    let journal = try FileJournal<Note>(
      directory: directory.path, options: testOptions, fileSystem: fileSystem)
    let loaded = journal.loadSnapshot(Notes.State.self)
    #expect(loaded.state == nil)
    #expect(loaded.recovery.rejected.count == 2)
    try journal.close()
    #expect(fileSystem.largest.value <= SegmentReader.chunkSize)
  }
}

/// The largest count seen.
final class Largest: Sendable {
  private let largest = Atomic<Int>(0)

  var value: Int { largest.load(ordering: .relaxed) }

  /// Raises the value to `value` if it is larger.
  func max(_ value: Int) {
    var current = largest.load(ordering: .relaxed)
    while value > current {
      let (exchanged, original) = largest.compareExchange(
        expected: current, desired: value, ordering: .relaxed)
      if exchanged { return }
      current = original
    }
  }
}

private func systemTruncate(_ path: String, _ size: off_t) -> Int32 { truncate(path, size) }
