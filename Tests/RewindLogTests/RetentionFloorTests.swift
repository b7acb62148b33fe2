import Foundation
import Testing

@testable import RewindLog

/// The one rule for how far a log may be cut, on small hand-made segment lists.
@Suite struct RetentionFloorTests {
  /// Five segments of 100 events and 1,000 bytes each (events 1...500), the last one active.
  let segments: [RetentionFloor.Segment] = (UInt64(0)..<5).map { (index: UInt64) -> RetentionFloor.Segment in
    RetentionFloor.Segment(firstSequence: index * 100 + 1, lastSequence: index * 100 + 100, bytes: 1_000)
  }
  let now = Date(timeIntervalSince1970: 1_000_000)

  func count(
    _ policy: RetentionPolicy, snapshot: UInt64? = 500, timestamps: [Date?] = [], lastSequence: UInt64 = 500
  ) -> Int {
    RetentionFloor.removableCount(
      segments: segments, policy: policy, snapshotSequence: snapshot, lastSequence: lastSequence, now: now,
      newestTimestamp: { timestamps.indices.contains($0) ? timestamps[$0] : nil })
  }

  @Test func keepingEverythingOrNoSnapshotCutsNothing() {
    #expect(count(.keepEverything) == 0)
    #expect(count(RetentionPolicy(events: 1), snapshot: nil) == 0)
  }

  @Test func theActiveSegmentIsNeverCut() {
    #expect(count(RetentionPolicy(events: 0)) == 4)
    #expect(count(RetentionPolicy(bytes: 0)) == 4)
  }

  @Test func nothingAtOrAfterTheSnapshotsSegmentIsCut() {
    #expect(count(RetentionPolicy(events: 0), snapshot: 250) == 2)
    #expect(count(RetentionPolicy(events: 0), snapshot: 201) == 2)
    #expect(count(RetentionPolicy(events: 0), snapshot: 200) == 1)
    #expect(count(RetentionPolicy(events: 0), snapshot: 50) == 0)
  }

  @Test func eachBoundKeepsAtLeastWhatItSays() {
    // The last 150 events: segments ending at 300 or before go (500 - 300 >= 150).
    #expect(count(RetentionPolicy(events: 150)) == 3)
    #expect(count(RetentionPolicy(events: 201)) == 2)
    // 2,500 bytes: the segments after a removed one must hold at least that.
    #expect(count(RetentionPolicy(bytes: 2_500)) == 2)
    #expect(count(RetentionPolicy(bytes: 3_000)) == 2)
    #expect(count(RetentionPolicy(bytes: 3_001)) == 1)
    // Several bounds: whichever keeps the most.
    #expect(count(RetentionPolicy(events: 150, bytes: 3_001)) == 1)
  }

  @Test func theAgeBoundUsesEachSegmentsNewestEvent() {
    let old = now.addingTimeInterval(-3_600)
    let recent = now.addingTimeInterval(-10)
    #expect(count(RetentionPolicy(age: .seconds(60)), timestamps: [old, old, recent, recent, recent]) == 2)
    // A timestamp that cannot be read keeps its segment and every later one.
    #expect(count(RetentionPolicy(age: .seconds(60)), timestamps: [old, nil, old, old, old]) == 1)
    #expect(count(RetentionPolicy(age: .seconds(7_200)), timestamps: [old, old, old, old, old]) == 0)
  }
}
