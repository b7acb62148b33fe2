/// The position of an element in a sectioned collection; flat collections use section 0.
public struct ElementPath: Hashable, Comparable, Sendable {
  /// The offset of the element within its section.
  public var element: Int
  /// The offset of the section.
  public var section: Int

  /// A path to `element` in `section`.
  @inlinable
  public init(element: Int, section: Int) {
    self.element = element
    self.section = section
  }

  /// Section-major order, as a table lists its rows.
  @inlinable
  public static func < (lhs: ElementPath, rhs: ElementPath) -> Bool {
    (lhs.section, lhs.element) < (rhs.section, rhs.element)
  }
}

extension ElementPath: CustomStringConvertible {
  /// `[section, element]`, like an `IndexPath`.
  public var description: String { "[\(section), \(element)]" }
}
