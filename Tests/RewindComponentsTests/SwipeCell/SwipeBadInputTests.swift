import Rewind
import RewindComponents
import Testing

@Suite("Swipe cell bad input")
struct SwipeBadInputTests {
  @Test("NaN and infinite translations are ignored")
  func nonFiniteTranslation() {
    var driver = SwipeDriver()
    driver.send(.panBegan(translation: SwipeVector(x: .nan)))
    #expect(driver.state.isGestureActive == false)
    driver.pan(-50)
    driver.send(.panChanged(translation: SwipeVector(x: .infinity)))
    driver.send(.panChanged(translation: SwipeVector(x: -.nan)))
    #expect(driver.state.offset == -50)
    driver.send(.setOffset(.nan, animated: false))
    driver.send(.setOffset(-.infinity, animated: true))
    #expect(driver.state.offset == -50)
  }

  @Test("NaN or infinite velocity counts as no flick")
  func nonFiniteVelocity() {
    var driver = SwipeDriver()
    driver.pan(-150)
    driver.release(velocity: .infinity)
    #expect(driver.state.animation?.to == -180)
  }

  @Test("NaN and infinite ticks are ignored; time going backwards counts as no time")
  func badTicks() {
    var driver = SwipeDriver()
    driver.send(.show(.rightToLeft, animated: true))
    driver.send(.tick(now: .nan))
    #expect(driver.state.animation?.start == nil)
    driver.send(.tick(now: 5))
    driver.send(.tick(now: 4))
    #expect(driver.state.offset == 0)
    driver.send(.tick(now: 5.5))
    #expect(driver.state.offset == -180)
  }

  @Test("negative offsets open the right side; negative widths count as zero")
  func negativeValues() {
    var driver = SwipeDriver(SwipeCellState(right: [SwipeButton(title: "X", width: -40)]))
    driver.send(.setOffset(-30, animated: false))
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
    driver.send(.show(.leftToRight, animated: false))
    #expect(driver.state.offset == 0)
    #expect(driver.events.isEmpty)
    // Upstream quirk kept: a programmatic offset toward an empty side is stored (scaled by the bounce
    // rate) although nothing shows.
    driver.send(.setOffset(-30, animated: false))
    #expect(driver.state.offset == -30)
    #expect(driver.state.isOverlayShown == false)
  }

  @Test("vertical pans and editing cells never begin")
  func refusedPans() {
    var driver = SwipeDriver()
    driver.send(.panBegan(translation: SwipeVector(x: -5, y: 9)))
    #expect(driver.state.isGestureActive == false)
    driver.send(.setEditing(true))
    driver.pan(-50)
    #expect(driver.state.isGestureActive == false)
  }

  @Test("swipe undo policies")
  func undoPolicies() {
    #expect(SwipeCellAction.panChanged(translation: .zero).suggestedUndoPolicy == .ignore)
    #expect(SwipeCellAction.tapButton(index: 0, side: .rightToLeft).suggestedUndoPolicy == .step(name: "Swipe Action"))
  }
}
