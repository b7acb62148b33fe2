/// Where and how one loaded item (or placeholder) is drawn.
public struct CarouselItemLayout: Equatable, Sendable, Hashable {
  /// The item index; negative or ≥ n for placeholders.
  public var index: Int
  /// The placeholder number for placeholder slots, nil for items.
  public var placeholder: Int?
  /// The item's offset from the centre, in items.
  public var offset: Double
  /// The 3D transform relative to the anchor (base perspective included).
  public var transform: Matrix4x4
  /// The projected centre in the carousel's coordinates; nil if the item is behind the viewer.
  public var position: CarouselVector?
  /// The opacity from the fade options.
  public var alpha: Double
  /// Whether the item faces away and back faces are not shown.
  public var isHidden: Bool
  /// The drawing order, 0 at the back.
  public var zOrder: Int
}
