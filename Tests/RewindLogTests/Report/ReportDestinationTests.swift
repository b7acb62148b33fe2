import Foundation
import Rewind
import RewindTestSupport
import Testing

@testable import RewindLog

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Outside testing: `Store.exportReport(to:)` renamed its report over whatever was at the path, a FIFO
/// included (only `rewind report -o` was protected). A destination that exists and is not a regular file
/// is refused before anything is written, the log included, and no `.partial` is left.
@Suite struct ReportDestinationTests {
  static let options = ReportOptions(app: "com.example.notes")

  /// A store on a log in `directory` with five notes.
  static func makeStore(_ directory: TemporaryDirectory) throws -> Store<Notes.State, Note> {
    let store = try Store.open(
      directory: directory.file("log"), initialState: Notes.State(), reducer: Notes(),
      options: FileJournalOptions(durability: .none, snapshotInterval: nil))
    for index in 1...5 { store.send(.add("note \(index)")) }
    return store
  }

  static func kind(of path: String) -> mode_t {
    var info = stat()
    guard lstat(path, &info) == 0 else { return 0 }
    return info.st_mode & S_IFMT
  }

  /// The temporary file is created anew without following a link: a link planted as `.partial` after the
  /// destination was checked (while the report is assembled) cannot redirect the write to another file.
  @Test func theTemporaryFileIsNeverALinksTarget() throws {
    let directory = TemporaryDirectory()
    let victim = directory.file("victim")
    try Data("keep me".utf8).write(to: URL(fileURLWithPath: victim))
    let planted = directory.file("bug.rwreport.partial")
    #expect(symlink(victim, planted) == 0)
    #expect(throws: IOError.self) { _ = try POSIXFileSystem().createNew(planted) }
    let dangling = directory.file("other.partial")
    #expect(symlink(directory.file("nowhere"), dangling) == 0)
    #expect(throws: IOError.self) { _ = try POSIXFileSystem().createNew(dangling) }
    #expect(!FileManager.default.fileExists(atPath: directory.file("nowhere")))
    #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me")
    // A stale regular `.partial` (an earlier interrupted write) is replaced.
    let destination = directory.file("fine.rwreport")
    try Data("stale".utf8).write(to: URL(fileURLWithPath: destination + ".partial"))
    try ReportDraft.write([1, 2, 3], to: destination)
    #expect(try Data(contentsOf: URL(fileURLWithPath: destination)) == Data([1, 2, 3]))
    #expect(!FileManager.default.fileExists(atPath: destination + ".partial"))
  }

  @Test func aFIFOIsRefusedAndStaysAFIFO() throws {
    let directory = TemporaryDirectory()
    let store = try Self.makeStore(directory)
    defer { try? store.close() }
    let path = directory.file("bug.rwreport")
    #expect(mkfifo(path, 0o600) == 0)
    let before = store.sequence
    #expect(throws: ReportError.notARegularFile(path: path, kind: "a FIFO")) {
      try store.exportReport(to: path, options: Self.options)
    }
    #expect(Self.kind(of: path) == S_IFIFO)
    #expect(!FileManager.default.fileExists(atPath: path + ".partial"))
    #expect(store.sequence == before, "nothing was recorded for a report that was not written")
  }

  @Test func aDirectoryIsRefusedAndLeftAsItWas() throws {
    let directory = TemporaryDirectory()
    let store = try Self.makeStore(directory)
    defer { try? store.close() }
    let path = directory.file("bug.rwreport")
    #expect(mkdir(path, 0o700) == 0)
    #expect(throws: ReportError.notARegularFile(path: path, kind: "a directory")) {
      try store.exportReport(to: path, options: Self.options)
    }
    #expect(Self.kind(of: path) == S_IFDIR)
    #expect(!FileManager.default.fileExists(atPath: path + ".partial"))
  }

  @Test func aSymbolicLinkIsRefusedAndItsTargetUntouched() throws {
    let directory = TemporaryDirectory()
    let store = try Self.makeStore(directory)
    defer { try? store.close() }
    let target = directory.file("elsewhere")
    #expect(FileManager.default.createFile(atPath: target, contents: Data("mine".utf8)))
    let path = directory.file("bug.rwreport")
    #expect(symlink(target, path) == 0)
    #expect(throws: ReportError.notARegularFile(path: path, kind: "a symbolic link")) {
      try store.exportReport(to: path, options: Self.options)
    }
    #expect(Self.kind(of: path) == S_IFLNK)
    #expect(FileManager.default.contents(atPath: target) == Data("mine".utf8))
  }

  @Test func aPartialThatIsAFIFOIsRefused() throws {
    let directory = TemporaryDirectory()
    let store = try Self.makeStore(directory)
    defer { try? store.close() }
    let path = directory.file("bug.rwreport")
    #expect(mkfifo(path + ".partial", 0o600) == 0)
    #expect(throws: ReportError.notARegularFile(path: path + ".partial", kind: "a FIFO")) {
      try store.exportReport(to: path, options: Self.options)
    }
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test func aRegularFileIsReplaced() throws {
    let directory = TemporaryDirectory()
    let store = try Self.makeStore(directory)
    defer { try? store.close() }
    let path = directory.file("bug.rwreport")
    #expect(FileManager.default.createFile(atPath: path, contents: Data("old".utf8)))
    try store.exportReport(to: path, options: Self.options)
    let report = try ReportBundle.read(
      from: path, expecting: ReportExpectation(app: "com.example.notes", action: Note.self))
    #expect(report.range.upperBound == store.sequence)
    #expect(!FileManager.default.fileExists(atPath: path + ".partial"))
  }
}
