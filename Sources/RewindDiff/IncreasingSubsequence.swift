/// Marks a longest strictly increasing subsequence of `values` (patience sorting).
///
/// The diff keeps these items in place and reports every other paired item as a move, so the
/// number of moves is the fewest possible for the pairing.
/// - Complexity: O(n log n); O(n) when the values are already mostly ascending or descending.
@inlinable
func markLongestIncreasingSubsequence(_ values: [Int32]) -> [Bool] {
  var keep = [Bool](repeating: false, count: values.count)
  guard !values.isEmpty else { return keep }
  // tails[k]: offset of the smallest last value of an increasing run of length k + 1.
  var tails: [Int32] = []
  var previous = [Int32](repeating: -1, count: values.count)
  values.withUnsafeBufferPointer { values in
    previous.withUnsafeMutableBufferPointer { previous in
      for offset in 0..<values.count {
        let value = values[offset]
        if let last = tails.last, values[Int(last)] >= value {
          var low = 0
          var high = tails.count &- 1
          while low < high {
            let mid = (low &+ high) &>> 1
            if values[Int(tails[mid])] < value { low = mid &+ 1 } else { high = mid }
          }
          previous[offset] = low > 0 ? tails[low &- 1] : -1
          tails[low] = Int32(truncatingIfNeeded: offset)
        } else {
          previous[offset] = tails.last ?? -1
          tails.append(Int32(truncatingIfNeeded: offset))
        }
      }
    }
  }
  var cursor = tails.last ?? -1
  while cursor >= 0 {
    keep[Int(cursor)] = true
    cursor = previous[Int(cursor)]
  }
  return keep
}
