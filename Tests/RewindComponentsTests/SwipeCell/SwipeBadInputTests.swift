import Rewind
import RewindComponents
import Testing

@Suite("Swipe cell bad input")
struct SwipeBadInputTests {
  @Test("NaN and infinite translations are ignored")
  func nonFiniteTranslation() {
    var driver = SwipeDriver()
    driver.send(.panBegan(translation: SwipeVector(x: .nan), at: 0))
    #expect(driver.state.isGestureActive == false)
    driver.pan(-50)
    driver.send(.panChanged(translation: SwipeVector(x: .infinity), at: driver.now))
    driver.send(.panChanged(translation: SwipeVector(x: -.nan), at: driver.now))
    #expect(driver.state.offset == -50)
    driver.send(.setOffset(.nan, animated: false, at: 0))
    driver.send(.setOffset(-.infinity, animated: true, at: 0))
    #expect(driver.state.offset == -50)
  }

  @Test("NaN or infinite velocity counts as no flick")
  func nonFiniteVelocity() {
    var driver = SwipeDriver()
    driver.pan(-150)
    driver.release(velocity: .infinity)
    #expect(driver.state.animation?.to == -180)
  }

  @Test(
    "bad times: a move requested at a non-finite time jumps; sampling before the start or at NaN shows the start"
  )
  func badTimes() {
    var driver = SwipeDriver()
    driver.send(.show(.rightToLeft, animated: true, at: .nan))
    #expect(driver.state.animation == nil)
    #expect(driver.state.offset == -180)
    driver.send(.hide(animated: true, at: 5))
    #expect(driver.state.offset(at: 4) == -180, "a frame before the start shows the start")
    #expect(driver.state.offset(at: .nan) == -180)
    #expect(driver.state.offset(at: .infinity) == -180, "an infinite time counts as the start")
    #expect(driver.state.offset(at: 5.32) == 0)
    // A finish for another animation (a repeat, or an interrupted one) is ignored.
    let before = driver.state
    driver.send(.animationFinished(id: 99))
    #expect(driver.state == before)
    #expect(before.events.isEmpty)
    driver.finishAnimation()
    #expect(driver.state.offset == 0)
    #expect(driver.state.events == [.willEndSwiping, .stateChanged(.none, gestureActive: false)])
    let closed = driver.state
    driver.send(.animationFinished(id: 2))
    #expect(driver.state.events.isEmpty, "a second finish for the same animation changes nothing")
    #expect(driver.state.offset == closed.offset && driver.state.phase == closed.phase)
    #expect(
      driver.state.isOverlayShown == closed.isOverlayShown
        && driver.state.animationCount == closed.animationCount)
  }

  @Test("non-finite or negative durations end the move at once")
  func badDurations() {
    for duration in [Double.nan, -1, .infinity, 0] {
      var driver = SwipeDriver()
      driver.state.rightSettings.showAnimation.duration = duration
      driver.send(.show(.rightToLeft, animated: true, at: 3))
      #expect(driver.state.offset(at: 3) == -180, "\(duration)")
      #expect(driver.state.isAnimationFinished(at: 3), "\(duration)")
    }
  }

  @Test("negative offsets open the right side; negative widths count as zero")
  func negativeValues() {
    var driver = SwipeDriver(SwipeCellState(right: [SwipeButton(title: "X", width: -40)]))
    driver.send(.setOffset(-30, animated: false, at: 0))
    #expect(driver.state.containerWidth(.rightToLeft) == 0)
    // Zero-width buttons still exist: the cell shows them and releases back to 0.
    #expect(driver.state.phase == .swipingRightToLeft)
    #expect(driver.state.targetOffset == 0)
    driver.send(.setCellWidth(-5))
    #expect(driver.state.cellWidth == 0)
  }

  @Test("empty button lists: no pan begins, show and tap do nothing")
  func emptyButtons() {
    var driver = SwipeDriver(SwipeCellState())
    driver.pan(-80)
    #expect(driver.state.isGestureActive == false)
    driver.send(.show(.leftToRight, animated: false, at: 0))
    #expect(driver.state.offset == 0)
    #expect(driver.events.isEmpty)
    // Upstream quirk kept: a programmatic offset toward an empty side is stored (scaled by the bounce
    // rate) although nothing shows.
    driver.send(.setOffset(-30, animated: false, at: 0))
    #expect(driver.state.offset == -30)
    #expect(driver.state.isOverlayShown == false)
  }

  @Test("vertical pans and editing cells never begin")
  func refusedPans() {
    var driver = SwipeDriver()
    driver.send(.panBegan(translation: SwipeVector(x: -5, y: 9), at: 0))
    #expect(driver.state.isGestureActive == false)
    driver.send(.setEditing(true))
    driver.pan(-50)
    #expect(driver.state.isGestureActive == false)
  }

  @Test("swipe undo policies")
  func undoPolicies() {
    #expect(SwipeCellAction.panChanged(translation: .zero, at: 0).suggestedUndoPolicy == .ignore)
    #expect(
      SwipeCellAction.tapButton(index: 0, side: .rightToLeft, at: 0).suggestedUndoPolicy
        == .step(name: "Swipe Action"))
  }
}
