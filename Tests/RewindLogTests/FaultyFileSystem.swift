import Dispatch
import Foundation
import Rewind
import RewindLog
import RewindTesting
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An in-memory file system that remembers which bytes and directory entries are synced, fails the Nth
/// write or sync on request, and simulates power loss: each unsynced write is applied, dropped, garbled or
/// torn, by a seeded generator (the approach of SQLite's crash tests).
final class FaultyFileSystem: LogFileSystem {
  enum Pending: Sendable {
    case write(offset: Int, bytes: [UInt8])
    case truncate(Int)
  }

  struct Inode: Sendable {
    var durable: [UInt8] = []
    var current: [UInt8] = []
    var pending: [Pending] = []
  }

  /// The operations that can be made to fail.
  enum Operation: Sendable, Hashable, CaseIterable {
    case open, write, sync, truncate, rename, syncDirectory, remove
  }

  struct Model: Sendable {
    var inodes: [Int: Inode] = [:]
    var nextInode = 1
    var names: [String: Int] = [:]
    var durableNames: [String: Int] = [:]
    var directories: Set<String> = []
    var locks: Set<String> = []
    /// Operations of the kinds in `failing` performed so far.
    var operations = 0
    /// The kinds of operation that count towards `failAt`: writes and syncs unless told otherwise.
    var failing: Set<Operation> = [.write, .sync, .syncDirectory]
    /// When set, the failing operation waits here (after `reached` signals) before it fails, so a test
    /// can queue waiters while the committer is inside it.
    var pause: (reached: DispatchSemaphore, release: DispatchSemaphore)?
    /// Fail the operation with this index (1-based) and, when sticky, every one after it.
    var failAt: Int?
    var failCode: Int32 = EIO
    var sticky = false
    var generator: TestRandom
  }

  let model: Locked<Model>

  init(seed: UInt64, failAt: Int? = nil, failCode: Int32 = EIO, sticky: Bool = false) {
    model = Locked(
      Model(failAt: failAt, failCode: failCode, sticky: sticky, generator: TestRandom(seed: seed)))
  }

  /// Makes the next operation of `kind` fail with `code` (and every later one when `sticky`); counts only
  /// operations of that kind from now on.
  func failNext(
    _ kind: Operation, code: Int32, sticky: Bool = false, pause: (DispatchSemaphore, DispatchSemaphore)? = nil
  ) {
    model.withLock { model in
      model.failing = [kind]
      model.operations = 0
      model.failAt = 1
      model.failCode = code
      model.sticky = sticky
      model.pause = pause.map { (reached: $0.0, release: $0.1) }
    }
  }

  private init(model: Model) { self.model = Locked(model) }

  /// An independent copy with the same files, synced state and pending changes.
  func copy() -> FaultyFileSystem { FaultyFileSystem(model: model.withLock { $0 }) }

  /// How many writes and syncs were made.
  var operations: Int { model.withLock { $0.operations } }

  /// The state after a power cut now: synced data and entries, plus each unsynced change applied, dropped,
  /// garbled or torn at random.
  func powerLoss(seed: UInt64) -> FaultyFileSystem {
    model.withLock { model in
      var generator = TestRandom(seed: seed)
      var result = Model(generator: TestRandom(seed: seed ^ 0xDEAD))
      result.directories = model.directories
      result.nextInode = model.nextInode
      for (id, inode) in model.inodes {
        var bytes = inode.durable
        for change in inode.pending {
          switch change {
          case .truncate(let size):
            if generator.next() % 2 == 0 { Self.resize(&bytes, to: size) }
          case .write(let offset, let data):
            switch generator.next() % 6 {
            case 0, 1: Self.write(data, at: offset, into: &bytes)
            case 2, 3: break
            case 4:
              Self.write(
                data.map { _ in UInt8(truncatingIfNeeded: generator.next()) }, at: offset, into: &bytes)
            default:
              Self.write(
                Array(data.prefix(Int(generator.next() % UInt64(data.count + 1)))), at: offset, into: &bytes)
            }
          }
        }
        result.inodes[id] = Inode(durable: bytes, current: bytes, pending: [])
      }
      for path in Set(model.names.keys).union(model.durableNames.keys) {
        let current = model.names[path]
        let durable = model.durableNames[path]
        let survivor = current == durable || generator.next() % 2 == 0 ? current : durable
        if let survivor { result.names[path] = survivor }
      }
      result.durableNames = result.names
      return FaultyFileSystem(model: result)
    }
  }

  static func write(_ data: [UInt8], at offset: Int, into bytes: inout [UInt8]) {
    if bytes.count < offset + data.count {
      bytes.append(contentsOf: repeatElement(0, count: offset + data.count - bytes.count))
    }
    bytes.replaceSubrange(offset..<(offset + data.count), with: data)
  }

  static func resize(_ bytes: inout [UInt8], to size: Int) {
    if bytes.count > size {
      bytes.removeLast(bytes.count - size)
    } else {
      bytes.append(contentsOf: repeatElement(0, count: size - bytes.count))
    }
  }

  /// Counts an operation of `kind` and says whether it must fail.
  fileprivate func shouldFail(_ model: inout Model, _ kind: Operation) -> Int32? {
    guard model.failing.contains(kind) else { return nil }
    model.operations += 1
    guard let failAt = model.failAt else { return nil }
    if model.operations == failAt || (model.sticky && model.operations > failAt) { return model.failCode }
    return nil
  }

  /// Fails an operation of `kind` when it must: after the pause, if one is set (outside the model's lock).
  fileprivate func check(_ kind: Operation, _ operation: String, _ path: String) throws(IOError) {
    let (code, pause) = model.withLock {
      model -> (Int32?, (reached: DispatchSemaphore, release: DispatchSemaphore)?) in
      let code = shouldFail(&model, kind)
      defer { if code != nil { model.pause = nil } }
      return (code, code != nil ? model.pause : nil)
    }
    guard let code else { return }
    if let pause {
      pause.reached.signal()
      pause.release.wait()
    }
    throw IOError(operation: operation, path: path, code: code)
  }

  // MARK: LogFileSystem

  func open(_ path: String, create: Bool) throws(IOError) -> any LogFile {
    try check(.open, "open", path)
    let id = try model.withLock { model throws(IOError) -> Int in
      if let id = model.names[path] { return id }
      guard create else { throw IOError(operation: "open", path: path, code: ENOENT) }
      let id = model.nextInode
      model.nextInode += 1
      model.inodes[id] = Inode()
      model.names[path] = id
      return id
    }
    return FaultyFile(fileSystem: self, inode: id, path: path)
  }

  func contents(of directory: String) throws(IOError) -> [String] {
    model.withLock { model in
      let prefix = directory + "/"
      let entries = model.names.keys.filter {
        $0.hasPrefix(prefix) && !$0.dropFirst(prefix.count).contains("/")
      }
      let directories = model.directories.filter {
        $0.hasPrefix(prefix) && !$0.dropFirst(prefix.count).contains("/")
      }
      return (entries + directories).map { String($0.dropFirst(prefix.count)) }
    }
  }

  func exists(_ path: String) -> Bool {
    model.withLock { $0.names[path] != nil || $0.directories.contains(path) }
  }

  func createDirectory(_ directory: String) throws(IOError) {
    _ = model.withLock { $0.directories.insert(directory) }
  }

  func rename(_ source: String, to destination: String) throws(IOError) {
    try check(.rename, "rename", source)
    try model.withLock { model throws(IOError) in
      guard let id = model.names.removeValue(forKey: source) else {
        throw IOError(operation: "rename", path: source, code: ENOENT)
      }
      model.names[destination] = id
    }
  }

  func remove(_ path: String) throws(IOError) {
    try check(.remove, "remove", path)
    _ = model.withLock { $0.names.removeValue(forKey: path) }
  }

  func syncDirectory(_ directory: String) throws(IOError) {
    try check(.syncDirectory, "sync", directory)
    model.withLock { model in
      let prefix = directory + "/"
      let inDirectory = { (path: String) in
        path.hasPrefix(prefix) && !path.dropFirst(prefix.count).contains("/")
      }
      for path in model.durableNames.keys where inDirectory(path) {
        model.durableNames.removeValue(forKey: path)
      }
      for (path, id) in model.names where inDirectory(path) { model.durableNames[path] = id }
    }
  }

  func lock(_ path: String) throws(IOError) -> any LogFileLock {
    try model.withLock { model throws(IOError) in
      guard model.locks.insert(path).inserted else {
        throw IOError(operation: "lock", path: path, code: EWOULDBLOCK)
      }
    }
    return FaultyLock(fileSystem: self, path: path)
  }
}

final class FaultyLock: LogFileLock {
  let fileSystem: FaultyFileSystem
  let path: String
  let released = Atomic<Bool>(false)

  init(fileSystem: FaultyFileSystem, path: String) {
    self.fileSystem = fileSystem
    self.path = path
  }

  func release() {
    guard !released.exchange(true, ordering: .relaxed) else { return }
    _ = fileSystem.model.withLock { $0.locks.remove(path) }
  }
}

final class FaultyFile: LogFile {
  let fileSystem: FaultyFileSystem
  let inode: Int
  let path: String

  init(fileSystem: FaultyFileSystem, inode: Int, path: String) {
    self.fileSystem = fileSystem
    self.inode = inode
    self.path = path
  }

  func size() throws(IOError) -> UInt64 {
    fileSystem.model.withLock { UInt64($0.inodes[inode]?.current.count ?? 0) }
  }

  func read(at offset: UInt64, count: Int) throws(IOError) -> [UInt8] {
    fileSystem.model.withLock { model in
      guard let bytes = model.inodes[inode]?.current, Int(offset) < bytes.count else { return [] }
      return Array(bytes[Int(offset)..<min(bytes.count, Int(offset) + count)])
    }
  }

  func write(_ bytes: [UInt8], at offset: UInt64) throws(IOError) {
    let paused = fileSystem.model.withLock { model in
      model.pause != nil && model.failing.contains(.write) && model.operations + 1 == model.failAt
    }
    if paused, let pause = fileSystem.model.withLock({ $0.pause }) {
      pause.reached.signal()
      pause.release.wait()
    }
    try fileSystem.model.withLock { model throws(IOError) in
      guard var file = model.inodes[inode] else { throw IOError(operation: "write", path: path, code: EBADF) }
      if let code = fileSystem.shouldFail(&model, .write) {
        model.pause = nil
        // A failed write may still have put part of its bytes in the page cache.
        let torn = Array(bytes.prefix(Int(model.generator.next() % UInt64(bytes.count + 1))))
        FaultyFileSystem.write(torn, at: Int(offset), into: &file.current)
        file.pending.append(.write(offset: Int(offset), bytes: torn))
        model.inodes[inode] = file
        throw IOError(operation: "write", path: path, code: code)
      }
      FaultyFileSystem.write(bytes, at: Int(offset), into: &file.current)
      file.pending.append(.write(offset: Int(offset), bytes: bytes))
      model.inodes[inode] = file
    }
  }

  func sync() throws(IOError) {
    try fileSystem.check(.sync, "sync", path)
    try fileSystem.model.withLock { model throws(IOError) in
      guard var file = model.inodes[inode] else { return }
      file.durable = file.current
      file.pending = []
      model.inodes[inode] = file
    }
  }

  func truncate(to size: UInt64) throws(IOError) {
    try fileSystem.check(.truncate, "truncate", path)
    fileSystem.model.withLock { model in
      guard var file = model.inodes[inode] else { return }
      FaultyFileSystem.resize(&file.current, to: Int(size))
      file.pending.append(.truncate(Int(size)))
      model.inodes[inode] = file
    }
  }

  func close() {}
}

/// The seeded generator of these tests (RewindTesting's SplitMix64): every failure can be replayed from its
/// printed seed.
typealias TestRandom = SplitMix64
