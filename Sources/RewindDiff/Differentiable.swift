/// A value a diff can follow: a stable identity plus a way to tell whether its content changed.
///
/// Two values with equal `differenceIdentifier`s are "the same item"; the diff pairs them up and
/// reports a move when its position changed and an update when `isContentEqual(to:)` is false.
public protocol Differentiable {
  /// The type of the identity that stays stable while the content changes.
  associatedtype DifferenceIdentifier: Hashable

  /// The identity of this value; equal identifiers mean the same item.
  var differenceIdentifier: DifferenceIdentifier { get }

  /// Whether this value shows the same content as `source`, an earlier value of the same item.
  func isContentEqual(to source: Self) -> Bool
}

extension Differentiable where Self: Hashable {
  /// The value itself is its identity.
  @inlinable
  public var differenceIdentifier: Self { self }
}

extension Differentiable where Self: Equatable {
  /// Content is equal when the values are equal.
  @inlinable
  public func isContentEqual(to source: Self) -> Bool { self == source }
}
