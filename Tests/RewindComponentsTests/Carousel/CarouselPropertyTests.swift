import RewindTesting
import Testing

@testable import RewindComponents

/// The seeded generator of the carousel tests (RewindTesting's SplitMix64), so a failing seed replays
/// exactly.
typealias CarouselRandom = SplitMix64

/// Seeded random sequences of drags, motion ends, inserts, removals and the rest, checking the invariants
/// after every step.
@Suite("Carousel properties")
struct CarouselPropertyTests {
  static let steps = 3_000

  /// A random action at a time a little after `time` (which it advances); a fifth of them are the timer's
  /// finish of the running motion, or a stray one.
  static func randomAction(_ random: inout CarouselRandom, state: CarouselState, time: inout Double)
    -> CarouselAction
  {
    let n = state.numberOfItems
    time += Double.random(in: 0...0.05, using: &random)
    let now = time
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<20:
      if Int.random(in: 0..<4, using: &random) == 0 {
        return .animationFinished(id: Int.random(in: 0...(state.animationCount + 1), using: &random))
      }
      guard let id = state.runningAnimationID, let end = state.runningAnimationEndTime else {
        return .reloadItem(Int.random(in: -2...(n + 2), using: &random), at: now)
      }
      time = max(time, end)
      return .animationFinished(id: id)
    case 20..<24: return .touchDown(at: now)
    case 24..<30: return .dragBegan(translation: Double.random(in: -20...20, using: &random), at: now)
    case 30..<45:
      return .dragChanged(
        translation: Double.random(in: -800...800, using: &random),
        velocity: Double.random(in: -3000...3000, using: &random), at: now)
    case 45..<52:
      return .dragEnded(
        translation: Double.random(in: -800...800, using: &random),
        velocity: Double.random(in: -3000...3000, using: &random), at: now)
    case 52..<58: return .insertItem(Int.random(in: -3...(n + 3), using: &random), at: now)
    case 58..<64: return .removeItem(Int.random(in: -3...(n + 3), using: &random), at: now)
    case 64..<71:
      return .scrollToItem(
        Int.random(in: -15...25, using: &random), animated: Bool.random(using: &random), at: now)
    case 71..<75:
      return .scrollByItems(
        Int.random(in: -4...4, using: &random), animated: Bool.random(using: &random), at: now)
    case 75..<80: return .tapItem(Int.random(in: -2...(n + 2), using: &random), at: now)
    case 80..<82:
      return .reload(
        count: Int.random(in: 0...12, using: &random), placeholders: Int.random(in: 0...3, using: &random),
        at: now)
    case 82..<85: return .setType(CarouselType.allCases.randomElement(using: &random) ?? .linear, at: now)
    case 85..<88:
      return .setOptions(
        CarouselOptions(
          wrap: [nil, true, false].randomElement(using: &random) ?? nil,
          visibleItems: Bool.random(using: &random) ? Double(Int.random(in: 0...12, using: &random)) : nil),
        at: now)
    case 88..<90: return .setAutoscroll([0, 0, 0.5, -1.5].randomElement(using: &random) ?? 0, at: now)
    case 90..<93:
      var properties = CarouselProperties()
      properties.isPagingEnabled = Bool.random(using: &random)
      properties.bounces = Bool.random(using: &random)
      properties.stopAtItemBoundary = Bool.random(using: &random)
      properties.scrollToItemBoundary = Int.random(in: 0..<4, using: &random) != 0
      properties.isVertical = Bool.random(using: &random)
      return .setProperties(properties, at: now)
    case 93..<96: return .setScrollOffset(Double.random(in: -3...15, using: &random), at: now)
    case 96: return .layout(at: now)
    case 97:
      return Bool.random(using: &random)
        ? .reloadItem(Int.random(in: -2...(n + 2), using: &random), at: now)
        : .setBounds(CarouselSize(width: Double.random(in: 0...1200, using: &random), height: 480), at: now)
    default: return .setItemWidth([50.0, 120, 200].randomElement(using: &random) ?? 100, at: now)
    }
  }

  @Test(
    "Random sequences keep the index, the window, the offsets and the event pairs valid",
    arguments: [
      UInt64(1), 2, 3, 0xC0FFEE, 0x5EED_CA20,
    ])
  func invariants(seed: UInt64) {
    var random = CarouselRandom(seed: seed)
    let reducer = CarouselReducer()
    var state = CarouselState(numberOfItems: 8, itemWidth: 200, type: .linear)
    // A host lays the carousel out before anything else; until then nothing is loaded.
    _ = reducer.reduce(into: &state, action: .layout(at: 0))
    var time = 0.0
    var mirror = Set(state.loadedIndices)
    var scrollBalance = state.scrollAnimation == nil ? 0 : 1
    var flingBalance = 0
    var dragBalance = 0
    for step in 0..<Self.steps {
      let action = Self.randomAction(&random, state: state, time: &time)
      let before = state
      _ = reducer.reduce(into: &state, action: action)
      let context = "seed \(seed), step \(step), action \(action)"
      guard state.time >= before.time, state.time.isFinite else {
        Issue.record("\(context): time went from \(before.time) to \(state.time)"); return
      }
      // The state never holds a motion that a frame at its own time shows as ended, except one of zero
      // length that the next action (or the timer, at once) ends.
      if let animation = state.scrollAnimation, !state.isDragging, animation.isFinished(at: state.time),
        animation.startTime != state.time
      {
        Issue.record("\(context): a finished scroll animation is still running"); return
      }
      for event in state.events {
        switch event {
        case .loadItem(let index, _, _):
          guard mirror.insert(index).inserted else {
            Issue.record("\(context): \(index) loaded twice"); return
          }
        case .unloadItem(let index):
          guard mirror.remove(index) != nil else {
            Issue.record("\(context): \(index) unloaded but not loaded"); return
          }
        case .itemInserted(let index): mirror = Set(mirror.map { $0 >= index ? $0 + 1 : $0 })
        case .itemRemoved(let index):
          mirror.remove(index)
          mirror = Set(mirror.map { $0 > index ? $0 - 1 : $0 })
        case .willBeginScrollingAnimation: scrollBalance += 1
        case .didEndScrollingAnimation: scrollBalance -= 1
        case .willBeginDecelerating: flingBalance += 1
        case .didEndDecelerating: flingBalance -= 1
        case .willBeginDragging: dragBalance += 1
        case .didEndDragging: dragBalance -= 1
        default: break
        }
      }
      let n = state.numberOfItems
      let current = state.currentItemIndex
      guard n == 0 ? current == -1 : (0..<n).contains(current) else {
        Issue.record("\(context): current index \(current) with \(n) items"); return
      }
      let loaded = state.loadedIndices
      guard zip(loaded, loaded.dropFirst()).allSatisfy({ $0 < $1 }) else {
        Issue.record("\(context): loaded indices \(loaded) repeat or are unordered"); return
      }
      guard loaded == state.visibleWindow, Set(loaded) == mirror else {
        Issue.record(
          "\(context): loaded \(loaded), window \(state.visibleWindow), events say \(mirror.sorted())");
        return
      }
      guard state.scrollOffset.isFinite else {
        Issue.record("\(context): offset \(state.scrollOffset)"); return
      }
      if state.isWrapping, n > 0, !(state.scrollOffset >= 0 && state.scrollOffset < Double(n)) {
        Issue.record("\(context): wrapped offset \(state.scrollOffset) outside [0, \(n))"); return
      }
      guard scrollBalance == (state.scrollAnimation == nil ? 0 : 1),
        flingBalance == (state.deceleration == nil ? 0 : 1), dragBalance == (state.isDragging ? 1 : 0)
      else {
        Issue.record(
          "\(context): unbalanced begin/end events \(scrollBalance) \(flingBalance) \(dragBalance)");
        return
      }
      guard state.itemPoolSize >= 0, state.placeholderPoolSize >= 0 else {
        Issue.record("\(context): negative pool"); return
      }
    }
  }

  @Test("Replaying the same actions gives the same state (determinism)")
  func determinism() {
    var random = CarouselRandom(seed: 42)
    let reducer = CarouselReducer()
    var live = CarouselState(numberOfItems: 8, itemWidth: 200, type: .coverFlow2)
    var time = 0.0
    var actions: [CarouselAction] = []
    for _ in 0..<500 {
      let action = Self.randomAction(&random, state: live, time: &time)
      actions.append(action)
      _ = reducer.reduce(into: &live, action: action)
    }
    var replayed = CarouselState(numberOfItems: 8, itemWidth: 200, type: .coverFlow2)
    for action in actions { _ = reducer.reduce(into: &replayed, action: action) }
    #expect(replayed == live, "seed 42")
  }
}
