/// Which source item each target item is paired with, and back; `-1` means unpaired.
@usableFromInline
struct IdentifierMatching {
  /// For each source offset, the paired target offset or -1.
  @usableFromInline var sourceToTarget: [Int32]
  /// For each target offset, the paired source offset or -1.
  @usableFromInline var targetToSource: [Int32]

  @inlinable
  init(sourceCount: Int, targetCount: Int) {
    sourceToTarget = Array(repeating: -1, count: sourceCount)
    targetToSource = Array(repeating: -1, count: targetCount)
  }
}

/// One slot of the open-addressing table: high hash bits and a source offset.
///
/// `ref >= 0`: the next unpaired source offset with this identifier.
/// `ref < 0` (but not `empty`): every occurrence is paired; `~ref` is one of them, kept to compare identifiers.
@usableFromInline
struct IdentifierSlot: Sendable {
  @usableFromInline var tag: UInt32
  @usableFromInline var ref: Int32

  /// An unused slot.
  @inlinable static var empty: IdentifierSlot { IdentifierSlot(tag: 0, ref: .min) }

  @inlinable
  init(tag: UInt32, ref: Int32) {
    self.tag = tag
    self.ref = ref
  }
}

/// Pairs the equal identifiers of two buffers of items, duplicates occurrence by occurrence in order
/// (Heckel-style, linear).
///
/// A compact linear-probing table (8 bytes a slot, power-of-two capacity, at most two-thirds full)
/// replaces a `Dictionary`: each identifier is hashed exactly once, and identifiers are compared
/// with `==` only when 32 further hash bits agree.
/// - Complexity: O(n + m) expected. Pairs nothing when either side has 2^31 - 1 items or more.
@inlinable
func matchIdentifiers<Item: Differentiable>(
  source: UnsafeBufferPointer<Item>, target: UnsafeBufferPointer<Item>
) -> IdentifierMatching {
  let sourceCount = source.count
  let targetCount = target.count
  var matching = IdentifierMatching(sourceCount: sourceCount, targetCount: targetCount)
  // Offsets are stored as Int32. Beyond that nothing is paired: every item is deleted and
  // inserted, which is still a correct changeset, just not a minimal one.
  guard sourceCount > 0, targetCount > 0, sourceCount < Int32.max, targetCount < Int32.max else {
    return matching
  }

  var capacity = 16
  while capacity < sourceCount &+ sourceCount &>> 1 { capacity &<<= 1 }
  let mask = capacity &- 1
  var slots = [IdentifierSlot](repeating: .empty, count: capacity)
  // nextOccurrence[i]: the next source offset with the same identifier as offset i, or -1.
  var nextOccurrence = [Int32](repeating: -1, count: sourceCount)

  do {
    slots.withUnsafeMutableBufferPointer { slots in
      nextOccurrence.withUnsafeMutableBufferPointer { next in
        // Walk backwards so each identifier's chain ends up in ascending order.
        var offset = sourceCount &- 1
        while offset >= 0 {
          let id = source[offset].differenceIdentifier
          let hash = id.hashValue
          let tag = UInt32(truncatingIfNeeded: UInt(bitPattern: hash) &>> 32)
          var bucket = hash & mask
          while true {
            let slot = slots[bucket]
            if slot.ref == .min {
              slots[bucket] = IdentifierSlot(tag: tag, ref: Int32(truncatingIfNeeded: offset))
              break
            }
            if slot.tag == tag && source[Int(slot.ref)].differenceIdentifier == id {
              next[offset] = slot.ref
              slots[bucket].ref = Int32(truncatingIfNeeded: offset)
              break
            }
            bucket = (bucket &+ 1) & mask
          }
          offset &-= 1
        }
      }
    }
  }

  do {
    do {
      slots.withUnsafeMutableBufferPointer { slots in
        nextOccurrence.withUnsafeBufferPointer { next in
          matching.sourceToTarget.withUnsafeMutableBufferPointer { sourceToTarget in
            matching.targetToSource.withUnsafeMutableBufferPointer { targetToSource in
              for offset in 0..<targetCount {
                let id = target[offset].differenceIdentifier
                let hash = id.hashValue
                let tag = UInt32(truncatingIfNeeded: UInt(bitPattern: hash) &>> 32)
                var bucket = hash & mask
                while true {
                  let slot = slots[bucket]
                  if slot.ref == .min { break }
                  if slot.tag == tag {
                    let representative = slot.ref >= 0 ? slot.ref : ~slot.ref
                    if source[Int(representative)].differenceIdentifier == id {
                      if slot.ref >= 0 {
                        let source = Int(slot.ref)
                        sourceToTarget[source] = Int32(truncatingIfNeeded: offset)
                        targetToSource[offset] = slot.ref
                        let following = next[source]
                        slots[bucket].ref = following >= 0 ? following : ~slot.ref
                      }
                      break
                    }
                  }
                  bucket = (bucket &+ 1) & mask
                }
              }
            }
          }
        }
      }
    }
  }
  return matching
}

/// An identifier standing in for its item, so identifiers gathered from sections can be matched.
@usableFromInline
struct IdentifierItem<ID: Hashable>: Differentiable {
  @usableFromInline var differenceIdentifier: ID

  @inlinable
  init(_ identifier: ID) { differenceIdentifier = identifier }

  @inlinable
  func isContentEqual(to source: IdentifierItem) -> Bool { true }
}
