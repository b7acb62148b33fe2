import CRewind

/// A reference to a ``TreeNode`` that Swift does not count: the one type through which tree code reads a
/// node without retaining it, or retains and releases one by hand. Every such operation is a method of
/// this type, and the rules that make them sound are written here, once. `checkBorrowing()` and
/// `checkStructure(keyed:uniqueKeys:)` check what can be checked of them after every mutation in builds
/// with `-DREWIND_CHECK_INVARIANTS` (`PersistentTree+Invariants.swift`).
///
/// It is unsafe: nothing stops a reference from outliving its node, and a node read through a dangling one
/// is a use after free. Why the tree takes that risk: retaining each node on a descent, level by level,
/// cost a third of a lookup; retaining every entry of a copied node (32 rows' strings, or 32 children),
/// most of them cache misses, was most of what a one-row edit of a big list cost.
///
/// Every member is inlined even where the tree is not specialized for its values (a node's `deinit` never
/// is), so that the wrapper costs no generic call or type-metadata lookup: an optional of it made with
/// `map` there cost 1,400 instructions per send at 100,000 rows with undo (callgrind). ``withNode(_:)``
/// lends the node with `_withUnsafeGuaranteedRef`, not `takeUnretainedValue()`, whose reference the
/// compiler retains and releases around each use: with that, an edit by id of a kept list of 100,000 rows
/// cost 2,150 instructions instead of 1,744.
///
/// ## Reading without retaining
///
/// Descents (`PersistentTree.descend(choosing:leaf:)`, the lookups by key), the iterator, and the
/// addresses of values read in place (`LeafSpot`, `PersistentTree.pointer(to:)`).
///
/// 1. A node below a root is kept alive by its parent, and the root by the tree value that holds it. A
///    reference reached from a tree is therefore valid while that tree value is held (the iterator holds
///    its root for that reason) and not changed; an address inside a node, until the tree is next changed.
/// 2. A node is changed in place only when `isKnownUniquelyReferenced` says no other version holds it; a
///    descent that changes what it reaches first makes each node on its path referenced by its parent
///    alone (`makeChildWritable(_:)`, `makeChildUnique(_:)`), so a node another version reaches through
///    its own references is never changed under it.
///
/// ## Borrowing copies
///
/// A copy of a node made to change one entry (`TreeNode.make(borrowing:)`) copies the entries' bytes
/// and holds one counted reference to the node it copied, its *lender*, which keeps the borrowed entries
/// alive; bit `i` of the head's `borrowed` says entry `i` is such a bitwise copy, held without a
/// reference of its own (`TreeNode+Borrowing.swift`).
///
/// 3. A borrower holds exactly one reference to its lender: taken by ``lend(_:)`` or
///    ``retainAsLender()`` when the borrower is made, given back by ``releaseAsLender()`` when it goes, or
///    taken over by ``takeLender()`` when it comes to own every entry (`ownAll()`).
/// 4. A lender never borrows: a copy of a borrowing node borrows from that node's lender, and retains the
///    entries the node owns, so there is never a chain of lenders to keep alive.
/// 5. A lender never changes: each borrower holds a reference to it, so it is never uniquely referenced,
///    except by its last borrower, which then takes it over (`ownAll()`: the lender releases only the
///    entries the borrower replaced, and hands the rest over).
/// 6. A borrowing node has its lender's width, so bit `i` of `borrowed` means entry `i` of both; it
///    changes one entry in place at a time, owned first (`ownEntry(_:)`, `makeChildWritable(_:)`), and
///    owns every entry before anything changes its shape (`makeChildUnique(_:)` and
///    `PersistentTree.makeRootUnique()` call `ownAll()`).
/// 7. A node that comes to own more than a quarter of its entries owns them all, so that what a lender
///    keeps alive for nothing (the entries its borrowers replaced) stays under a quarter of it, and so
///    that a copy of a borrower (which retains the entries it owns) retains few: with undo on, each send
///    makes such a copy of the root, and with the bound at half a send retained and released about 19
///    children where it now does 14 (callgrind, `scale/undo-on`, 1,000 rows: 5,803 against 5,173
///    instructions).
/// 8. Only values whose bytes may stand for them at another address are borrowed:
///    ``valuesAreBitwiseTakable``. Strings, arrays, class references, numbers, and structs and enums of
///    them are; a value holding a `weak` reference (the runtime tracks those by address, on Linux too) or
///    a C++ type that points into itself is not, and its leaves are copied whole. `BitwiseCopyable` is
///    not the test: it is the stronger property of values copied without retaining anything, which a
///    row with a `String` does not have, and a row with a string is exactly what borrowing is for.
@unsafe
@usableFromInline
struct UnmanagedNode<Value> {
  @usableFromInline let reference: Unmanaged<TreeNode<Value>>

  /// A reference to `node`, not retained (rule 1).
  @inlinable @inline(__always)
  init(_ node: TreeNode<Value>) { unsafe reference = .passUnretained(node) }

  /// The reference stored at `slot` (a child slot of an inner node), read without retaining it: what a
  /// descent steps to next.
  @inlinable @inline(__always)
  init(loadingFrom slot: UnsafePointer<TreeNode<Value>>) {
    unsafe reference = .fromOpaque(UnsafeRawPointer(slot).load(as: UnsafeRawPointer.self))
  }

  /// The reference kept in a node's head as a raw pointer (its lender).
  @inlinable @inline(__always)
  init(opaque: UnsafeMutableRawPointer) { unsafe reference = .fromOpaque(opaque) }

  /// The node's address, as a node's head keeps its lender.
  @inlinable @inline(__always)
  var opaque: UnsafeMutableRawPointer { unsafe reference.toOpaque() }

  /// Runs `body` with the node, neither retained nor released: the node must be alive (rule 1).
  @inlinable @inline(__always)
  func withNode<Result>(_ body: (TreeNode<Value>) throws -> Result) rethrows -> Result {
    try unsafe reference._withUnsafeGuaranteedRef(body)
  }

  /// The node, retained for the caller: for checks and tests, which may pay for the reference.
  @inlinable @inline(__always)
  var node: TreeNode<Value> { unsafe reference.takeUnretainedValue() }

  /// Asks the processor for the node's first `byteCount` bytes, a cache line at a time, without waiting
  /// for them: see `TreeNode.descendingChild(_:prefetching:)`. The node must be alive (rule 1).
  @inlinable @inline(__always)
  func prefetch(byteCount: Int) {
    let start = unsafe opaque
    var offset = 0
    while offset < byteCount {
      unsafe rewind_prefetch(start + offset)
      offset &+= 64
    }
  }
}

// MARK: Lenders

extension UnmanagedNode {
  /// Makes `node` the lender of a new borrower: retains it on the borrower's behalf (rule 3).
  @inlinable @inline(__always)
  static func lend(_ node: TreeNode<Value>) -> UnmanagedNode {
    unsafe UnmanagedNode(opaque: Unmanaged.passRetained(node).toOpaque())
  }

  /// Retains this lender for one more borrower: a copy of a borrowing node borrows from its lender
  /// (rules 3 and 4).
  @inlinable @inline(__always)
  func retainAsLender() { _ = unsafe reference.retain() }

  /// Releases the reference a borrower held to this lender: the borrower is going (rule 3).
  @inlinable @inline(__always)
  func releaseAsLender() { unsafe reference.release() }

  /// Releases the reference an inner node held to this child: the node is going, and gives its children
  /// up one release each (`TreeNode.releaseChildren(_:)`), not through the generic array destruction its
  /// unspecialized `deinit` would otherwise take.
  @inlinable @inline(__always)
  func releaseAsChild() { unsafe reference.release() }

  /// The reference a borrower held to this lender, now counted by Swift again: the borrower owns every
  /// entry from now on and lets the lender go (rules 3 and 5).
  @inlinable @inline(__always)
  func takeLender() -> TreeNode<Value> { unsafe reference.takeRetainedValue() }

  /// Whether values of this type may be borrowed: their bytes may stand for them at another address
  /// (rule 8). Folds to a constant where the tree is specialized.
  @inlinable @inline(__always)
  static var valuesAreBitwiseTakable: Bool { _isBitwiseTakable(Value.self) }
}

extension UnmanagedNode: Equatable {
  /// Whether both refer to the same node (an address comparison: it reads neither node).
  @inlinable @inline(__always)
  static func == (lhs: UnmanagedNode, rhs: UnmanagedNode) -> Bool { unsafe lhs.opaque == rhs.opaque }
}

extension TreeNode {
  /// The node this node borrows entries from (rule 3), kept in its head; `nil` for a node that owns
  /// every entry.
  @inlinable @inline(__always)
  var lender: UnmanagedNode<Value>? {
    get {
      guard let opaque = unsafe head.pointee.lender else { return nil }
      return unsafe UnmanagedNode(opaque: opaque)
    }
    set {
      guard let lender = unsafe newValue else { return unsafe head.pointee.lender = nil }
      unsafe head.pointee.lender = lender.opaque
    }
  }

  /// Child `index` (inner nodes), not retained: valid while this node holds it (rule 1).
  @inlinable @inline(__always)
  func unmanagedChild(_ index: Int) -> UnmanagedNode<Value> {
    unsafe UnmanagedNode(loadingFrom: childSlots + index)
  }
}
