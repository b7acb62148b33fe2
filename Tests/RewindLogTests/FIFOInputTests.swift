import Dispatch
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

/// Outside testing: a FIFO where a report or a segment was expected (a corpus directory unpacked from an
/// archive can hold one) made every reader wait forever in `open` for a writer that never came. Readers now
/// open without blocking: the FIFO reads as empty, which each reader refuses or reports as it would an
/// empty file.
@Suite struct FIFOInputTests {
  /// Runs `body` on a thread of its own; true when it returned within `seconds` (else it is left blocked).
  static func returns(within seconds: Int, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    Thread {
      body()
      done.signal()
    }.start()
    return done.wait(timeout: .now() + .seconds(seconds)) == .success
  }

  @Test func aFIFOReadAsAReportIsNotAReport() throws {
    let directory = TemporaryDirectory()
    let fifo = directory.file("bug.rwreport")
    #expect(mkfifo(fifo, 0o600) == 0)
    let outcome = Locked<ReportError?>(nil)
    let returned = Self.returns(within: 30) {
      do throws(ReportError) {
        _ = try ReportBundle.read(from: fifo, expecting: ReportExpectation(app: nil, action: Note.self))
      } catch {
        outcome.withLock { $0 = error }
      }
    }
    #expect(returned, "reading a FIFO as a report blocked")
    #expect(outcome.withLock { $0 } == .notAReport(path: fifo))
  }

  @Test func aFIFOInPlaceOfASegmentDoesNotBlockTheReader() throws {
    let directory = TemporaryDirectory()
    #expect(mkfifo(directory.file("segment-00000000000000000001.log"), 0o600) == 0)
    #expect(mkfifo(directory.file("LOCK"), 0o600) == 0)
    let path = directory.path
    let returned = Self.returns(within: 30) {
      _ = try? LogReader(directory: path)
      _ = LogLockProbe.isHeld(directory: path)
    }
    #expect(returned, "reading a log whose segment and LOCK are FIFOs blocked")
  }
}
