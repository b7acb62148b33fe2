import Rewind
import RewindTesting
import XCTest

/// A TestStore used from an XCTest test reports its failures through XCTest.
private let adding = Reduce<Int, Int> { total, amount in
  total += amount
  return .none
}

final class XCTestReportingTests: XCTestCase {
  private var captured: [(description: String, line: Int)] = []
  private var isCapturing = false

  #if canImport(Darwin)
    override func record(_ issue: XCTIssue) {
      guard isCapturing else { return super.record(issue) }
      captured.append((issue.compactDescription, issue.sourceCodeContext.location?.lineNumber ?? 0))
    }
  #else
    override func recordFailure(
      withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
      guard isCapturing else {
        return super.recordFailure(
          withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
      }
      captured.append((description, lineNumber))
    }
  #endif

  func testAFailedAssertionReachesXCTestAtTheAssertionsLine() {
    let store = TestStore(initialState: 0, reducer: adding)
    isCapturing = true
    let line = #line + 1
    store.send(5) { $0 = 6 }
    isCapturing = false
    XCTAssertEqual(captured.count, 1)
    XCTAssertEqual(captured.first?.line, line)
    XCTAssertTrue(captured.first?.description.contains("differs from the expected state") == true)
  }

  func testAPassingAssertionRecordsNothing() {
    let store = TestStore(initialState: 0, reducer: adding)
    isCapturing = true
    store.send(5) { $0 = 5 }
    isCapturing = false
    XCTAssertTrue(captured.isEmpty)
  }
}
