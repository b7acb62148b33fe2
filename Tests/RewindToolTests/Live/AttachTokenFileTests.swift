import Foundation
import RewindInspector
import RewindTestSupport
import Testing

@testable import RewindTool

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `rewind attach` reads only a token file that is still a secret (outside testing: a world-readable one
/// was accepted). A refused one exits 77 (`EX_NOPERM`) and says how to fix it.
@Suite struct AttachTokenFileTests {
  @Test func aTokenFileOtherUsersCanReadIsRefusedWithTheFix() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("token.json")
    try TokenFile(port: 4242, token: InspectorToken.random(), processID: 1).write(to: path)
    #expect(chmod(path, 0o644) == 0)
    let result = runTool(["attach", path, "--export", directory.file("session.jsonl")])
    #expect(result.status == 77)
    #expect(result.errors.contains("has mode 0644"), "\(result.errors)")
    #expect(result.errors.contains("run chmod 600 \(path)"), "\(result.errors)")
  }

  @Test func aSymbolicLinkToATokenFileIsRefused() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("token.json")
    try TokenFile(port: 4242, token: InspectorToken.random(), processID: 1).write(to: path)
    let link = directory.file("link.json")
    #expect(symlink(path, link) == 0)
    let result = runTool(["attach", link, "--export", directory.file("session.jsonl")])
    #expect(result.status == 77)
    #expect(result.errors.contains("is a symbolic link, not a regular file"), "\(result.errors)")
  }
}
