import Synchronization

/// The digest a node caches of its subtree: the ``DigestLanes`` of its values' canonical digests, in
/// order, so that a fingerprint after a one-row edit digests only the nodes on the path to that row
/// (`PersistentCollections+Fingerprint.swift` fills the cache; ``checkDigests()`` checks it).
///
/// Kept in the tail after the head, as an atomic pointer to lanes allocated on their own: `nil` until a
/// fingerprint digests the node. The lanes do not depend on `Value` (only on the values' encodings), so
/// the slot has one type for every tree.
///
/// Why atomic: a fingerprint may digest nodes that other versions share, on several threads at once
/// (`StateFingerprint.of` on a subscriber's snapshot while the store records one, parallel replays of
/// one initial state). The lanes are filled once and never changed: each thread computes them and
/// publishes its copy with a compare-and-exchange, the loser frees its own, and readers load with
/// acquiring order. A cache is forgotten only where the node is about to change, when it is referenced by
/// one owner (the choke points of copy-on-write: ``makeChildUnique(_:)``, ``makeChildWritable(_:)``,
/// `PersistentTree.makeRootUnique()`, `makeRootWritable()`), which no other thread can reach; and in
/// `deinit`.
///
/// The cache assumes what all of Rewind does of a state: a value's encoding is a function of the value
/// (value semantics); a value that encodes the mutable contents of a class instance could change its
/// digest without the tree changing.
extension TreeNode {
  @usableFromInline typealias DigestSlot = Atomic<UnsafeMutablePointer<DigestLanes>?>

  /// The slot of the cached lanes, in the tail after the head.
  @inlinable
  var digestSlot: UnsafeMutablePointer<DigestSlot> {
    unsafe (tail + TreeNodeHead.digestOffset).assumingMemoryBound(to: DigestSlot.self)
  }

  /// Sets up an empty slot: what `make(leaf:keyed:leafChildren:)` runs on a new node.
  @inlinable
  func initializeDigestSlot() {
    unsafe (tail + TreeNodeHead.digestOffset).bindMemory(to: DigestSlot.self, capacity: 1).initialize(
      to: DigestSlot(nil))
  }

  /// The cached lanes of this subtree; `nil` when none were computed since it last changed.
  @inlinable
  var cachedDigest: DigestLanes? {
    guard let lanes = unsafe digestSlot.pointee.load(ordering: .acquiring) else { return nil }
    return unsafe lanes.pointee
  }

  /// Caches `lanes`, the digest of this subtree as it is, unless another thread cached them first (the
  /// same lanes: the node has not changed since, being shared).
  @usableFromInline
  func cacheDigest(_ lanes: DigestLanes) {
    let copy = UnsafeMutablePointer<DigestLanes>.allocate(capacity: 1)
    unsafe copy.initialize(to: lanes)
    let (exchanged, _) = unsafe digestSlot.pointee.compareExchange(
      expected: nil, desired: copy, successOrdering: .acquiringAndReleasing, failureOrdering: .acquiring)
    if !exchanged { unsafe copy.deallocate() }
  }

  /// Drops the cached lanes: this node, referenced by one owner (or none: `deinit`), is about to change.
  /// One load on the send path when nothing is cached.
  @inlinable
  func forgetDigest() { unsafe forgetCachedDigest(inTail: tail) }
}

/// Drops the lanes cached in the slot of the node whose tail starts at `tail`. Not generic, so that a
/// node's `deinit`, which runs unspecialized, inlines it instead of calling the generic accessors (that
/// call cost a send 50 instructions, callgrind).
@inlinable @inline(__always)
func forgetCachedDigest(inTail tail: UnsafeMutableRawPointer) {
  let slot = unsafe (tail + TreeNodeHead.digestOffset).assumingMemoryBound(
    to: Atomic<UnsafeMutablePointer<DigestLanes>?>.self)
  guard let lanes = unsafe slot.pointee.load(ordering: .acquiring) else { return }
  unsafe slot.pointee.store(nil, ordering: .relaxed)
  unsafe lanes.deallocate()
}
