/// A ready-made section: a `Differentiable` model and an array of elements.
public struct ArraySection<Model: Differentiable, Element: Differentiable>: DifferentiableSection {
  /// The section model; its identity and content are the section's.
  public var model: Model
  /// The elements of the section.
  public var elements: [Element]

  /// A section with the given model and elements.
  @inlinable
  public init<Elements: Swift.Collection>(model: Model, elements: Elements)
  where Elements.Element == Element {
    self.model = model
    self.elements = Array(elements)
  }

  /// A section with the model of `source` and the given elements.
  @inlinable
  public init<Elements: Swift.Collection>(source: ArraySection, elements: Elements)
  where Elements.Element == Element {
    self.init(model: source.model, elements: elements)
  }

  /// The identity of the section model.
  @inlinable
  public var differenceIdentifier: Model.DifferenceIdentifier { model.differenceIdentifier }

  /// Whether the section models have equal content; elements are not compared.
  @inlinable
  public func isContentEqual(to source: ArraySection) -> Bool { model.isContentEqual(to: source.model) }
}

extension ArraySection: Equatable where Model: Equatable, Element: Equatable {}
extension ArraySection: Hashable where Model: Hashable, Element: Hashable {}
extension ArraySection: Sendable where Model: Sendable, Element: Sendable {}

extension ArraySection: CustomStringConvertible {
  /// The model followed by the elements.
  public var description: String { "\(model): \(elements)" }
}
