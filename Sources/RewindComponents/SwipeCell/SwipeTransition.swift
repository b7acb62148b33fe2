/// How buttons appear while the cell is swiped; raw values follow `MGSwipeTransition`.
public enum SwipeTransition: Int, Sendable, Codable, Hashable, CaseIterable {
  /// Buttons unfold from the cell border, each showing a slice of `progress · width`.
  case border = 0
  /// Buttons stay fixed relative to the cell: the outermost is revealed first.
  case `static` = 1
  /// Buttons ride with the content edge: the innermost is revealed first.
  case drag = 2
  /// Like border, but each slice shows the centre of its button.
  case clipCenter = 3
  /// The container turns like a door hinged on the cell's outer border.
  case rotate3D = 4
}

/// Where the expanded button goes when a swipe passes the expansion threshold; follows
/// `MGSwipeExpansionLayout`.
public enum SwipeExpansionLayout: Int, Sendable, Codable, Hashable {
  /// Pinned to the content-side edge of the container.
  case border = 0
  /// Filling the whole container, content centred.
  case center = 1
  /// Not moved; brought to the front.
  case none = 2
}
