// IdentifiedArray and PersistentArray are digested by their elements, in order: the same fingerprint as
// an array of the same elements, whatever the shape of the tree that holds them. Each node of the tree
// caches the lanes of its subtree (`TreeNode+Digest.swift`) and a changed node marks them stale, so after
// a one-row edit a fingerprint digests the nodes on the path to that row and the row's leaf, and combines
// the cached lanes of everything else: O(log n) nodes and one leaf of elements.

extension IdentifiedArray: CanonicalFingerprinting where Element: Encodable {
  func canonicalFingerprint() throws -> StateFingerprint {
    var work = DigestWork()
    return CanonicalValue.sequence(try tree.digestLanes(work: &work))
  }
}

extension PersistentArray: CanonicalFingerprinting where Element: Encodable {
  func canonicalFingerprint() throws -> StateFingerprint {
    var work = DigestWork()
    return CanonicalValue.sequence(try tree.digestLanes(work: &work))
  }
}

/// What a digest of a tree did that its caches did not: the nodes whose lanes it computed and the
/// elements it encoded (what the tests count to show that an edit re-digests O(log n) nodes).
struct DigestWork {
  var nodes = 0
  var elements = 0
}

extension PersistentTree where Value: Encodable {
  /// The lanes of the elements' digests in order, from the nodes' caches where they have them; fills the
  /// caches of the nodes it digests.
  /// - Throws: what an element's `encode(to:)` throws (no node above the failing element caches lanes).
  func digestLanes(work: inout DigestWork) throws -> DigestLanes {
    try Self.digestLanes(of: root, work: &work)
  }

  private static func digestLanes(of node: TreeNode<Value>, work: inout DigestWork) throws -> DigestLanes {
    if let cached = node.cachedDigest { return cached }
    work.nodes += 1
    var lanes = DigestLanes()
    if node.isLeaf {
      let slots = unsafe node.slots
      if CanonicalEncoder.isEncodedDirectly(Value.self) {
        for index in 0..<node.width {
          CanonicalValue.append(
            element: try CanonicalEncoder.encodedFingerprint(of: unsafe slots[index]), to: &lanes)
        }
      } else {
        for index in 0..<node.width {
          CanonicalValue.append(
            element: try CanonicalEncoder.fingerprint(of: unsafe slots[index]), to: &lanes)
        }
      }
      work.elements += node.width
    } else {
      for index in 0..<node.width { lanes.append(try digestLanes(of: node.child(at: index), work: &work)) }
    }
    node.cacheDigest(lanes)
    return lanes
  }

  /// The lanes of the elements' digests computed from the elements alone, every cache ignored: what a
  /// cached digest must equal.
  func uncachedDigestLanes() throws -> DigestLanes {
    var lanes = DigestLanes()
    var elements = Iterator(self)
    while let element = elements.next() {
      CanonicalValue.append(element: try CanonicalEncoder.fingerprint(of: element), to: &lanes)
    }
    return lanes
  }
}

/// A collection whose tree's cached digests its invariant check verifies: an `IdentifiedArray` or a
/// `PersistentArray` of `Encodable` elements (found by a cast, as the collections' checks do not require
/// `Encodable`).
protocol CachedDigestChecking {
  func checkCachedDigests()
}

extension IdentifiedArray: CachedDigestChecking where Element: Encodable {
  func checkCachedDigests() { tree.checkDigests() }
}

extension PersistentArray: CachedDigestChecking where Element: Encodable {
  func checkCachedDigests() { tree.checkDigests() }
}
