import Foundation
import Rewind
import RewindComponents
import Testing

@Suite("Swipe cell: corrections, expansion layout, replay")
struct SwipeCellExtraTests {
  @Test("bounceInOut is corrected: no overshoot in the second half")
  func bounceInOutCorrected() {
    #expect(approx(Easing.bounceInOut.value(elapsed: 0.75, duration: 1, from: 0, to: 100), 88.28125))
    for step in 0...100 {
      let value = Easing.bounceInOut.value(elapsed: Double(step) / 100, duration: 1, from: 0, to: 100)
      #expect(value >= -1e-9 && value <= 100 + 1e-9)
    }
    #expect(Easing.cubicOut.value(elapsed: 0.3, duration: 0.3, from: 5, to: 9) == 9)
    #expect(Easing.linear.value(elapsed: .nan, duration: 1, from: 5, to: 9) == 5)
    #expect(Easing.linear.value(elapsed: 1, duration: 0, from: 5, to: 9) == 9)
  }

  @Test("expansion frames for the three layouts")
  func expansionFrames() throws {
    let expected: [(SwipeExpansionLayout, Double, Double)] = [
      (.border, 0, 90), (.center, 0, 250), (.none, 90, 90),
    ]
    for (layout, x, width) in expected {
      var driver = SwipeDriver()
      driver.state.rightExpansion.buttonIndex = 0
      driver.state.rightExpansion.layout = layout
      driver.state.rightExpansion.expansionColor = "red"
      driver.pan(-250)
      let frame = try #require(SwipeGeometry.expansion(driver.state, side: .rightToLeft))
      #expect(frame.containerX == -70)
      #expect(frame.containerWidth == 250)
      #expect(frame.buttonX == x, "\(layout)")
      #expect(frame.buttonWidth == width, "\(layout)")
      #expect(frame.color == "red")
      #expect(SwipeGeometry.expansion(driver.state, side: .leftToRight) == nil)
    }
  }

  @Test("an out-of-range expansion index still expands but clicks nothing")
  func outOfRangeExpansion() {
    var driver = SwipeDriver()
    driver.state.rightExpansion.buttonIndex = 5
    driver.state.rightExpansion.fillOnTrigger = true
    driver.pan(-300)
    #expect(driver.state.phase == .expandingRightToLeft)
    #expect(SwipeGeometry.expansion(driver.state, side: .rightToLeft) == nil)
    driver.release()
    driver.finishAnimation()
    #expect(driver.state.offset == -320)
    #expect(driver.events.contains { if case .buttonTapped = $0 { true } else { false } } == false)
  }

  @Test("an auto-hiding expansion click snaps closed without animation")
  func expansionAutoHide() {
    var driver = SwipeDriver(reducer: SwipeCell(tappedButton: { _ in true }))
    driver.state.rightExpansion.buttonIndex = 1
    driver.state.rightExpansion.fillOnTrigger = true
    driver.pan(-300)
    driver.release()
    driver.finishAnimation()
    #expect(driver.state.offset == 0)
    #expect(driver.state.animation == nil)
    #expect(
      driver.events.suffix(3) == [
        .buttonTapped(SwipeButtonTap(index: 1, direction: .rightToLeft, fromExpansion: true)),
        .willEndSwiping,
        .stateChanged(.none, gestureActive: false),
      ])
  }

  @Test("onlySwipeButtons keeps the content still; drag and static frames")
  func contentAndFrames() {
    var driver = SwipeDriver()
    driver.state.rightSettings.onlySwipeButtons = true
    driver.state.rightSettings.transition = .static
    driver.pan(-90)
    #expect(SwipeGeometry.contentTranslation(driver.state) == 0)
    #expect(SwipeGeometry.buttonFrames(driver.state, side: .rightToLeft).map(\.x) == [-90, 0])
    #expect(SwipeGeometry.buttonFrames(driver.state, side: .rightToLeft, progress: 1).map(\.x) == [0, 90])
    #expect(SwipeGeometry.containerRestingX(driver.state, side: .rightToLeft) == 320)
    #expect(SwipeGeometry.containerRestingX(driver.state, side: .leftToRight) == -80)
  }

  @Test("the documented example opens to −180")
  func documentedExample() {
    var cell = SwipeCellState(
      left: [SwipeButton(title: "Flag", width: 80)],
      right: [SwipeButton(title: "Delete", width: 90), SwipeButton(title: "More", width: 90)])
    cell.rightExpansion.buttonIndex = 0
    cell.rightExpansion.fillOnTrigger = true
    let store = Store(initialState: cell, reducer: SwipeCell(tappedButton: { tap in tap.index == 1 }))
    store.send(.panBegan(translation: SwipeVector(x: -2), at: 0))
    store.send(.panChanged(translation: SwipeVector(x: -100), at: 0.1))
    #expect(
      store.state.events == [.willBeginSwiping, .stateChanged(.swipingRightToLeft, gestureActive: true)])
    store.send(.panEnded(translation: SwipeVector(x: -100), velocity: .zero, at: 0.2))
    #expect(store.state.offset(at: 0.5) == -180)
    // What the release's timer sends 0.3 s later (a view may send it too; a repeat is ignored).
    store.send(.animationFinished(id: 1))
    #expect(store.state.offset == -180)
    store.send(.tapButton(index: 1, side: .rightToLeft, at: 1))
    #expect(store.state.animation?.to == 0)
    store.cancelAllEffects()
  }

  @Test("replaying the journal rebuilds the same table state")
  func replay() throws {
    typealias Row = SwipeRow<Int>
    let journal = InMemoryJournal<SwipeTableAction<Int>>()
    let initial = SwipeTableState(
      rows: IdentifiedArray(uniqueElements: (1...5).map { Row(id: $0, swipe: .fixture) }))
    let live = try Store(initialState: initial, reducer: SwipeTable<Row>(), journal: journal)
    func finish(_ id: Int) {
      guard let run = live.state.rows[id: id]?.swipe.animation else { return }
      live.send(.row(IdentifiedAction(id: id, action: .animationFinished(id: run.id))))
    }
    live.send(.row(IdentifiedAction(id: 2, action: .panBegan(translation: SwipeVector(x: -1), at: 0))))
    for x in stride(from: -10.0, through: -140, by: -10) {
      live.send(.row(IdentifiedAction(id: 2, action: .panChanged(translation: SwipeVector(x: x), at: 0.05))))
    }
    live.send(
      .row(
        IdentifiedAction(
          id: 2, action: .panEnded(translation: .zero, velocity: SwipeVector(x: -500), at: 0.1))))
    live.send(.row(IdentifiedAction(id: 4, action: .show(.leftToRight, animated: true, at: 0.2))))
    // Row 4 opened with the action that started its animation, and that started hiding row 2; row 2's
    // overlay stays until its hide ends.
    #expect(live.state.openRowIDs == [2, 4])
    #expect(live.state.animatingRowIDs == [2, 4])
    finish(2)
    finish(4)
    #expect(live.state.openRowIDs == [4])
    #expect(live.state.rows[id: 2]?.swipe.offset == 0)
    live.send(.touchDown(rowID: 1, location: .zero, at: 1))
    finish(4)
    #expect(live.state.openRowIDs.isEmpty)
    live.cancelAllEffects()
    let restored = try Store(initialState: initial, reducer: SwipeTable<Row>(), journal: journal)
    #expect(restored.state == live.state)
  }

  @Test("state survives a Codable round trip")
  func codable() throws {
    var driver = SwipeDriver()
    driver.pan(-120)
    driver.release()
    #expect(driver.state.animation != nil)
    let data = try JSONEncoder().encode(driver.state)
    #expect(try JSONDecoder().decode(SwipeCellState.self, from: data) == driver.state)
  }
}

@Suite("Swipe cell safe-area insets")
struct SwipeSafeAreaTests {
  @Test("the inset widens the container and the outermost button")
  func widensOutermost() {
    var driver = SwipeDriver()
    driver.send(.setSafeAreaInsets(left: 0, right: 34))
    #expect(driver.state.containerWidth(.rightToLeft) == 214)
    driver.send(.show(.rightToLeft, animated: false, at: 0))
    #expect(driver.state.offset == -214)
    let frames = SwipeGeometry.buttonFrames(driver.state, side: .rightToLeft)
    #expect(frames.map(\.index) == [1, 0])
    #expect(frames.map(\.width) == [90, 124])
    #expect(frames.map(\.x) == [0, 90])
  }

  @Test("without widening, the inset is empty space at the outer edge")
  func emptyStrip() {
    var driver = SwipeDriver()
    driver.state.leftSettings.expandLastButtonBySafeAreaInsets = false
    driver.send(.setSafeAreaInsets(left: 20, right: 0))
    driver.send(.show(.leftToRight, animated: false, at: 0))
    #expect(driver.state.offset == 100)
    #expect(SwipeGeometry.buttonFrames(driver.state, side: .leftToRight).map(\.x) == [20])
  }

  @Test("an inset change moves an open cell's offset; bad insets count as 0")
  func insetChange() {
    var driver = SwipeDriver()
    driver.send(.show(.rightToLeft, animated: false, at: 0))
    driver.send(.setSafeAreaInsets(left: 5, right: 10))
    #expect(driver.state.offset == -190)
    driver.send(.setSafeAreaInsets(left: .nan, right: -3))
    #expect(driver.state.offset == -180)
    #expect(driver.state.safeAreaInsetLeft == 0)
  }
}
