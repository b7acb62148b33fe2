/// A section of a sectioned collection: a `Differentiable` section model holding `Differentiable` elements.
///
/// The section's own `differenceIdentifier` and `isContentEqual(to:)` describe the section model
/// only (its header, say); the elements are diffed separately.
public protocol DifferentiableSection: Differentiable {
  /// The collection of elements the section holds.
  associatedtype Collection: Swift.Collection where Collection.Element: Differentiable

  /// The elements of the section, in display order.
  var elements: Collection { get }

  /// A section with the model of `source` and the given elements.
  init<Elements: Swift.Collection>(source: Self, elements: Elements)
  where Elements.Element == Collection.Element
}
