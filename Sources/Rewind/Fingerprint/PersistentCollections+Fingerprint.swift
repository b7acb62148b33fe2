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
    if let cached = root.cachedDigest { return cached }
    // Decided once per fingerprint: the cast costs about 300 instructions, and a fingerprint after a
    // thousand edits opens about as many leaves.
    return try Self.digestLanes(of: root, path: ElementDigestPath(Value.self), work: &work)
  }

  private static func digestLanes(
    of node: TreeNode<Value>, path: ElementDigestPath<Value>, work: inout DigestWork
  ) throws -> DigestLanes {
    if let cached = node.cachedDigest { return cached }
    if node.isLeaf { return try leafDigestLanes(of: node, path: path, work: &work) }
    work.nodes += 1
    var lanes = DigestLanes()
    for index in 0..<node.width {
      lanes.append(try digestLanes(of: node.child(at: index), path: path, work: &work))
    }
    node.cacheDigest(lanes)
    return lanes
  }

  /// The lanes of a leaf whose cache is not valid, encoding only the values whose digests no block has:
  /// - a block of its own left stale by edits in place supplies the digests of the values not edited
  ///   since, and its lanes, updated in O(1) for each edited value;
  /// - a borrowing copy (an edit of a kept version's leaf, `TreeNode+Borrowing.swift`) without a block
  ///   takes the digests of the values it still borrows from its lender's valid block: they are the
  ///   same values;
  /// - otherwise (a reshaped leaf, a leaf never digested) every value is encoded.
  /// Publishes the new block (see `TreeNode+Digest.swift`).
  private static func leafDigestLanes(
    of node: TreeNode<Value>, path: ElementDigestPath<Value>, work: inout DigestWork
  ) throws -> DigestLanes {
    let word = node.digestWord
    // Published since the caller looked: valid lanes are returned, never replaced (others read them).
    if word & CachedDigestWord.valid != 0, let cached = node.cachedDigest { return cached }
    work.nodes += 1
    let width = node.width
    // A stale block not reshaped is kept as the new block's `previous` (other fingerprints may read it).
    let stale =
      word & CachedDigestWord.reshaped == 0
      ? unsafe UnmanagedLeafBlock(word: word) : nil
    let base = unsafe reusableDigests(of: node, stale: stale, word: word, path: path, work: &work)
    let block = unsafe LeafDigestHeader.allocate(width: width)
    let rows = unsafe block.rows
    let slots = unsafe node.slots
    var lanes = DigestLanes()
    do {
      if let base = unsafe base {
        unsafe rows.initialize(from: base.block.rows, count: width)
        unsafe lanes = base.block.lanes
        var encoded = unsafe ~base.reused & TreeNode<Value>.mask(width)
        while encoded != 0 {
          let index = encoded.trailingZeroBitCount
          encoded &= encoded &- 1
          let digest = try unsafe path.digest(of: slots + index)
          unsafe lanes.replaceElement(at: index, of: width, old: rows[index], new: digest)
          unsafe rows[index] = digest
          work.elements += 1
        }
      } else {
        for index in 0..<width {
          let digest = try unsafe path.digest(of: slots + index)
          unsafe (rows + index).initialize(to: digest)
          CanonicalValue.append(element: digest, to: &lanes)
        }
        work.elements += width
      }
    } catch {
      unsafe UnsafeMutableRawPointer(block).deallocate()
      throw error
    }
    unsafe block.initialize(
      to: LeafDigestHeader(lanes: lanes, width: width, edited: 0, previous: stale?.address))
    unsafe node.publishLeafDigest(block, replacing: word)
    return lanes
  }

  /// The block whose values' digests a leaf's new block starts from, and which of them stay (bit `i`:
  /// value `i`'s): its own stale block's, but for the values edited since; else, for a borrowing copy
  /// that has none, its lender's block's, for the values it still borrows and the lender did not change
  /// since that block was valid; else `nil`.
  ///
  /// A lender without a usable block is digested first. Every later copy of this leaf, and every copy of
  /// those, borrows from the same lender (rule 4 of `UnmanagedNode`), so its block serves all of them;
  /// without it each copy a kept version (a checkpoint, an undo step) forces would encode its whole leaf.
  /// A lender is shared and never changes again, so its digests stay true; digesting a shared node is what
  /// any fingerprint of a kept version does.
  private static func reusableDigests(
    of node: TreeNode<Value>, stale: UnmanagedLeafBlock?, word: UInt, path: ElementDigestPath<Value>,
    work: inout DigestWork
  ) -> (block: UnmanagedLeafBlock, reused: UInt64)? {
    let width = node.width
    if let stale = unsafe stale {
      return unsafe stale.width == width ? (stale, ~stale.edited) : nil
    }
    guard word == 0, let lender = unsafe node.lender?.node, lender.isLeaf else { return nil }
    var lenderWord = lender.digestWord
    if lenderWord & CachedDigestWord.valid == 0
      && (lenderWord == 0 || lenderWord & CachedDigestWord.reshaped != 0)
    {
      // A value the copy replaced may fail to encode: then the copy is encoded whole.
      guard (try? leafDigestLanes(of: lender, path: path, work: &work)) != nil else { return nil }
      lenderWord = lender.digestWord
    }
    // A stale block (the lender changed in place before it was lent) still holds the digests of the values
    // not edited since it was valid; a valid block's edited set is empty.
    guard lenderWord & CachedDigestWord.reshaped == 0,
      let block = unsafe UnmanagedLeafBlock(word: lenderWord),
      unsafe block.width == width
    else { return nil }
    return unsafe (block, node.head.pointee.borrowed & ~block.edited)
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

/// How a leaf digests its elements, decided once per leaf rather than by a cast per element (about 600
/// instructions each): by their listed fields (``FieldFingerprinting``), by their `encode(to:)`, or through
/// ``CanonicalEncoder/fingerprint(of:)``'s casts (scalars, optionals, the types with rules of their own).
enum ElementDigestPath<Value: Encodable> {
  case fields(any FieldFingerprinting.Type)
  case encoded
  case cast

  init(_ type: Value.Type) {
    if let listed = type as? any FieldFingerprinting.Type {
      self = .fields(listed)
    } else {
      self = CanonicalEncoder.isEncodedDirectly(type) ? .encoded : .cast
    }
  }

  /// The digest of the element at `element`.
  @inline(__always)
  func digest(of element: UnsafeMutablePointer<Value>) throws -> StateFingerprint {
    switch self {
    case .fields(let listed): try unsafe Self.fieldsDigest(listed, of: element)
    case .encoded: try CanonicalEncoder.encodedFingerprint(of: unsafe element.pointee)
    case .cast: try CanonicalEncoder.fingerprint(of: unsafe element.pointee)
    }
  }

  /// The digest of an element of type `Listed`, which is `Value`: the pointer is only retyped.
  private static func fieldsDigest<Listed: FieldFingerprinting>(
    _: Listed.Type, of element: UnsafeMutablePointer<Value>
  ) throws -> StateFingerprint {
    try unsafe UnsafeRawPointer(element).assumingMemoryBound(to: Listed.self).pointee.fieldFingerprint()
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
