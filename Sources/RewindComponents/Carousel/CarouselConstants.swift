/// Upstream's fixed numbers (spec 2.2).
public enum CarouselConstants {
  /// The shortest Cover Flow 2 toggle settle, in seconds.
  public static let minToggleDuration = 0.2
  /// The longest Cover Flow 2 toggle settle, in seconds.
  public static let maxToggleDuration = 0.4
  /// The length of every `animated:` scroll, in seconds.
  public static let scrollDuration = 0.4
  /// The length of upstream's legacy settle when already aligned, in seconds.
  public static let legacySettleDuration = 0.01
  /// Minimum fling distance, in items.
  public static let decelerateThreshold = 0.1
  /// Minimum release speed for a fling or a scroll to the next item, in items per second.
  public static let scrollSpeedThreshold = 2.0
  /// Minimum distance from the current item for a scroll to the next item on release.
  public static let scrollDistanceThreshold = 0.1
  /// Converts the deceleration rate to an acceleration.
  public static let decelerationMultiplier = 30.0
  /// Differences below this are treated as zero.
  public static let floatErrorMargin = 1e-6
  /// The most items or placeholders a carousel accepts (2⁴⁰); larger counts are clamped, which keeps
  /// index arithmetic far from overflow and offsets exact in a Double.
  public static let maxItemCount = 1 << 40
  /// The most items the visible window holds (upstream's iOS value).
  public static let maxVisibleItems = 30
}
