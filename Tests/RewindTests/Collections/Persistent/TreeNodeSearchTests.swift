import Testing

@testable import Rewind

/// `TreeNode.firstIndex(ofKeyAtLeast:)`, the search every lookup by key runs at each level, against a
/// linear scan: every width a leaf or an inner node can have, every probe between and on the keys.
@Suite struct TreeNodeSearchTests {
  @Test func findsTheFirstKeyAtLeastTheProbeAtEveryWidth() {
    for width in 0...TreeNode<Int>.leafCapacity {
      let keys = (0..<width).map { UInt64($0) * 10 + 5 }
      let leaf = TreeNode<Int>.make(values: Array(0..<width), keys: keys)
      var probes: [UInt64] = [0, 4, 5, 6, .max]
      for key in keys { probes += [key - 1, key, key + 1] }
      for probe in probes {
        let expected = keys.firstIndex { $0 >= probe } ?? width
        #expect(leaf.firstIndex(ofKeyAtLeast: probe) == expected, "leaf of \(width), probe \(probe)")
      }
    }
    for width in 1...TreeNode<Int>.innerCapacity {
      let children = (0..<width).map { TreeNode<Int>.make(values: [$0], keys: [UInt64($0) * 10 + 5]) }
      let inner = TreeNode<Int>.make(children: children, keyed: true)
      for probe in (0...UInt64(width * 10 + 10)) {
        let expected = (0..<width).first { UInt64($0) * 10 + 5 >= probe } ?? width
        #expect(inner.firstIndex(ofKeyAtLeast: probe) == expected, "inner node of \(width), probe \(probe)")
      }
    }
  }
}
