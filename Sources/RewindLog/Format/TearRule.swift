/// The one rule for telling a torn write from damage, used by recovery (``LogScanner``) and by
/// verification (`LogVerifier`): only the end of the newest segment can be torn, and only when no valid
/// frame follows it; everything else is damage, named with why.
enum TearRule {
  /// What a place in a segment that does not hold a valid frame (or header) is.
  enum Verdict {
    /// An incomplete write at the end of the log: cut off on open, reported by verification.
    case torn(TornTail)
    /// Damage, with the reason to report.
    case damaged(String)
  }

  /// Classifies a segment header that did not parse (`problem`): torn when the writer died while creating
  /// the newest segment (a header cut short, nothing valid after it), damage otherwise.
  static func header(
    _ problem: SegmentHeader.Problem, of segment: inout SegmentReader, name: String, isLast: Bool
  )
    throws(FileJournalError) -> Verdict
  {
    let reason = problem.reason
    var tornCreation = true
    if case .invalid = problem { tornCreation = segment.size <= UInt64(SegmentHeader.keyedSize) }
    guard isLast, tornCreation, try segment.firstFrame(after: 0) == nil else { return .damaged(reason) }
    return .torn(
      TornTail(
        segment: name, offset: 0, discardedBytes: segment.size, reason: reason, wholeSegment: true,
        kind: .incompleteSegment))
  }

  /// Classifies what `parse` found at `offset` instead of a frame (anything but `.frame` and `.malformed`,
  /// whose checksum held): a torn tail at the end of the newest segment with no valid frame after it
  /// (zeros are never followed by a frame worth looking for), damage otherwise.
  static func frame(
    _ parse: Frame.Parse, at offset: UInt64, of segment: inout SegmentReader, name: String, isLast: Bool
  ) throws(FileJournalError) -> Verdict {
    if case .zeros = parse {
    } else if let later = try segment.firstFrame(after: offset) {
      return .damaged("\(parse.reason), followed by a valid frame at byte \(later)")
    }
    guard isLast else { return .damaged("\(parse.reason) in a segment that is not the newest") }
    return .torn(
      TornTail(
        segment: name, offset: offset, discardedBytes: segment.size - offset, reason: parse.reason,
        wholeSegment: false, kind: kind(of: parse)))
  }

  /// The kind of tail a parse that found no frame leaves.
  private static func kind(of parse: Frame.Parse) -> TornTail.Kind {
    switch parse {
    case .zeros: .zeroFilled
    case .badLength: .badLength
    case .badChecksum: .checksumMismatch
    case .incomplete, .frame, .malformed: .incompleteFrame
    }
  }
}
