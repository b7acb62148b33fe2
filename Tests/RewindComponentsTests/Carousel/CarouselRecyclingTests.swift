import Foundation
import Testing

@testable import RewindComponents

/// The loaded set as load / unload events, and the two reuse pools (spec 2.7).
@Suite("Carousel recycling")
struct CarouselRecyclingTests {
  @Test("Scrolling unloads into the pool, then loads reuse pooled views, ascending")
  func poolReuse() {
    var harness = CarouselHarness()
    harness.send(.reload(count: 10))
    #expect(
      harness.events.filter { !$0.isDelegateEvent } == (0...3).map { .loadItem(index: $0, placeholder: nil, reused: false) })
    harness.clearEvents()
    harness.send(.scrollToItem(5, animated: false))
    let loads = harness.events.filter { !$0.isDelegateEvent }
    #expect(
      loads == [.unloadItem(index: 0), .unloadItem(index: 1), .unloadItem(index: 2)]
        + (4...6).map { .loadItem(index: $0, placeholder: nil, reused: true) })
    #expect(harness.state.loadedIndices == [3, 4, 5, 6])
    #expect(harness.state.itemPoolSize == 0)
  }

  @Test("Placeholders use their own pool; reload discards both pools")
  func placeholderPool() {
    var harness = CarouselHarness(count: 3, placeholders: 4, itemWidth: 100, options: CarouselOptions(visibleItems: 3))
    harness.send(.reload(count: 3, placeholders: 4))
    harness.send(.scrollToItem(0, animated: false))
    #expect(harness.state.loadedIndices == [-1, 0, 1])
    harness.send(.scrollToItem(2, animated: false))
    #expect(harness.state.loadedIndices == [1, 2, 3])
    #expect(harness.state.placeholderPoolSize == 0)
    #expect(harness.events.contains(.loadItem(index: 3, placeholder: 2, reused: true)))
    harness.send(.scrollToItem(1, animated: false))
    #expect(harness.state.placeholderPoolSize == 1)
    harness.send(.reload(count: 3, placeholders: 4))
    #expect(harness.state.placeholderPoolSize == 0 && harness.state.itemPoolSize == 0)
  }

  @Test("Insert and remove shift loaded indices and report it")
  func insertRemove() {
    var harness = CarouselHarness()
    harness.send(.reload(count: 10))
    harness.clearEvents()
    harness.send(.insert(at: 1))
    #expect(harness.events.first == .itemInserted(index: 1))
    #expect(harness.state.numberOfItems == 11)
    #expect(harness.state.loadedIndices == [0, 1, 2, 3])
    harness.clearEvents()
    harness.send(.remove(at: 0))
    #expect(harness.events.first == .itemRemoved(index: 0))
    #expect(harness.state.loadedIndices == [0, 1, 2, 3])
  }

  @Test("Inserting into an empty carousel loads the item")
  func insertIntoEmpty() {
    var harness = CarouselHarness(count: 0)
    harness.send(.reload(count: 0))
    harness.send(.insert(at: 5))
    #expect(harness.state.numberOfItems == 1)
    #expect(harness.state.scrollOffset == 0)
    #expect(harness.state.currentItemIndex == 0)
    #expect(harness.state.loadedIndices == [0])
  }

  @Test("Wrapping never loads an index twice, even with few items (#873)")
  func wrapSmall() {
    var harness = CarouselHarness(type: .rotary, count: 2)
    harness.send(.reload(count: 2))
    #expect(harness.state.loadedIndices == [0, 1])
  }
}

/// Layout details beyond the parity table.
@Suite("Carousel layout")
struct CarouselLayoutTests {
  @Test("Depth order: Cover Flow puts the centre item in front")
  func coverFlowDepth() throws {
    var harness = CarouselHarness(type: .coverFlow)
    harness.send(.reload(count: 10))
    harness.place(at: 4)
    let items = harness.reducer.layout(of: harness.state)
    let front = try #require(items.max { $0.zOrder < $1.zOrder })
    #expect(front.index == 4)
    #expect(Set(items.map(\.zOrder)) == Set(0..<items.count))
  }

  @Test("Inverted cylinder hides back faces with |offset| ≥ count/4")
  func backfaces() {
    let state = CarouselHarness(type: .invertedCylinder).state
    #expect(state.numberOfVisibleItems == 5)
    var probe = state
    probe.options.visibleItems = 10
    let hidden = probe.layout().filter(\.isHidden).map { abs($0.offset) }
    #expect(!hidden.isEmpty && hidden.allSatisfy { $0 >= 2.5 })
  }

  @Test("Vertical linear layout runs along y")
  func vertical() {
    var state = CarouselHarness().state
    state.properties.isVertical = true
    let m = state.transform(forOffset: 1)
    #expect(m.m41 == 0 && m.m42 == 200)
    #expect(state.numberOfVisibleItems == 5)
  }

  @Test("Custom layout uses the reducer's transform, or the base without one")
  func custom() {
    var harness = CarouselHarness(type: .custom)
    harness.reducer = CarouselReducer(customTransform: { offset, base in base.translated(x: offset * 10, y: 0, z: 0) })
    harness.send(.reload(count: 10))
    harness.place(at: 0)
    let items = harness.reducer.layout(of: harness.state)
    #expect(items.first { $0.index == 2 }?.transform.m41 == 20)
    #expect(harness.state.layout().allSatisfy { $0.transform == harness.state.baseTransform })
  }

  @Test("Every type lays out finite transforms", arguments: CarouselType.allCases)
  func everyType(type: CarouselType) {
    var harness = CarouselHarness(type: type, count: 20)
    harness.send(.reload(count: 20))
    harness.place(at: 7.3)
    let items = harness.reducer.layout(of: harness.state)
    #expect(!items.isEmpty)
    #expect(items.map(\.index) == harness.state.loadedIndices)
    for item in items {
      let m = item.transform
      let finite = [m.m11, m.m22, m.m33, m.m41, m.m42, m.m43, m.m44].allSatisfy { $0.isFinite }
      #expect(finite)
    }
  }

  @Test("The state survives a Codable round trip")
  func codable() throws {
    var harness = CarouselHarness(type: .coverFlow2)
    harness.send(.tick(now: 0))
    harness.send(.reload(count: 10))
    harness.send(.tick(now: 0.1))
    let data = try JSONEncoder().encode(harness.state)
    #expect(try JSONDecoder().decode(CarouselState.self, from: data) == harness.state)
  }
}
