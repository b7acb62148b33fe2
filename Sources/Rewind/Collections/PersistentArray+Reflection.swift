// How a PersistentArray shows itself to people: as its elements, never as the tree that stores them.

extension PersistentArray: CustomStringConvertible {
  /// The elements, written as an array literal.
  public var description: String { Array(self).description }
}

extension PersistentArray: CustomDebugStringConvertible {
  /// The elements, written as an array literal of their debug descriptions.
  public var debugDescription: String { "PersistentArray(\(Array(self).debugDescription))" }
}

extension PersistentArray: CustomReflectable {
  /// The elements as the children of a collection, as an array shows them: what `dump`, `Mirror`, `po` in
  /// the debugger and a `TestStore`'s failure diffs show.
  /// - Complexity: O(n).
  public var customMirror: Mirror { Mirror(self, unlabeledChildren: Array(self), displayStyle: .collection) }
}
