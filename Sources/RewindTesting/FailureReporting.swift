import Foundation

#if canImport(Testing)
  import Testing
#endif
#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Where a test made an assertion: what both test frameworks need to place a failure.
struct TestLocation: Sendable {
  var fileID: StaticString
  var filePath: StaticString
  var line: UInt
  var column: UInt

  #if canImport(Testing)
    var sourceLocation: SourceLocation {
      SourceLocation(
        fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
    }
  #endif
}

/// Reports test failures to the framework running the current test.
///
/// - In a Swift Testing test (`Test.current` is set, as it is in the tasks the test starts): an `Issue`.
/// - Otherwise, when XCTest is loaded in the process: `XCTFail`, with the assertion's file and line.
/// - Otherwise (no test is running, say a preview that drives a `TestStore`): one line on standard error.
///
/// XCTest is looked up at run time (`dlsym` of `XCTFail`'s symbol), not linked: RewindTesting adds no
/// XCTest dependency to the target that imports it, so it can be linked where XCTest cannot be loaded.
enum FailureReporter {
  /// Fails the running test with `message` at `location`.
  static func fail(_ message: String, at location: TestLocation) {
    #if canImport(Testing)
      if Test.current != nil {
        Issue.record(Comment(rawValue: message), sourceLocation: location.sourceLocation)
        return
      }
    #endif
    if let xctFail = XCTestBridge.fail {
      xctFail(message, location.filePath, location.line)
      return
    }
    FileHandle.standardError.write(
      Data("[RewindTesting] failure at \(location.fileID):\(location.line): \(message)\n".utf8))
  }

  /// Tells the running test about something it chose not to assert (a non-exhaustive `TestStore` that
  /// shows what it skipped): a known issue in Swift Testing, a line on standard output otherwise.
  static func note(_ message: String, at location: TestLocation) {
    #if canImport(Testing)
      if Test.current != nil {
        withKnownIssue(
          "not asserted: skipped by a non-exhaustive TestStore that shows what it skips",
          isIntermittent: false, sourceLocation: location.sourceLocation
        ) {
          Issue.record(Comment(rawValue: message), sourceLocation: location.sourceLocation)
        }
        return
      }
    #endif
    print("[RewindTesting] skipped at \(location.fileID):\(location.line): \(message)")
  }
}

/// `XCTFail`, found in the running process if XCTest is loaded.
enum XCTestBridge {
  /// `XCTFail(_:file:line:)` as a plain function.
  typealias Fail = @convention(thin) (String, StaticString, UInt) -> Void

  /// The mangled name of `XCTest.XCTFail(_: String, file: StaticString, line: UInt)`, the same in Apple's
  /// XCTest and swift-corelibs-xctest.
  static let failSymbol = "$s6XCTest7XCTFail_4file4lineySS_s12StaticStringVSutF"

  /// `XCTFail`, or `nil` when XCTest is not loaded. Looked up on each use: XCTest may be loaded after
  /// this library.
  static var fail: Fail? {
    guard let handle = dlopen(nil, RTLD_LAZY) else { return nil }
    defer { dlclose(handle) }
    guard let symbol = dlsym(handle, failSymbol) else { return nil }
    return unsafeBitCast(symbol, to: Fail.self)
  }
}
