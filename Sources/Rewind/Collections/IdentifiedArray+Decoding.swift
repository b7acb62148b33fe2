extension IdentifiedArray {
  /// Builds a collection of a known number of elements handed over one at a time, in order, as a decoder
  /// reads them: the element tree and the id index are built bottom-up (``PersistentTree/Builder``),
  /// with no insertion and no intermediate array of elements.
  ///
  /// The elements get evenly spaced order labels, as ``init(uniqueElements:)`` gives them. The ids are
  /// kept with their hash keys until ``finish()`` builds the index; ids in increasing order (integer ids
  /// written in order, the common case) need no sort.
  @usableFromInline
  package struct Builder {
    @usableFromInline var elements: PersistentTree<Element>.Builder
    /// Each element's id and the key of its index entry, in element order.
    @usableFromInline var ids: [Element.ID] = []
    @usableFromInline var keys: [UInt64] = []
    /// Whether the keys so far do not decrease.
    @usableFromInline var inOrder = true
    @usableFromInline let firstLabel: UInt64
    @usableFromInline let spacing: UInt64

    /// A builder of a collection of `count` elements.
    @inlinable
    package init(count: Int) {
      elements = PersistentTree.Builder(count: count, keyed: true)
      (firstLabel, spacing) = OrderLabels.evenSpacing(count: count)
      // Reserved for at most a leaf's worth up front: a count read from damaged input allocates nothing.
      let reserved = Swift.min(Swift.max(0, count), TreeNode<Element>.leafCapacity)
      ids.reserveCapacity(reserved)
      keys.reserveCapacity(reserved)
    }

    /// Whether every announced element has been appended.
    @inlinable
    package var isComplete: Bool { elements.isComplete }

    /// Appends `element` after those appended so far.
    /// - Precondition: fewer elements than announced were appended.
    @inlinable
    package mutating func append(_ element: consuming Element) {
      let id = element.id
      let key = IDIndex<Element.ID>.hash(id)
      if let last = keys.last, key < last { inOrder = false }
      let label = firstLabel &+ UInt64(truncatingIfNeeded: elements.appended) &* spacing
      ids.append(id)
      keys.append(key)
      elements.append(element, key: label)
    }

    /// The collection, or the first id found twice.
    /// - Precondition: every announced element was appended.
    @inlinable
    package consuming func finish() -> Built {
      let tree = elements.finish()
      var order: [(key: UInt64, position: Int)] = []
      if !inOrder {
        order.reserveCapacity(keys.count)
        for (position, key) in keys.enumerated() { order.append((key, position)) }
        order.sort { $0.key < $1.key }
      }
      var entries = PersistentTree<IDIndexEntry<Element.ID>>.Builder(count: ids.count, keyed: true)
      // A repeated id has a repeated key, so it sits in a run of equal keys (almost always of one).
      var runStart = 0
      for rank in 0..<ids.count {
        let position = inOrder ? rank : order[rank].position
        let key = keys[position]
        if key != keys[inOrder ? runStart : order[runStart].position] { runStart = rank }
        for earlier in runStart..<rank {
          let other = inOrder ? earlier : order[earlier].position
          if ids[other] == ids[position] { return .duplicate(ids[position]) }
        }
        let label = firstLabel &+ UInt64(truncatingIfNeeded: position) &* spacing
        entries.append(IDIndexEntry(id: ids[position], label: label), key: key)
      }
      var collection = IdentifiedArray()
      collection.tree = tree
      collection.index.tree = entries.finish()
      collection.checkInvariantsIfEnabled()
      return .collection(collection)
    }

    /// What ``finish()`` built.
    @usableFromInline
    package enum Built {
      /// The collection.
      case collection(IdentifiedArray)
      /// An id two elements share: there is no collection.
      case duplicate(Element.ID)
    }
  }
}

extension OrderLabels {
  /// The first of `count` evenly spaced labels, and their spacing: the labels ``even(count:)`` gives.
  @inlinable
  static func evenSpacing(count: Int) -> (first: UInt64, spacing: UInt64) {
    guard count > 0 else { return (middle, step) }
    let spacing: UInt64 = count < (1 << 31) ? step : UInt64.max / UInt64(count &+ 1)
    let span = spacing &* UInt64(count &- 1)
    return ((UInt64.max &- span) / 2, spacing)
  }
}
