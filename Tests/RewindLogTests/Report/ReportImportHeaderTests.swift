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

/// Outside testing: importing a report read the whole file (up to 1 GiB) before looking at its 12-byte
/// header. The header is read and checked first, so a file that is not a report costs a few bytes.
@Suite struct ReportImportHeaderTests {
  /// The real file system, counting the bytes its files are asked to read.
  final class CountingFileSystem: LogFileSystem {
    let base = POSIXFileSystem()
    let bytesRead = Atomic<Int>(0)

    func open(_ path: String, create: Bool) throws(IOError) -> any LogFile {
      CountingFile(try base.open(path, create: create), counter: self)
    }
    func openForReading(_ path: String) throws(IOError) -> any LogFile {
      CountingFile(try base.openForReading(path), counter: self)
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

  final class CountingFile: LogFile {
    let file: any LogFile
    let counter: CountingFileSystem

    init(_ file: any LogFile, counter: CountingFileSystem) { (self.file, self.counter) = (file, counter) }

    func size() throws(IOError) -> UInt64 { try file.size() }
    func read(at offset: UInt64, count: Int) throws(IOError) -> [UInt8] {
      counter.bytesRead.add(max(count, 0), ordering: .relaxed)
      return try file.read(at: offset, count: count)
    }
    func write(_ bytes: [UInt8], at offset: UInt64) throws(IOError) { try file.write(bytes, at: offset) }
    func sync() throws(IOError) { try file.sync() }
    func truncate(to size: UInt64) throws(IOError) { try file.truncate(to: size) }
    func close() { file.close() }
  }

  static let expectation = ReportExpectation(app: "com.example.notes", action: Note.self)

  /// A sparse file of `size` bytes whose first bytes are `header`.
  static func sparseFile(_ path: String, size: Int, header: [UInt8]) throws {
    #expect(FileManager.default.createFile(atPath: path, contents: Data(header)))
    #expect(truncate(path, off_t(size)) == 0)
  }

  @Test func a100MBFileOfZerosIsRefusedAfterItsHeader() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("zeros.rwreport")
    try Self.sparseFile(path, size: 100 << 20, header: [])
    let fileSystem = CountingFileSystem()
    #expect(throws: ReportError.notAReport(path: path)) {
      try ReportBundle.read(
        from: path, expecting: Self.expectation, maxBytes: ReportBundle.defaultMaxBytes,
        fileSystem: fileSystem)
    }
    #expect(fileSystem.bytesRead.load(ordering: .relaxed) == ReportFile.headerSize)
  }

  @Test func aReportOfAnotherVersionIsRefusedAfterItsHeader() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("future.rwreport")
    try Self.sparseFile(path, size: 100 << 20, header: ReportFile.magic + [9, 0, 0, 0])
    let fileSystem = CountingFileSystem()
    #expect(throws: ReportError.unsupportedVersion(9)) {
      try ReportBundle.read(
        from: path, expecting: Self.expectation, maxBytes: ReportBundle.defaultMaxBytes,
        fileSystem: fileSystem)
    }
    #expect(fileSystem.bytesRead.load(ordering: .relaxed) == ReportFile.headerSize)
  }

  @Test func aFileShorterThanAHeaderIsNotAReport() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("short.rwreport")
    #expect(FileManager.default.createFile(atPath: path, contents: Data("RWNDRP".utf8)))
    #expect(throws: ReportError.notAReport(path: path)) {
      try ReportBundle.read(from: path, expecting: Self.expectation)
    }
  }

  @Test func aReportWithAValidHeaderIsStillReadWhole() throws {
    let directory = TemporaryDirectory()
    let log = directory.file("log")
    let journal = try FileJournal<Note>(directory: log, options: FileJournalOptions(durability: .none))
    for sequence in UInt64(1)...5 { try journal.append(event(sequence)) }
    try journal.close()
    let path = directory.file("bug.rwreport")
    try ReportBundle.write(log: log, options: ReportOptions(app: "com.example.notes"), to: path)
    let fileSystem = CountingFileSystem()
    let report = try ReportBundle.read(
      from: path, expecting: Self.expectation, maxBytes: ReportBundle.defaultMaxBytes, fileSystem: fileSystem)
    #expect(report.range == 1...5)
    let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
    #expect(fileSystem.bytesRead.load(ordering: .relaxed) == size)
  }
}
