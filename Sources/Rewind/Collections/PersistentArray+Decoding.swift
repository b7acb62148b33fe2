extension PersistentArray {
  /// Builds a collection of a known number of elements handed over one at a time, in order, as a decoder
  /// reads them: the tree is built bottom-up (``PersistentTree/Builder``), with no insertion and no
  /// intermediate array.
  @usableFromInline
  package struct Builder {
    @usableFromInline var tree: PersistentTree<Element>.Builder

    /// A builder of a collection of `count` elements.
    @inlinable
    package init(count: Int) { tree = PersistentTree.Builder(count: count, keyed: false) }

    /// Whether every announced element has been appended.
    @inlinable
    package var isComplete: Bool { tree.isComplete }

    /// Appends `element` after those appended so far.
    /// - Precondition: fewer elements than announced were appended.
    @inlinable
    package mutating func append(_ element: consuming Element) { tree.append(element) }

    /// The collection.
    /// - Precondition: every announced element was appended.
    @inlinable
    package consuming func finish() -> PersistentArray { PersistentArray(tree: tree.finish()) }
  }
}
