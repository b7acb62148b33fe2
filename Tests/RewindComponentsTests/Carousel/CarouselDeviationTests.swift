import Testing

@testable import RewindComponents

/// Corrected upstream bugs (quirk policy, spec section 5); each is listed in Docs/Components.md (Carousel).
@Suite("Carousel deviations from upstream")
struct CarouselDeviationTests {
  @Test("Touch-down during a scroll animation reports its end")
  func touchDownEndsAnimation() {
    var harness = CarouselHarness()
    harness.place(at: 2)
    harness.send(.scrollToItem(5, animated: true, at: 0))
    harness.clearEvents()
    harness.send(.touchDown(at: 0.1))
    // It stops where a frame at the touch shows it: 2 + 3·ease(0.25).
    #expect(harness.delegateEvents == [.didScroll, .didEndScrollingAnimation])
    #expect(harness.state.scrollAnimation == nil && harness.state.scrollOffset == 2.1875)
  }

  @Test("Touch-down during a fling reports its end")
  func touchDownEndsFling() {
    var harness = CarouselHarness()
    harness.place(at: 2)
    harness.send(.dragBegan(translation: 0, at: 0))
    harness.send(.dragEnded(translation: 0, velocity: -1200, at: 0))
    #expect(harness.state.deceleration != nil)
    harness.clearEvents()
    harness.send(.touchDown(at: 0))
    harness.send(.dragBegan(translation: 0, at: 0))
    #expect(harness.delegateEvents == [.didEndDecelerating, .willBeginDragging])
  }

  @Test("A new animated scroll ends the running one first")
  func scrollReplacesScroll() {
    var harness = CarouselHarness()
    harness.place(at: 2)
    harness.send(.scrollToItem(5, animated: true, at: 0))
    harness.clearEvents()
    harness.send(.scrollToItem(1, animated: true, at: 0))
    #expect(harness.delegateEvents == [.didEndScrollingAnimation, .willBeginScrollingAnimation])
  }

  @Test("Taps on placeholders select nothing")
  func placeholderTap() {
    var harness = CarouselHarness(count: 3, placeholders: 2)
    harness.place(at: 0)
    #expect(harness.state.loadedIndices.contains(-1))
    harness.send(.tapItem(-1, at: 0))
    #expect(!harness.delegateEvents.contains { if case .didSelectItem = $0 { true } else { false } })
  }

  @Test("Autoscroll does not jump after an idle time; positive speed decreases the offset")
  func autoscrollAfterIdle() {
    var harness = CarouselHarness(type: .rotary)
    harness.place(at: 2)
    harness.send(.reloadItem(0, at: 100))
    harness.send(.setAutoscroll(1, at: 200))
    #expect(harness.state.scrollOffset == 2)
    #expect(close(harness.state.scrollOffset(at: 200.5), 1.5))
  }

  @Test("Cover Flow 2's toggle follows the centre item while animating")
  func toggleFromCentre() {
    var harness = CarouselHarness(type: .coverFlow2)
    harness.place(at: 2)
    harness.send(.scrollToItem(3, animated: true, at: 0))
    // Offset 2.0625: the centre item 2 sits at −0.0625, so the toggle is 0.0625.
    #expect(close(harness.state.toggle(at: 0.1), 0.0625))
    // Offset 2.9375: item 3 at +0.0625 gives −0.0625.
    #expect(close(harness.state.toggle(at: 0.3), -0.0625))
  }

  @Test("Odd placeholder counts load every placeholder number once")
  func oddPlaceholdersLoad() {
    var harness = CarouselHarness(count: 3, placeholders: 3, options: CarouselOptions(visibleItems: 6))
    harness.send(.reload(count: 3, placeholders: 3, at: 0))
    let numbers = harness.events.compactMap { event -> Int? in
      if case .loadItem(_, let placeholder?, _) = event { return placeholder }
      return nil
    }
    #expect(Set(numbers) == [0, 1, 2])
  }
}
