/// Marks a longest strictly increasing subsequence of `values` (patience sorting).
///
/// The diff keeps these items in place and reports every other paired item as a move, so the
/// number of moves is the fewest possible for the pairing.
/// - Complexity: O(n log n); O(n) when the values are already mostly ascending or descending.
@inlinable
func markLongestIncreasingSubsequence(_ values: [Int32]) -> [Bool] {
  let count = values.count
  // Already ascending (the common case): everything stays.
  var ascending = true
  values.withUnsafeBufferPointer { values in
    var offset = 1
    while offset < count {
      if values[offset &- 1] >= values[offset] {
        ascending = false
        break
      }
      offset &+= 1
    }
  }
  if ascending { return [Bool](repeating: true, count: count) }

  var keep = [Bool](repeating: false, count: count)
  // tails[k]: offset of the smallest last value of an increasing run of length k + 1.
  var tails = [Int32](repeating: 0, count: count)
  var previous = [Int32](repeating: -1, count: count)
  var length = 0
  values.withUnsafeBufferPointer { values in
    tails.withUnsafeMutableBufferPointer { tails in
      previous.withUnsafeMutableBufferPointer { previous in
        for offset in 0..<count {
          let value = values[offset]
          var low = 0
          if length > 0 && values[Int(tails[length &- 1])] < value {
            low = length  // extends the longest run: the usual case for a mostly ordered list
          } else {
            var high = length
            while low < high {
              let mid = (low &+ high) &>> 1
              if values[Int(tails[mid])] < value { low = mid &+ 1 } else { high = mid }
            }
          }
          previous[offset] = low > 0 ? tails[low &- 1] : -1
          tails[low] = Int32(truncatingIfNeeded: offset)
          if low == length { length &+= 1 }
        }
      }
    }
  }
  var cursor = length > 0 ? tails[length &- 1] : -1
  while cursor >= 0 {
    keep[Int(cursor)] = true
    cursor = previous[Int(cursor)]
  }
  return keep
}
