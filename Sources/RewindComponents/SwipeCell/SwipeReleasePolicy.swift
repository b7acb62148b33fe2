/// How a swipe cell picks where to go when the finger lifts.
public enum SwipeReleasePolicy: Equatable, Sendable, Codable {
  /// MGSwipeTableCell: a flick faster than `inertia` pt/s (strict) opens toward it or closes; otherwise the
  /// threshold rule decides. Upstream's inertia is 100.
  case momentum(inertia: Double)
  /// LLSwipeCell's release snapping: position only, velocity ignored. A side opens when more than
  /// `trigger` points of it are revealed (upstream 50), otherwise the cell closes. Upstream tests the left
  /// side against the absolute scroll offset; this policy is symmetric (see Docs/Components.md).
  case snapping(trigger: Double)

  /// The MGSwipeTableCell policy with its inertia of 100 pt/s.
  public static let standard = SwipeReleasePolicy.momentum(inertia: 100)
  /// The LLSwipeCell policy with its trigger of 50 pt.
  public static let scrollSnapping = SwipeReleasePolicy.snapping(trigger: 50)
}
