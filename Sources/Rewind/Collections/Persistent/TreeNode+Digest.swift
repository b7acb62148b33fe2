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
/// A node about to change, which copy-on-write has made referenced by one owner, marks the lanes stale.
/// Where:
/// - a change in place: the descents that hand out a value's address (`PersistentTree.uniqueSlot`,
///   `uniqueSpot`) clear the valid bit of each inner node they pass, before ``makeChildWritable(_:)``
///   (``invalidateDigest()``: a load, an AND and a store, no branch and no call), and ``ownEntry(_:)``
///   notes in the leaf which value is about to be changed or moved out (``noteEdit(_:)``);
/// - a change of shape: ``makeChildUnique(_:)`` in the child, `PersistentTree.makeRootUnique()` in the
///   root (an insertion or removal makes every node it changes unique through them) mark the lanes
///   *reshaped* (``markReshaped()``).
/// The stale lanes stay allocated; the next fingerprint of the node replaces and frees them, or `deinit`
/// does. (Freeing them on the send path cost a send about 4%, and any growth of `makeChildWritable` had
/// it called out of line: about 2%; see Docs/Performance.md, "What the cache costs a send".)
///
/// A leaf's block (``LeafDigestHeader``) also keeps the digest of each of its values, and a leaf changed
/// only in place keeps, in that block, which values changed since its lanes were valid. Its next
/// fingerprint encodes only those values and updates the lanes in O(1) for each
/// (``DigestLanes/replaceElement(at:of:old:new:)``): after a thousand one-row edits of a large list, a
/// fingerprint encodes about a thousand rows, not every row of the thousand leaves they touched. A leaf
/// whose values moved (reshaped) is digested whole.
///
/// Why atomic: a fingerprint may digest nodes that other versions share, on several threads at once
/// (`StateFingerprint.of` on a subscriber's snapshot while the store records one, parallel replays of
/// one initial state). Valid lanes are never changed nor freed while the node is shared: only the owner
/// of a unique node marks them stale, and only `deinit` frees valid lanes. A fingerprint reads lanes only
/// through a word with the bit set (loaded with acquiring order); it publishes new lanes by a
/// compare-and-exchange from the word it loaded, and a loser frees its own copy. An inner node's winner
/// frees the stale lanes it replaced, which no thread reads. A leaf's stale block is read, by every
/// fingerprint that finds it, for its values' digests: so the winner does not free it but keeps it as the
/// new block's `previous`, and the owner frees it when it next changes the leaf (no one else holds the
/// leaf then), or `deinit` does. A leaf holds at most two blocks.
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
      let lanes = unsafe UnsafePointer<DigestLanes>(bitPattern: word & ~CachedDigestWord.flags)
    else { return nil }
    return unsafe lanes.pointee
  }

  /// Caches `lanes`, the digest of this inner node's subtree as it is, unless another thread cached them
  /// first (the same lanes: the node has not changed since, being shared); frees the stale lanes it
  /// replaces.
  @usableFromInline
  func cacheDigest(_ lanes: DigestLanes) {
    let slot = unsafe digestSlot
    let stale = unsafe rewind_digest_slot_load(slot)
    guard stale & CachedDigestWord.valid == 0 else { return }
    let copy = UnsafeMutablePointer<DigestLanes>.allocate(capacity: 1)
    unsafe copy.initialize(to: lanes)
    if unsafe rewind_digest_slot_replace(slot, stale, UInt(bitPattern: copy) | CachedDigestWord.valid) == 0 {
      unsafe copy.deallocate()
    } else if let old = unsafe UnsafeMutablePointer<DigestLanes>(bitPattern: stale & ~CachedDigestWord.flags)
    {
      unsafe old.deallocate()
    }
  }

  /// Publishes `block`, this leaf's digest made when its slot held `word`, unless another thread
  /// published one first (then `block` is freed). `block.previous` is the stale block it was made from
  /// (kept: other fingerprints may be reading it); any other block `word` held is freed, as no one reads
  /// it.
  @usableFromInline
  func publishLeafDigest(_ block: UnsafeMutablePointer<LeafDigestHeader>, replacing word: UInt) {
    if unsafe rewind_digest_slot_replace(digestSlot, word, UInt(bitPattern: block) | CachedDigestWord.valid)
      == 0
    {
      unsafe block.deallocate()
      return
    }
    let replaced = unsafe UnsafeMutableRawPointer(bitPattern: word & ~CachedDigestWord.flags)
    if let replaced = unsafe replaced, unsafe replaced != block.pointee.previous {
      unsafe replaced.deallocate()
    }
  }

  /// The word of the slot, loaded with acquiring order.
  @inlinable
  var digestWord: UInt { unsafe rewind_digest_slot_load(digestSlot) }

  /// Marks the cached lanes of this inner node stale: it is referenced by one owner and about to change.
  @inlinable @inline(__always)
  func invalidateDigest() { unsafe rewind_digest_slot_invalidate(digestSlot) }

  /// Notes that value `index` of this leaf, referenced by one owner, is about to change in place: with
  /// no digest cached (fingerprints off), a load and a branch.
  @inlinable @inline(__always)
  func noteEdit(_ index: Int) {
    let word = unsafe rewind_digest_slot_load(digestSlot)
    if word != 0 { unsafe noteLeafDigestEdit(slot: digestSlot, word: word, index: index) }
  }

  /// Marks the cached lanes reshaped: this node, referenced by one owner, is about to change shape (its
  /// values or children move), so nothing of its block can be reused.
  @inlinable @inline(__always)
  func markReshaped() {
    let word = unsafe rewind_digest_slot_load(digestSlot)
    if word != 0 { unsafe reshapeDigest(slot: digestSlot, word: word, isLeaf: isLeaf) }
  }
}

/// The digest block of a leaf, followed by the digest of each of its `width` values (``StateFingerprint``,
/// 16 bytes each). Its lanes come first, where ``TreeNode/cachedDigest`` reads an inner node's lanes.
@unsafe
@usableFromInline
struct LeafDigestHeader {
  /// The lanes of the values' digests, in order.
  @usableFromInline var lanes: DigestLanes
  /// The number of values digested.
  @usableFromInline var width: Int
  /// Bit `i` set: value `i` changed in place since the lanes were last valid (set by the leaf's owner).
  @usableFromInline var edited: UInt64
  /// The stale block this one was made from, still readable by a fingerprint that loaded it; freed by
  /// the leaf's owner at its next change, or by `deinit`.
  @usableFromInline var previous: UnsafeMutableRawPointer?

  /// The block a leaf's slot word points to, flags masked off; `nil` when it points to none.
  @inlinable
  static func block(in word: UInt) -> UnsafeMutablePointer<LeafDigestHeader>? {
    unsafe UnsafeMutablePointer<LeafDigestHeader>(bitPattern: word & ~CachedDigestWord.flags)
  }

  /// A block for `width` values' digests; its header is left for the caller to initialize.
  @inlinable
  static func allocate(width: Int) -> UnsafeMutablePointer<LeafDigestHeader> {
    unsafe UnsafeMutableRawPointer.allocate(
      byteCount: MemoryLayout<LeafDigestHeader>.stride &+ width &* MemoryLayout<StateFingerprint>.stride,
      alignment: MemoryLayout<LeafDigestHeader>.alignment
    ).bindMemory(to: LeafDigestHeader.self, capacity: 1)
  }
}

extension UnsafeMutablePointer where Pointee == LeafDigestHeader {
  /// The values' digests, after the header.
  @inlinable
  var rows: UnsafeMutablePointer<StateFingerprint> {
    unsafe UnsafeMutableRawPointer(self + 1).assumingMemoryBound(to: StateFingerprint.self)
  }

  /// Frees the block this one was made from: only the leaf's owner (no one else holds the leaf), or
  /// `deinit`.
  @inlinable
  func freePrevious() {
    guard let previous = unsafe pointee.previous else { return }
    unsafe previous.deallocate()
    unsafe pointee.previous = nil
  }
}

/// A leaf's block, read through a slot's word by a fingerprint (which never frees it).
@unsafe
@usableFromInline
struct UnmanagedLeafBlock {
  @usableFromInline let header: UnsafeMutablePointer<LeafDigestHeader>

  /// The block `word` points to; `nil` when it points to none.
  @inlinable
  init?(word: UInt) {
    guard let header = unsafe LeafDigestHeader.block(in: word) else { return nil }
    unsafe self.header = header
  }

  @inlinable var address: UnsafeMutableRawPointer { unsafe UnsafeMutableRawPointer(header) }
  @inlinable var width: Int { unsafe header.pointee.width }
  @inlinable var edited: UInt64 { unsafe header.pointee.edited }
  @inlinable var lanes: DigestLanes { unsafe header.pointee.lanes }
  @inlinable var rows: UnsafeMutablePointer<StateFingerprint> { unsafe header.rows }
}

/// ``TreeNode/noteEdit(_:)`` with a block in the slot, out of line (not generic, so not specialized per
/// tree): the first edit since the lanes were valid frees the block they were made from and starts the
/// set of edited values; a later one adds to it.
@usableFromInline @inline(never)
func noteLeafDigestEdit(slot: UnsafeMutablePointer<UInt>, word: UInt, index: Int) {
  let bit: UInt64 = 1 << UInt64(index)
  guard let block = unsafe LeafDigestHeader.block(in: word) else { return }
  if word & CachedDigestWord.valid != 0 {
    unsafe block.freePrevious()
    unsafe block.pointee.edited = bit
    unsafe rewind_digest_slot_store(slot, word & ~CachedDigestWord.valid)
  } else {
    unsafe block.pointee.edited |= bit
  }
}

/// ``TreeNode/markReshaped()`` with a block in the slot, out of line: a leaf's owner frees the block its
/// lanes were made from (no one else reads it now).
@usableFromInline @inline(never)
func reshapeDigest(slot: UnsafeMutablePointer<UInt>, word: UInt, isLeaf: Bool) {
  if isLeaf, let block = unsafe LeafDigestHeader.block(in: word) { unsafe block.freePrevious() }
  unsafe rewind_digest_slot_mark_reshaped(slot)
}

/// The bits of a node's digest slot.
@usableFromInline
enum CachedDigestWord {
  /// Set while the lanes the rest of the word points to are the subtree's.
  @inlinable static var valid: UInt { 1 }
  /// Set when the node changed shape since: its values' digests no longer match their positions.
  @inlinable static var reshaped: UInt { 2 }
  /// Both flags: what is masked off the word to find the block.
  @inlinable static var flags: UInt { 3 }
}

/// Frees the lanes, valid or stale, held in the slot of the node whose tail starts at `tail`, and the
/// stale block a leaf's block was made from: its `deinit`. Not generic, so that the node's `deinit`,
/// which runs unspecialized, inlines it instead of calling the generic accessors (that call cost a send
/// 50 instructions, callgrind).
@inlinable @inline(__always)
func freeCachedDigest(inTail tail: UnsafeMutableRawPointer) {
  let word = unsafe rewind_digest_slot_load(
    (tail + TreeNodeHead.digestOffset).assumingMemoryBound(to: UInt.self))
  guard let lanes = unsafe UnsafeMutableRawPointer(bitPattern: word & ~CachedDigestWord.flags) else { return }
  if unsafe tail.assumingMemoryBound(to: TreeNodeHead.self).pointee.isLeaf {
    unsafe lanes.assumingMemoryBound(to: LeafDigestHeader.self).freePrevious()
  }
  unsafe lanes.deallocate()
}
