/// A segment file found in a log directory: its name and the first sequence number the name gives.
///
/// The name is what the directory says; the header inside may disagree (a renamed file), which the
/// header checks report (`SegmentContinuity`).
struct SegmentEntry: Sendable, Hashable {
  /// The file name, e.g. `segment-00000000000000000001.log`.
  var name: String
  /// The first sequence number in the name.
  var firstSequence: UInt64

  /// The entry for file `name`; `nil` when it is not a segment file.
  init?(fileName name: String) {
    guard let first = SegmentHeader.firstSequence(fromFileName: name) else { return nil }
    self.init(name: name, firstSequence: first)
  }

  init(name: String, firstSequence: UInt64) {
    self.name = name
    self.firstSequence = firstSequence
  }
}
