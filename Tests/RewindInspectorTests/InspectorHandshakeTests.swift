import Foundation
import Rewind
import RewindTestSupport
import Testing

@testable import RewindInspector

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Attaching: the token file, the hello, and every refusal.
@Suite(.timeLimit(.minutes(1))) struct InspectorHandshakeTests {
  @Test func theTokenFileIsPrivateAndNamesThePortAndA256BitToken() throws {
    let (_, inspector) = try makeInspectedStore()
    defer { inspector.stop() }
    var info = stat()
    #expect(stat(inspector.tokenFilePath, &info) == 0)
    #expect(info.st_mode & 0o777 == 0o600, "only the user can read it")
    let file = try TokenFile.read(from: inspector.tokenFilePath)
    #expect(file.port == inspector.port)
    #expect(file.token.hexadecimal.count == 64)
    #expect(file.token != InspectorToken.random())
    inspector.stop()
    #expect(access(inspector.tokenFilePath, F_OK) != 0, "stop deletes it")
  }

  @Test func anExistingFileIsNeverOverwritten() throws {
    let path = NSTemporaryDirectory() + "rewind-inspector-existing-\(UUID().uuidString).json"
    #expect(FileManager.default.createFile(atPath: path, contents: Data("mine".utf8)))
    defer { unlink(path) }
    let store = Store(initialState: Notes.State(), reducer: Notes())
    #expect(throws: TokenFileError.self) {
      try store.inspect(InspectorOptions(tokenFile: path, announce: { _ in }))
    }
    #expect(FileManager.default.contents(atPath: path) == Data("mine".utf8))
  }

  @Test func aClientWithTheTokenIsWelcomed() throws {
    let (store, inspector) = try makeInspectedStore()
    defer { inspector.stop() }
    let client = try TestClient.connect(to: inspector)
    let welcome = try client.attach(to: inspector)
    #expect(welcome["version"] == .integer(1))
    #expect(welcome["newest"]?.unsignedValue == store.sequence)
    #expect(welcome["dispatch"]?["allowed"] == .array([.string("setTitle"), .string("note")]))
    #expect(welcome["status"]?["mode"] == .string("live"))
    #expect(inspector.isAttached)
  }

  @Test func aWrongTokenIsRefusedAndAMissingOneGetsNothing() throws {
    let (store, inspector) = try makeInspectedStore()
    defer { inspector.stop() }
    let wrong = try TestClient.connect(to: inspector)
    try wrong.socket.writeFrame(Hello(token: InspectorToken.random().hexadecimal).message)
    let bye = wrong.readToEnd()
    #expect(bye?["code"] == .string("token"))

    let missing = try TestClient.connect(to: inspector)
    try missing.socket.writeFrame(.object([("type", .string("hello")), ("versions", .array([.integer(1)]))]))
    #expect(missing.closedSilently(), "the token was never checked: nothing is sent")

    let short = try TestClient.connect(to: inspector)
    try short.socket.writeFrame(Hello(token: "00").message)
    #expect(short.readToEnd()?["code"] == .string("token"))
    #expect(!inspector.isAttached)
    #expect(store.sequence == 3)
  }

  @Test func aSecondClientIsRefusedWhileOneIsAttached() throws {
    let (_, inspector) = try makeInspectedStore()
    defer { inspector.stop() }
    let first = try TestClient.connect(to: inspector)
    _ = try first.attach(to: inspector)
    let second = try TestClient.connect(to: inspector)
    let file = try TokenFile.read(from: inspector.tokenFilePath)
    try second.socket.writeFrame(Hello(token: file.token.hexadecimal).message)
    #expect(second.readToEnd()?["code"] == .string("busy"))
    #expect(try first.perform(.ping)["ok"] == .bool(true), "the first is still served")
  }

  @Test func aClientThatLeavesFreesTheSlot() async throws {
    let (_, inspector) = try makeInspectedStore()
    defer { inspector.stop() }
    let first = try TestClient.connect(to: inspector)
    _ = try first.attach(to: inspector)
    try first.socket.writeFrame(InspectorCommand.bye.message(id: 1))
    #expect(first.readToEnd()?["code"] == .string("bye"))
    #expect(await eventually { !inspector.isAttached })
    let second = try TestClient.connect(to: inspector)
    _ = try second.attach(to: inspector)
  }

  @Test func noCommonVersionIsRefused() throws {
    let (_, inspector) = try makeInspectedStore()
    defer { inspector.stop() }
    let client = try TestClient.connect(to: inspector)
    let file = try TokenFile.read(from: inspector.tokenFilePath)
    try client.socket.writeFrame(Hello(token: file.token.hexadecimal, versions: [7, 9]).message)
    #expect(client.readToEnd()?["code"] == .string("version"))
  }

  @Test func aPeerOffLoopbackIsClosedWithoutAByte() async throws {
    let (_, inspector) = try makeInspectedStore()
    defer { inspector.stop() }
    guard let address = Self.nonLoopbackAddress() else {
      print("note: no non-loopback IPv4 address on this machine; the peer check is covered by its unit test")
      return
    }
    let before = inspector.closings.withLock { $0.total }
    let client = try TestClient.connect(to: inspector, from: address)
    #expect(client.closedSilently())
    #expect(await eventually { inspector.closings.withLock { $0.total } > before })
    #expect(inspector.closings.withLock { $0.recent.last }?.contains("not a loopback peer") == true)
  }

  @Test func thePeerCheckKnowsLoopback() {
    #expect(SocketAddress.isLoopback(ipv4: UInt32(0x7F00_0001).bigEndian))
    #expect(SocketAddress.isLoopback(ipv4: UInt32(0x7F12_3456).bigEndian))
    #expect(!SocketAddress.isLoopback(ipv4: UInt32(0xC000_0202).bigEndian))
    #expect(!SocketAddress.isLoopback(ipv4: UInt32(0x0A00_0001).bigEndian))
    #expect(SocketAddress.isLoopback(ipv6: [UInt8](repeating: 0, count: 15) + [1]))
    #expect(SocketAddress.isLoopback(ipv6: [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF, 127, 0, 0, 1]))
    #expect(!SocketAddress.isLoopback(ipv6: [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF, 192, 0, 2, 2]))
    #expect(!SocketAddress.isLoopback(ipv6: [0xFE, 0x80] + [UInt8](repeating: 0, count: 13) + [1]))
  }

  @Test func tokensCompareOnlyWhenEqual() {
    let token = InspectorToken.random()
    #expect(token.matches(token.hexadecimal))
    #expect(token.matches(token.hexadecimal.uppercased()) == false, "the file's form exactly")
    #expect(!token.matches(""))
    #expect(!token.matches(String(token.hexadecimal.dropLast())))
    #expect(!token.matches(token.hexadecimal + "0"))
    var flipped = Array(token.hexadecimal)
    flipped[63] = flipped[63] == "0" ? "1" : "0"
    #expect(!token.matches(String(flipped)))
    #expect("\(token)".contains(token.hexadecimal) == false, "the description never shows the secret")
  }

  @Test func aSilentPeerIsDroppedAfterTheHelloTimeout() async throws {
    // The option's short timeout keeps the test fast; the default (5 s) is checked in InspectorLockoutTests.
    let (_, inspector) = try makeInspectedStore(handshakeTimeout: .milliseconds(200))
    defer { inspector.stop() }
    let client = try TestClient.connect(to: inspector)
    // Sends half a header, then nothing.
    try client.socket.write([0, 0], timeout: 1_000)
    #expect(client.closedSilently())
  }

  /// A local IPv4 address that is not on loopback, if the machine has one.
  static func nonLoopbackAddress() -> String? {
    var list: UnsafeMutablePointer<ifaddrs>?
    guard getifaddrs(&list) == 0 else { return nil }
    defer { freeifaddrs(list) }
    var cursor = list
    while let entry = cursor {
      defer { cursor = entry.pointee.ifa_next }
      guard let address = entry.pointee.ifa_addr, Int32(address.pointee.sa_family) == AF_INET else {
        continue
      }
      let ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee }
      guard !SocketAddress.isLoopback(ipv4: ipv4.sin_addr.s_addr) else { continue }
      var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
      var raw = ipv4.sin_addr
      inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
      return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    return nil
  }
}
