// IdentifiedArray and PersistentArray are digested by their elements, in order: the same fingerprint as
// an array of the same elements, whatever the shape of the tree that holds them.

extension IdentifiedArray: CanonicalFingerprinting where Element: Encodable {
  func canonicalFingerprint() throws -> StateFingerprint {
    try CanonicalValue.sequence(of: self)
  }
}

extension PersistentArray: CanonicalFingerprinting where Element: Encodable {
  func canonicalFingerprint() throws -> StateFingerprint {
    try CanonicalValue.sequence(of: self)
  }
}

extension CanonicalValue {
  /// The digest of a sequence of `elements`, each digested by its own encoding.
  static func sequence<Elements: Sequence>(of elements: Elements) throws -> StateFingerprint
  where Elements.Element: Encodable {
    var lanes = DigestLanes()
    for element in elements { append(element: try CanonicalEncoder.fingerprint(of: element), to: &lanes) }
    return sequence(lanes)
  }
}
