import CRewind

/// The digest a node caches of its subtree: the ``DigestLanes`` of its values' canonical digests, in
/// order, so that a fingerprint after a one-row edit digests only the nodes on the path to that row
/// (`PersistentCollections+Fingerprint.swift` fills the cache; ``checkDigests()`` checks it).
///
/// Kept in the tail after the head, as one word: the address of lanes allocated on their own, and in its
/// lowest bit (free: the lanes are 8-aligned) whether they are still valid. `0` until a fingerprint
/// digests the node. The lanes do not depend on `Value` (only on the values' encodings), so the slot has
/// one type for every tree. The word is read and written only by atomic operations (`CRewind`'s
/// `rewind_digest_slot_…`).
///
/// A node about to change, which copy-on-write has made referenced by one owner, clears the bit
/// (``invalidateDigest()``): a load, an AND and a store, no branch and no call. Where:
/// - a change in place: the descents that hand out a value's address (`PersistentTree.uniqueSlot`,
///   `uniqueSpot`) clear it in each inner node they pass, before ``makeChildWritable(_:)``, and
///   ``ownEntry(_:)`` in the leaf whose value is about to be changed or moved out;
/// - a change of shape: ``makeChildUnique(_:)`` in the child, `PersistentTree.makeRootUnique()` in the
///   root (an insertion or removal makes every node it changes unique through them).
/// The stale lanes stay allocated; the next fingerprint of the node replaces and frees them, or `deinit`
/// does. (Freeing them on the send path cost a send about 4%, and any growth of `makeChildWritable` had
/// it called out of line: about 2%; see Docs/Performance.md, "What the cache costs a send".)
///
/// Why atomic: a fingerprint may digest nodes that other versions share, on several threads at once
/// (`StateFingerprint.of` on a subscriber's snapshot while the store records one, parallel replays of
/// one initial state). Valid lanes are never changed nor freed while the node is shared: only the owner
/// of a unique node clears the bit, and only `deinit` frees valid lanes. A fingerprint reads lanes only
/// through a word with the bit set (loaded with acquiring order); it publishes new lanes by a
/// compare-and-exchange from the word it loaded, and the winner frees the stale lanes it replaced, which
/// no thread reads (their bit is clear). A loser frees its own copy.
///
/// The cache assumes what all of Rewind does of a state: a value's encoding is a function of the value
/// (value semantics); a value that encodes the mutable contents of a class instance could change its
/// digest without the tree changing.
extension TreeNode {
  /// The slot of the cached lanes, in the tail after the head.
  @inlinable
  var digestSlot: UnsafeMutablePointer<UInt> {
    unsafe (tail + TreeNodeHead.digestOffset).assumingMemoryBound(to: UInt.self)
  }

  /// Sets up an empty slot: what `make(leaf:keyed:leafChildren:)` runs on a new node.
  @inlinable
  func initializeDigestSlot() {
    unsafe (tail + TreeNodeHead.digestOffset).bindMemory(to: UInt.self, capacity: 1).initialize(to: 0)
  }

  /// The cached lanes of this subtree; `nil` when none were computed since it last changed.
  @inlinable
  var cachedDigest: DigestLanes? {
    let word = unsafe rewind_digest_slot_load(digestSlot)
    guard word & CachedDigestWord.valid != 0,
      let lanes = unsafe UnsafePointer<DigestLanes>(bitPattern: word & ~CachedDigestWord.valid)
    else { return nil }
    return unsafe lanes.pointee
  }

  /// Caches `lanes`, the digest of this subtree as it is, unless another thread cached them first (the
  /// same lanes: the node has not changed since, being shared); frees the stale lanes it replaces.
  @usableFromInline
  func cacheDigest(_ lanes: DigestLanes) {
    let slot = unsafe digestSlot
    let stale = unsafe rewind_digest_slot_load(slot)
    guard stale & CachedDigestWord.valid == 0 else { return }
    let copy = UnsafeMutablePointer<DigestLanes>.allocate(capacity: 1)
    unsafe copy.initialize(to: lanes)
    if unsafe rewind_digest_slot_replace(slot, stale, UInt(bitPattern: copy) | CachedDigestWord.valid) == 0 {
      unsafe copy.deallocate()
    } else if let old = unsafe UnsafeMutablePointer<DigestLanes>(bitPattern: stale) {
      unsafe old.deallocate()
    }
  }

  /// Marks the cached lanes stale: this node, referenced by one owner, is about to change.
  @inlinable @inline(__always)
  func invalidateDigest() { unsafe rewind_digest_slot_invalidate(digestSlot) }
}

/// The bits of a node's digest slot.
@usableFromInline
enum CachedDigestWord {
  /// Set while the lanes the rest of the word points to are the subtree's.
  @inlinable static var valid: UInt { 1 }
}

/// Frees the lanes, valid or stale, held in the slot of the node whose tail starts at `tail`: its
/// `deinit`. Not generic, so that the node's `deinit`, which runs unspecialized, inlines it instead of
/// calling the generic accessors (that call cost a send 50 instructions, callgrind).
@inlinable @inline(__always)
func freeCachedDigest(inTail tail: UnsafeMutableRawPointer) {
  let word = unsafe rewind_digest_slot_load(
    (tail + TreeNodeHead.digestOffset).assumingMemoryBound(to: UInt.self))
  guard let lanes = unsafe UnsafeMutablePointer<DigestLanes>(bitPattern: word & ~CachedDigestWord.valid)
  else { return }
  unsafe lanes.deallocate()
}
