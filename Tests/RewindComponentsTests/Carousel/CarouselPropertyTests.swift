import Testing

@testable import RewindComponents

/// A small seedable generator (SplitMix64), so a failing seed replays exactly.
struct CarouselRandom: RandomNumberGenerator {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Seeded random sequences of drags, ticks, inserts, removals and the rest, checking the invariants
/// after every step.
@Suite("Carousel properties")
struct CarouselPropertyTests {
  static let steps = 3_000

  func randomAction(_ random: inout CarouselRandom, state: CarouselState, time: inout Double)
    -> CarouselAction
  {
    let n = state.numberOfItems
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<30:
      time += Double.random(in: 0...0.05, using: &random)
      return .tick(now: time)
    case 30..<34: return .touchDown
    case 34..<40: return .dragBegan(translation: Double.random(in: -20...20, using: &random))
    case 40..<55:
      return .dragChanged(
        translation: Double.random(in: -800...800, using: &random),
        velocity: Double.random(in: -3000...3000, using: &random))
    case 55..<60:
      return .dragEnded(
        translation: Double.random(in: -800...800, using: &random),
        velocity: Double.random(in: -3000...3000, using: &random))
    case 60..<66: return .insert(at: Int.random(in: -3...(n + 3), using: &random))
    case 66..<72: return .remove(at: Int.random(in: -3...(n + 3), using: &random))
    case 72..<77:
      return .scrollToItem(Int.random(in: -15...25, using: &random), animated: Bool.random(using: &random))
    case 77..<80:
      return .scrollByItems(Int.random(in: -4...4, using: &random), animated: Bool.random(using: &random))
    case 80..<84: return .tapItem(Int.random(in: -2...(n + 2), using: &random))
    case 84..<86:
      return .reload(
        count: Int.random(in: 0...12, using: &random), placeholders: Int.random(in: 0...3, using: &random))
    case 86..<88: return .setType(CarouselType.allCases.randomElement(using: &random) ?? .linear)
    case 88..<90:
      return .setOptions(
        CarouselOptions(
          wrap: [nil, true, false].randomElement(using: &random) ?? nil,
          visibleItems: Bool.random(using: &random) ? Double(Int.random(in: 0...12, using: &random)) : nil))
    case 90..<92: return .setAutoscroll([0, 0, 0.5, -1.5].randomElement(using: &random) ?? 0)
    case 92..<94:
      var properties = CarouselProperties()
      properties.isPagingEnabled = Bool.random(using: &random)
      properties.bounces = Bool.random(using: &random)
      properties.stopAtItemBoundary = Bool.random(using: &random)
      properties.isVertical = Bool.random(using: &random)
      return .setProperties(properties)
    case 94..<96: return .setScrollOffset(Double.random(in: -3...15, using: &random))
    case 96: return .layout
    case 97:
      return Bool.random(using: &random)
        ? .reloadItem(Int.random(in: -2...(n + 2), using: &random))
        : .setBounds(CarouselSize(width: Double.random(in: 0...1200, using: &random), height: 480))
    default: return .setItemWidth([50.0, 120, 200].randomElement(using: &random) ?? 100)
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
    _ = reducer.reduce(into: &state, action: .layout)
    var time = 0.0
    var mirror = Set(state.loadedIndices)
    var scrollBalance = state.scrollAnimation == nil ? 0 : 1
    var flingBalance = 0
    var dragBalance = 0
    for step in 0..<Self.steps {
      let action = randomAction(&random, state: state, time: &time)
      _ = reducer.reduce(into: &state, action: action)
      let context = "seed \(seed), step \(step), action \(action)"
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
      let action = randomAction(&random, state: live, time: &time)
      actions.append(action)
      _ = reducer.reduce(into: &live, action: action)
    }
    var replayed = CarouselState(numberOfItems: 8, itemWidth: 200, type: .coverFlow2)
    for action in actions { _ = reducer.reduce(into: &replayed, action: action) }
    #expect(replayed == live, "seed 42")
  }
}
