import Foundation
import RewindTestSupport
import Testing

@testable import RewindInspector

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A token file is read only while it is still a secret: a regular file of the user's own that no one else
/// may read or write (outside testing: a world-readable one was accepted).
@Suite struct TokenFilePermissionsTests {
  /// A valid token file at `path` written by the inspector's own writer (mode 0600).
  static func writeValid(_ path: String) throws {
    try TokenFile(port: 4242, token: InspectorToken.random(), processID: 1).write(to: path)
  }

  @Test func theWriterMakesItMode0600() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("token.json")
    try Self.writeValid(path)
    var info = stat()
    #expect(stat(path, &info) == 0)
    #expect(info.st_mode & 0o7777 == 0o600)
    #expect(try TokenFile.read(from: path).port == 4242)
  }

  @Test(arguments: [0o644, 0o640, 0o604, 0o660, 0o620, 0o602, 0o601, 0o610])
  func aFileAGroupOrOtherUsersMayUseIsRefused(mode: Int) throws {
    let directory = TemporaryDirectory()
    let path = directory.file("token.json")
    try Self.writeValid(path)
    #expect(chmod(path, mode_t(mode)) == 0)
    #expect(throws: TokenFileError.tooOpen(path, mode: UInt32(mode))) { try TokenFile.read(from: path) }
    let message = "\(TokenFileError.tooOpen(path, mode: UInt32(mode)))"
    #expect(message.contains(path) && message.contains("0" + String(mode, radix: 8)))
    #expect(message.hasSuffix("run chmod 600 \(path)"))
  }

  @Test(arguments: [0o600, 0o400])
  func aFileOnlyItsOwnerMayUseIsRead(mode: Int) throws {
    let directory = TemporaryDirectory()
    let path = directory.file("token.json")
    try Self.writeValid(path)
    #expect(chmod(path, mode_t(mode)) == 0)
    #expect(try TokenFile.read(from: path).port == 4242)
  }

  @Test func aSymbolicLinkIsNotFollowed() throws {
    let directory = TemporaryDirectory()
    let target = directory.file("token.json")
    try Self.writeValid(target)
    let link = directory.file("link.json")
    #expect(symlink(target, link) == 0)
    #expect(throws: TokenFileError.notARegularFile(link, kind: "a symbolic link")) {
      try TokenFile.read(from: link)
    }
  }

  @Test func aDirectoryAndAFIFOAreRefusedWithoutWaiting() throws {
    let directory = TemporaryDirectory()
    let folder = directory.file("folder")
    #expect(mkdir(folder, 0o700) == 0)
    #expect(throws: TokenFileError.notARegularFile(folder, kind: "a directory")) {
      try TokenFile.read(from: folder)
    }
    // A FIFO no one writes to: opening it must not wait for a writer.
    let fifo = directory.file("fifo")
    #expect(mkfifo(fifo, 0o600) == 0)
    #expect(throws: TokenFileError.notARegularFile(fifo, kind: "a FIFO")) { try TokenFile.read(from: fifo) }
  }

  /// Giving a file away takes root: run where the tests run as root (containers, CI), skipped elsewhere.
  @Test(.enabled(if: geteuid() == 0, "only root can give a file to another user"))
  func anotherUsersFileIsRefused() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("token.json")
    try Self.writeValid(path)
    #expect(chown(path, 65_534, 65_534) == 0)
    #expect(throws: TokenFileError.notOwnedByUser(path, owner: 65_534)) { try TokenFile.read(from: path) }
  }

  @Test func aMissingFileCannotBeRead() {
    let path = TemporaryDirectory().file("missing.json")
    #expect(throws: TokenFileError.cannotRead(path)) { try TokenFile.read(from: path) }
  }
}
