import Testing

@testable import RewindComponents

/// The delegate event sequences of spec 2.14. Frames are not events: a motion's progress shows in
/// sampled geometry, and its end (with the offset and index it ends on) is one event.
@Suite("Carousel event orders")
struct CarouselEventOrderTests {
  /// The events without `didScroll` and index changes.
  func milestones(_ events: [CarouselEvent]) -> [CarouselEvent] {
    events.filter {
      switch $0 {
      case .didScroll, .currentItemIndexDidChange: false
      default: $0.isDelegateEvent
      }
    }
  }

  @Test("Drag and fling: dragging, deceleration, then the realign animation")
  func dragAndFling() {
    var harness = CarouselHarness()
    harness.place(at: 2)
    harness.send(.touchDown(at: 0))
    harness.send(.dragBegan(translation: 0, at: 0))
    harness.send(.dragChanged(translation: -50, velocity: -1200, at: 0.02))
    harness.send(.dragChanged(translation: -100, velocity: -1200, at: 0.04))
    #expect(
      harness.delegateEvents == [.willBeginDragging, .didScroll, .didScroll, .currentItemIndexDidChange(3)])
    harness.send(.dragEnded(translation: -100, velocity: -1200, at: 0.05))
    harness.clearEvents()
    harness.run(until: harness.state.deceleration?.endTime ?? 0)
    // The fling's end: where it stopped, then its end, then the realign.
    #expect(
      harness.delegateEvents == [
        .didScroll, .currentItemIndexDidChange(5), .didEndDecelerating, .willBeginScrollingAnimation,
      ])
    harness.settle()
    #expect(harness.delegateEvents.last == .didEndScrollingAnimation)
    #expect(harness.state.scrollOffset == 5 && harness.state.currentItemIndex == 5)
  }

  @Test("Drag and fling: the milestones in upstream's order")
  func dragAndFlingMilestones() {
    var harness = CarouselHarness()
    harness.place(at: 2)
    harness.send(.touchDown(at: 0))
    harness.send(.dragBegan(translation: 0, at: 0))
    harness.send(.dragChanged(translation: -100, velocity: -1200, at: 0.04))
    harness.send(.dragEnded(translation: -100, velocity: -1200, at: 0.05))
    harness.settle()
    #expect(
      milestones(harness.events) == [
        .willBeginDragging, .didEndDragging(willDecelerate: true), .willBeginDecelerating,
        .didEndDecelerating,
        .willBeginScrollingAnimation, .didEndScrollingAnimation,
      ])
  }

  @Test("Slow drag and release: a settle animation")
  func slowDrag() {
    var harness = CarouselHarness()
    harness.place(at: 2)
    harness.send(.touchDown(at: 0))
    harness.send(.dragBegan(translation: 0, at: 0))
    harness.send(.dragChanged(translation: -60, velocity: -100, at: 0.1))
    harness.send(.dragEnded(translation: -60, velocity: -100, at: 0.2))
    harness.settle()
    #expect(
      milestones(harness.events) == [
        .willBeginDragging, .didEndDragging(willDecelerate: false), .willBeginScrollingAnimation,
        .didEndScrollingAnimation,
      ])
    #expect(harness.state.scrollOffset == 2 && close(harness.state.time, 0.6))
  }

  @Test("Tap a non-current item: scroll, select, then its end with the offset and index it reached")
  func tapNonCurrent() {
    var harness = CarouselHarness()
    harness.place(at: 2)
    harness.send(.tapItem(4, at: 0))
    harness.settle()
    #expect(
      harness.delegateEvents == [
        .willBeginScrollingAnimation, .didSelectItem(4), .didScroll, .currentItemIndexDidChange(4),
        .didEndScrollingAnimation,
      ])
    #expect(harness.state.scrollOffset == 4)
  }

  @Test("An action during a scroll finds it where a frame at its time shows it")
  func actionDuringScroll() {
    var harness = CarouselHarness()
    harness.place(at: 2)
    harness.send(.tapItem(4, at: 0))
    harness.clearEvents()
    harness.send(.reloadItem(99, at: 0.2))
    #expect(harness.state.scrollOffset == 3 && harness.state.time == 0.2)
    #expect(harness.delegateEvents == [.didScroll, .currentItemIndexDidChange(3)])
    // An action after the end ends the scroll first; the timer's finish that follows is ignored.
    harness.clearEvents()
    let id = harness.state.scrollAnimation?.id ?? -1
    harness.send(.reloadItem(99, at: 0.5))
    #expect(harness.delegateEvents == [.didScroll, .currentItemIndexDidChange(4), .didEndScrollingAnimation])
    harness.clearEvents()
    harness.send(.animationFinished(id: id))
    #expect(harness.events.isEmpty && harness.state.time == 0.5)
  }

  @Test("Tap the current item: a zero-length scroll and select (#525)")
  func tapCurrent() {
    var harness = CarouselHarness()
    harness.place(at: 2)
    harness.send(.tapItem(2, at: 0))
    harness.settle()
    #expect(
      harness.delegateEvents == [.willBeginScrollingAnimation, .didSelectItem(2), .didEndScrollingAnimation])
  }

  @Test("Reload: a settle animation even without movement, and the index change (#686)")
  func reload() {
    var harness = CarouselHarness(count: 0)
    harness.send(.reload(count: 10, at: 0))
    harness.settle()
    #expect(
      harness.delegateEvents == [
        .currentItemIndexDidChange(0), .willBeginScrollingAnimation, .didEndScrollingAnimation,
      ]
        || harness.delegateEvents == [
          .willBeginScrollingAnimation, .currentItemIndexDidChange(0), .didEndScrollingAnimation,
        ])
    #expect(harness.state.loadedIndices == [0, 1, 2, 3])
  }

  @Test("A tap selects only when the filter allows it")
  func shouldSelect() {
    var harness = CarouselHarness()
    harness.reducer = CarouselReducer(shouldSelectItem: { $0 != 4 })
    harness.place(at: 2)
    harness.send(.tapItem(4, at: 0))
    #expect(harness.delegateEvents.isEmpty)
    harness.send(.tapItem(3, at: 0))
    #expect(harness.delegateEvents == [.willBeginScrollingAnimation, .didSelectItem(3)])
  }

  @Test("A tap at a point hits the frontmost item there")
  func tapAtPoint() {
    var harness = CarouselHarness()
    harness.place(at: 2)
    // Linear, w = 200: item 3 is centred at x = 160 + 200.
    harness.send(.tapAt(CarouselVector(x: 360, y: 240), at: 0))
    #expect(harness.delegateEvents == [.willBeginScrollingAnimation, .didSelectItem(3)])
  }

  @Test("Each motion schedules one timer; sampling and finished motions schedule none")
  func timers() {
    var harness = CarouselHarness()
    harness.place(at: 2)
    harness.send(.scrollToItem(5, animated: true, at: 0))
    #expect(harness.timerCount == 1)
    harness.send(.reloadItem(99, at: 0.1))
    _ = harness.state.layout(at: 0.2)
    #expect(harness.timerCount == 1)
    harness.settle()
    #expect(harness.timerCount == 1)
    harness.send(.dragBegan(translation: 0, at: 1))
    harness.send(.dragEnded(translation: -40, velocity: -1500, at: 1.1))
    #expect(harness.timerCount == 2 && harness.state.deceleration != nil)
    harness.settle()
    // The fling's end started the realign: its own timer.
    #expect(harness.timerCount == 3)
  }

  @Test("resumeAnimation restarts the running motion's timer, or ends a motion that is over")
  func resume() {
    var harness = CarouselHarness()
    harness.place(at: 2)
    harness.send(.scrollToItem(5, animated: true, at: 0))
    #expect(harness.timerCount == 1)
    // A restored state has no timer running: resuming schedules one for the same motion.
    harness.send(.resumeAnimation(at: 0.1))
    #expect(harness.timerCount == 2 && harness.state.scrollAnimation?.id == 1)
    harness.clearEvents()
    harness.send(.resumeAnimation(at: 1))
    #expect(harness.timerCount == 2 && harness.state.scrollAnimation == nil)
    #expect(harness.delegateEvents == [.didScroll, .currentItemIndexDidChange(5), .didEndScrollingAnimation])
  }
}
