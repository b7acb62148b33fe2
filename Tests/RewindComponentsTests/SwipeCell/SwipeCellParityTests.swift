import Foundation
import Rewind
import RewindComponents
import Testing

@Suite("MGSwipeTableCell parity")
struct SwipeCellParityTests {
  @Test("MG-1 container widths")
  func containerWidths() {
    var state = SwipeCellState.fixture
    #expect(state.containerWidth(.rightToLeft) == 180)
    state.rightSettings.allowsButtonsWithDifferentWidth = true
    #expect(state.containerWidth(.rightToLeft) == 150)
    state.rightSettings.buttonsDistance = 10
    #expect(state.containerWidth(.rightToLeft) == 160)
    state.rightSettings.allowsButtonsWithDifferentWidth = false
    #expect(state.containerWidth(.rightToLeft) == 190)
  }

  @Test("MG-2 bounce rates", arguments: [(1.0, true, -250.0), (0.4, true, -208.0), (1.0, false, -180.0)])
  func bounce(rate: Double, bounces: Bool, expected: Double) {
    var driver = SwipeDriver()
    driver.state.rightSettings.swipeBounceRate = rate
    driver.state.rightSettings.enableSwipeBounces = bounces
    driver.send(.setOffset(-250, animated: false, at: 0))
    #expect(approx(driver.state.offset, expected))
  }

  @Test("MG-3 left bounce rate 0.5")
  func leftBounce() {
    var driver = SwipeDriver()
    driver.state.leftSettings.swipeBounceRate = 0.5
    driver.send(.setOffset(100, animated: false, at: 0))
    #expect(driver.state.offset == 90)
  }

  @Test("MG-4 threshold is strict")
  func threshold() {
    var driver = SwipeDriver()
    driver.pan(-90)
    #expect(driver.state.targetOffset == 0)
    driver.move(to: -91)
    #expect(driver.state.targetOffset == -180)
    #expect(driver.state.phase == .swipingRightToLeft)
  }

  @Test("MG-5 release past the threshold opens with the show animation")
  func releaseOpens() {
    var driver = SwipeDriver()
    driver.pan(-91)
    driver.release()
    #expect(driver.state.animation?.to == -180)
    #expect(driver.state.animation?.animation.duration == 0.31)
    // Sampled as frames: the move starts where the finger let go and ends 0.31 s later.
    #expect(driver.state.offset(at: driver.now) == -91)
    #expect(driver.state.offset(at: driver.now + 0.31) == -180)
    #expect(driver.state.isAnimationFinished(at: driver.now + 0.31))
    driver.finishAnimation()
    #expect(driver.state.offset == -180)
    #expect(driver.events == [.willBeginSwiping, .stateChanged(.swipingRightToLeft, gestureActive: true)])
  }

  @Test("MG-6 release beyond the buttons uses the stretch animation")
  func releaseStretch() {
    var driver = SwipeDriver()
    driver.pan(-200)
    driver.release()
    #expect(driver.state.animation?.to == -180)
    #expect(driver.state.animation?.animation.duration == 0.33)
  }

  @Test("MG-8 a flick the other way closes with the hide animation")
  func flickCloses() {
    var driver = SwipeDriver()
    driver.pan(-150)
    driver.release(velocity: 150)
    #expect(driver.state.animation?.to == 0)
    #expect(driver.state.animation?.animation.duration == 0.32)
    driver.events = []
    #expect(driver.state.presentation(at: driver.now + 0.31).isOverlayShown)
    #expect(driver.state.presentation(at: driver.now + 0.32).isOverlayShown == false)
    driver.finishAnimation()
    #expect(driver.events == [.willEndSwiping, .stateChanged(.none, gestureActive: false)])
  }

  @Test("MG-9 keepButtonsSwiped off: a flick keeps the computed target 0")
  func spotifyStyle() {
    var driver = SwipeDriver()
    driver.state.rightSettings.keepButtonsSwiped = false
    driver.pan(-150)
    driver.release(velocity: -300)
    #expect(driver.state.animation?.to == 0)
  }

  @Test("MG-10 expansion starts strictly beyond S·1.3")
  func expansionThreshold() {
    var driver = SwipeDriver()
    driver.state.rightExpansion.buttonIndex = 0
    driver.pan(-234)
    #expect(driver.state.phase == .swipingRightToLeft)
    driver.move(to: -235)
    #expect(driver.state.phase == .expandingRightToLeft)
    #expect(driver.state.activeExpansion == .rightToLeft)
  }

  @Test("MG-11 release while expanding triggers the button", arguments: [false, true])
  func expansionRelease(fill: Bool) {
    var driver = SwipeDriver()
    driver.state.rightExpansion.buttonIndex = 0
    driver.state.rightExpansion.fillOnTrigger = fill
    driver.state.rightExpansion.triggerAnimation.duration = 0.25
    driver.pan(-235)
    driver.release()
    #expect(driver.state.animation?.to == (fill ? -320 : 0))
    #expect(driver.state.animation?.animation.duration == 0.25)
    driver.finishAnimation()
    let tap = SwipeEvent.buttonTapped(SwipeButtonTap(index: 0, direction: .rightToLeft, fromExpansion: true))
    #expect(driver.events.last == tap)
    if fill {
      #expect(driver.state.offset == -320)
      #expect(driver.state.phase == .expandingRightToLeft)
    } else {
      #expect(driver.state.offset == 0)
      #expect(driver.state.phase == SwipePhase.none)
    }
  }

  @Test("MG-12 without bounces expansion never triggers")
  func expansionNeedsBounces() {
    var driver = SwipeDriver()
    driver.state.rightExpansion.buttonIndex = 0
    driver.state.rightSettings.enableSwipeBounces = false
    driver.pan(-200, -400, -1000)
    #expect(driver.state.offset == -180)
    #expect(driver.state.phase == .swipingRightToLeft)
  }

  @Test("MG-13 border transition at t = 0.5")
  func border() {
    var driver = SwipeDriver()
    driver.pan(-90)
    let frames = SwipeGeometry.buttonFrames(driver.state, side: .rightToLeft)
    #expect(frames.map(\.index) == [1, 0])
    #expect(frames.map(\.x) == [0, 45])
  }

  @Test("MG-15 clipCenter at t = 0.5")
  func clipCenter() {
    var driver = SwipeDriver()
    driver.state.rightSettings.transition = .clipCenter
    driver.pan(-90)
    let frames = SwipeGeometry.buttonFrames(driver.state, side: .rightToLeft)
    #expect(frames.map(\.x) == [-23, 22])
    #expect(frames.map(\.mask) == Array(repeating: SwipeButtonFrame.Mask(x: 22.5, width: 45.5), count: 2))
  }

  @Test("MG-16 rotate3D hinge at t = 0.5")
  func rotate3D() throws {
    var driver = SwipeDriver()
    driver.state.rightSettings.transition = .rotate3D
    driver.pan(-90)
    let hinge = try #require(SwipeGeometry.hinge(driver.state, side: .rightToLeft))
    #expect(approx(hinge.angle, -Double.pi / 4))
    #expect(hinge.hingeX == 320)
    #expect(hinge.perspective == -0.0025)
  }

  @Test("MG-17 left side at o = +40: border, static, clipCenter")
  func leftTransitions() {
    let expected: [(SwipeTransition, Double)] = [(.border, 0), (.static, 40), (.clipCenter, 20)]
    for (transition, x) in expected {
      var driver = SwipeDriver()
      driver.state.leftSettings.transition = transition
      driver.pan(40)
      let frames = SwipeGeometry.buttonFrames(driver.state, side: .leftToRight)
      #expect(frames.map(\.x) == [x], "\(transition)")
      #expect(frames[0].mask == nil)
    }
  }

  @Test("MG-18 container translations with right.offset = 10")
  func containerOffset() {
    var driver = SwipeDriver()
    driver.state.rightSettings.offset = 10
    driver.pan(-90)
    #expect(SwipeGeometry.containerTranslation(driver.state, side: .rightToLeft) == -100)
    #expect(SwipeGeometry.containerTranslation(driver.state, side: .leftToRight) == -80)
  }

  @Test("MG-19 easing values at half time")
  func easing() {
    let expected: [Easing: Double] = [
      .linear: 50, .quadIn: 25, .quadOut: 75, .quadInOut: 50, .cubicIn: 12.5, .cubicOut: 87.5,
      .cubicInOut: 50, .bounceIn: 23.4375, .bounceOut: 76.5625, .bounceInOut: 50,
    ]
    for (easing, value) in expected {
      #expect(approx(easing.value(elapsed: 0.15, duration: 0.3, from: 0, to: 100), value), "\(easing)")
    }
    #expect(Easing(code: 42) == .cubicOut)
  }

  @Test("MG-21 hide animation sampled at 10.000, 10.150, 10.300; events only at its end")
  func hideFrames() {
    var driver = SwipeDriver()
    driver.state.rightSettings.hideAnimation.duration = 0.3
    driver.send(.show(.rightToLeft, animated: false, at: 0))
    driver.events = []
    // Upstream starts the animation at its first tick (10.000); here the start is the hide's own time.
    driver.send(.hide(animated: true, at: 10.000))
    #expect(driver.state.offset(at: 10.000) == -180)
    #expect(approx(driver.state.offset(at: 10.150), -22.5, 1e-6))
    #expect(driver.state.offset(at: 10.300) == 0)
    #expect(driver.state.isAnimationFinished(at: 10.299) == false)
    #expect(driver.state.isAnimationFinished(at: 10.300))
    #expect(driver.events.isEmpty)
    #expect(driver.state.animationEnd == 10.3)
    driver.finishAnimation()
    #expect(driver.state.offset == 0)
    #expect(driver.events == [.willEndSwiping, .stateChanged(.none, gestureActive: false)])
  }

  @Test("MG-22 opposite swipe off: crossing zero closes and stays closed")
  func noOppositeSwipe() {
    var driver = SwipeDriver()
    driver.state.allowsOppositeSwipe = false
    driver.pan(-30)
    driver.events = []
    driver.move(to: 20)
    #expect(driver.state.offset == 0)
    #expect(driver.events == [.willEndSwiping, .stateChanged(.none, gestureActive: true)])
    driver.move(to: 50)
    #expect(driver.state.offset == 0)
  }

  @Test("MG-23 opposite swipe on: a direct sign flip only changes the state")
  func oppositeSwipe() {
    var driver = SwipeDriver()
    driver.pan(-30)
    driver.events = []
    driver.move(to: 20)
    #expect(driver.events == [.stateChanged(.swipingLeftToRight, gestureActive: true)])
  }

  @Test("MG-24 canSwipe refuses the direction: the gesture does not begin")
  func canSwipeRefuses() {
    var driver = SwipeDriver(reducer: SwipeCell(canSwipe: { direction, _ in direction == .leftToRight }))
    driver.pan(-50)
    #expect(driver.state.isGestureActive == false)
    #expect(driver.state.offset == 0)
    #expect(driver.events.isEmpty)
  }

  @Test("MG-25 an open cell skips canSwipe")
  func openSkipsCanSwipe() {
    var driver = SwipeDriver(reducer: SwipeCell(canSwipe: { _, _ in false }))
    driver.send(.show(.rightToLeft, animated: false, at: 0))
    driver.send(.panBegan(translation: SwipeVector(x: 1), at: driver.now))
    #expect(driver.state.isGestureActive)
    driver.send(.panChanged(translation: SwipeVector(x: 81), at: driver.now))
    #expect(driver.state.offset == -100)
  }

  @Test("MG-26 a flick from zero opens the left side")
  func flickFromZero() {
    var driver = SwipeDriver()
    driver.pan(30, 0)
    #expect(driver.state.offset == 0)
    driver.release(velocity: 150)
    #expect(driver.state.animation?.to == 80)
  }

  @Test("MG-28 expand without fillOnTrigger is a no-op")
  func expandNoop() {
    var driver = SwipeDriver()
    let before = driver.state
    driver.send(.expand(.rightToLeft, at: driver.now))
    #expect(driver.state == before)
  }

  @Test("expand with fillOnTrigger: expanding on the final frame, then none; no tap")
  func expandPlays() {
    var driver = SwipeDriver()
    driver.state.rightExpansion.fillOnTrigger = true
    driver.state.rightExpansion.buttonIndex = 0
    driver.send(.expand(.rightToLeft, at: driver.now))
    #expect(driver.state.animation?.to == -468)
    // The overlay appears with the action that starts the move (upstream: on its first non-zero frame).
    #expect(driver.events == [.willBeginSwiping])
    #expect(driver.state.presentation(at: driver.now + 0.29).activeExpansion == .rightToLeft)
    #expect(
      driver.state.presentation(at: driver.now + 0.29).phase == SwipePhase.none, "reported only at the end")
    driver.finishAnimation()
    #expect(driver.state.offset == 0)
    #expect(
      driver.events == [
        .willBeginSwiping, .stateChanged(.expandingRightToLeft, gestureActive: false), .willEndSwiping,
        .stateChanged(.none, gestureActive: false),
      ])
  }

  @Test("MG-29 tap B: callback, then the handler; either auto-hide hides")
  func tapButton() {
    var state = SwipeCellState.fixture
    state.rightButtons[1].callbackAutoHide = false
    var driver = SwipeDriver(state, reducer: SwipeCell(tappedButton: { _ in true }))
    driver.send(.show(.rightToLeft, animated: false, at: 0))
    driver.events = []
    driver.send(.tapButton(index: 1, side: .rightToLeft, at: driver.now))
    #expect(
      driver.events == [
        .buttonCallback(index: 1, direction: .rightToLeft),
        .buttonTapped(SwipeButtonTap(index: 1, direction: .rightToLeft, fromExpansion: false)),
      ])
    #expect(driver.state.animation?.to == 0)
    #expect(driver.state.animation?.animation.duration == 0.32)
  }

  @Test("MG-30 reuse with delegate buttons resets settings and forced flags")
  func reuse() {
    var driver = SwipeDriver()
    driver.state.rightSettings.threshold = 0.8
    driver.state.allowsOppositeSwipe = false
    driver.state.allowsMultipleSwipe = true
    driver.send(.show(.rightToLeft, animated: false, at: 0))
    driver.events = []
    driver.send(.prepareForReuse(resetsConfiguration: true))
    #expect(driver.state.rightSettings.threshold == 0.5)
    #expect(driver.state.allowsOppositeSwipe)
    #expect(driver.state.allowsMultipleSwipe)
    #expect(driver.state.rightButtons.isEmpty)
    #expect(driver.events == [.willEndSwiping, .stateChanged(.none, gestureActive: false)])
  }

  @Test("MG-32 corrected: a pan interrupting an animation still reports state changes")
  func interruptedAnimationReports() {
    var driver = SwipeDriver()
    driver.send(.show(.rightToLeft, animated: false, at: 0))
    driver.send(.hide(animated: true, at: 1))
    let mid = driver.state.offset(at: 1.1)
    #expect(mid < 0 && mid > -180)
    driver.events = []
    // The finger catches the cell where the frame at 1.1 showed it.
    driver.send(.panBegan(translation: SwipeVector(x: 1), at: 1.1))
    #expect(driver.state.animation == nil)
    #expect(driver.state.offset == mid)
    driver.send(.panChanged(translation: SwipeVector(x: 1 - mid + 20), at: driver.now))
    // Upstream stays silent here until a later animation completes.
    #expect(driver.events == [.stateChanged(.swipingLeftToRight, gestureActive: true)])
  }

  @Test("1.12 sequence 2: close by tapping the content")
  func tapContentCloses() {
    var driver = SwipeDriver()
    driver.send(.show(.rightToLeft, animated: false, at: 0))
    driver.events = []
    driver.send(.tapContent(location: SwipeVector(x: 10, y: 10), at: driver.now))
    #expect(driver.events.isEmpty)
    #expect(driver.state.animation?.to == 0)
    driver.finishAnimation()
    #expect(driver.events == [.willEndSwiping, .stateChanged(.none, gestureActive: false)])
  }

  @Test("release snapping policy (LLSwipeCell) on a swipe cell")
  func snappingPolicy() {
    for (offset, velocity, target) in [(-51.0, 0.0, -180.0), (-50, -900, 0), (51, 0, 80), (50, 900, 0)] {
      var driver = SwipeDriver(reducer: SwipeCell(releasePolicy: .scrollSnapping))
      driver.pan(offset)
      driver.release(velocity: velocity)
      #expect(driver.state.animation?.to == target, "\(offset)")
    }
  }
}
