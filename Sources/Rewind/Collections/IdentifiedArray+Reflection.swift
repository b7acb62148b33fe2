// How an IdentifiedArray shows itself to people: as its elements, never as the trees that store them.

extension IdentifiedArray: CustomStringConvertible {
  /// The elements, written as an array literal: `[Mail(id: 1, …), Mail(id: 2, …)]`.
  public var description: String { Array(self).description }
}

extension IdentifiedArray: CustomDebugStringConvertible {
  /// The elements, written as an array literal of their debug descriptions.
  public var debugDescription: String { "IdentifiedArray(\(Array(self).debugDescription))" }
}

extension IdentifiedArray: CustomReflectable {
  /// The elements as the children of a collection, each labelled with its id (`[id: 7]`): what `dump`,
  /// `Mirror`, `po` in the debugger and a `TestStore`'s failure diffs show, so a change names the element
  /// and the field that changed.
  /// - Complexity: O(n).
  public var customMirror: Mirror {
    Mirror(
      self, children: map { (label: "[id: \($0.id)]", value: $0 as Any) }, displayStyle: .collection)
  }
}
