import Testing

@testable import RewindComponents

/// The loaded set as load / unload events, and the two reuse pools (spec 2.7).
@Suite("Carousel recycling")
struct CarouselRecyclingTests {
  @Test("Scrolling unloads into the pool, then loads reuse pooled views, ascending")
  func poolReuse() {
    var harness = CarouselHarness()
    harness.send(.reload(count: 10, at: 0))
    #expect(
      harness.events.filter { !$0.isDelegateEvent }
        == (0...3).map { .loadItem(index: $0, placeholder: nil, reused: false) })
    harness.clearEvents()
    harness.send(.scrollToItem(5, animated: false, at: 0))
    let loads = harness.events.filter { !$0.isDelegateEvent }
    #expect(
      loads == [.unloadItem(index: 0), .unloadItem(index: 1), .unloadItem(index: 2)]
        + (4...6).map { .loadItem(index: $0, placeholder: nil, reused: true) })
    #expect(harness.state.loadedIndices == [3, 4, 5, 6])
    #expect(harness.state.itemPoolSize == 0)
  }

  @Test("Placeholders use their own pool; reload discards both pools")
  func placeholderPool() {
    var harness = CarouselHarness(
      count: 3, placeholders: 4, itemWidth: 100, options: CarouselOptions(visibleItems: 3))
    harness.send(.reload(count: 3, placeholders: 4, at: 0))
    harness.send(.scrollToItem(0, animated: false, at: 0))
    #expect(harness.state.loadedIndices == [-1, 0, 1])
    harness.send(.scrollToItem(2, animated: false, at: 0))
    #expect(harness.state.loadedIndices == [1, 2, 3])
    #expect(harness.state.placeholderPoolSize == 0)
    #expect(harness.events.contains(.loadItem(index: 3, placeholder: 2, reused: true)))
    harness.send(.scrollToItem(1, animated: false, at: 0))
    #expect(harness.state.placeholderPoolSize == 1)
    harness.send(.reload(count: 3, placeholders: 4, at: 0))
    #expect(harness.state.placeholderPoolSize == 0 && harness.state.itemPoolSize == 0)
  }

  @Test("Insert and remove shift loaded indices and report it")
  func insertRemove() {
    var harness = CarouselHarness()
    harness.send(.reload(count: 10, at: 0))
    harness.clearEvents()
    harness.send(.insertItem(1, at: 0))
    #expect(harness.events.first == .itemInserted(index: 1))
    #expect(harness.state.numberOfItems == 11)
    #expect(harness.state.loadedIndices == [0, 1, 2, 3])
    harness.clearEvents()
    harness.send(.removeItem(0, at: 0))
    #expect(harness.events.first == .itemRemoved(index: 0))
    #expect(harness.state.loadedIndices == [0, 1, 2, 3])
  }

  @Test("Inserting into an empty carousel loads the item")
  func insertIntoEmpty() {
    var harness = CarouselHarness(count: 0)
    harness.send(.reload(count: 0, at: 0))
    harness.send(.insertItem(5, at: 0))
    #expect(harness.state.numberOfItems == 1)
    #expect(harness.state.scrollOffset == 0)
    #expect(harness.state.currentItemIndex == 0)
    #expect(harness.state.loadedIndices == [0])
  }

  @Test("Wrapping never loads an index twice, even with few items (#873)")
  func wrapSmall() {
    var harness = CarouselHarness(type: .rotary, count: 2)
    harness.send(.reload(count: 2, at: 0))
    #expect(harness.state.loadedIndices == [0, 1])
  }
}
