import Rewind
import RewindComponents
import Testing

@Suite("LLSwipeCell parity")
struct ScrollSwipeParityTests {
  let layout = ScrollSwipeLayout(leftWidths: [40, 60], rightWidths: [70, 80])

  func cell(at x: Double? = nil) -> ScrollSwipeCellState {
    var state = ScrollSwipeCellState(layout: layout)
    if let x { _ = ScrollSwipeCell().reduce(into: &state, action: .dragged(x: x)) }
    return state
  }

  @Test("LL-1 right-side release targets")
  func rightTargets() {
    #expect([151.0, 150, 100, 260].map(layout.releaseTarget) == [250, 100, 100, 250])
  }

  @Test("LL-2 left-side release targets")
  func leftTargets() {
    #expect([49.0, 50, -10].map(layout.releaseTarget) == [0, 100, 0])
  }

  @Test("LL-3 explicit animation only above 0.1 pt/ms")
  func releaseVelocity() {
    #expect(layout.release(x: 151, velocityPointsPerMillisecond: 0.05).animatedExplicitly == false)
    #expect(
      layout.release(x: 151, velocityPointsPerMillisecond: 0.2)
        == ScrollSwipeRelease(target: 250, animatedExplicitly: true))
    #expect(layout.release(x: 151, velocityPointsPerMillisecond: -0.2).target == 250)
  }

  @Test("LL-4 corrected: L = 40, release at 45 closes instead of opening left")
  func asymmetryFixed() {
    let narrow = ScrollSwipeLayout(leftWidths: [40], rightWidths: [150])
    #expect(narrow.releaseTarget(x: 45) == 40)
    #expect(narrow.releaseTarget(x: -11) == 0)
  }

  @Test("LL-7 left progress and trailing constants")
  func leftTrailings() {
    #expect(layout.leftProgress(x: 50) == 0.5)
    #expect(layout.leftTrailings(x: 50) == [-30, 0])
  }

  @Test("LL-8 progress at rest positions")
  func progress() {
    #expect(
      [0.0, 100, 250].map { [layout.rightProgress(x: $0), layout.leftProgress(x: $0)] } == [
        [0, 1], [0, 0], [1, 0],
      ])
    #expect(ScrollSwipeLayout(leftWidths: [], rightWidths: []).rightProgress(x: 10) == 1)
    #expect(layout.rightLeadings(x: 250) == [0, 70])
  }

  @Test("LL-9 overscroll pinning")
  func overscroll() {
    #expect(layout.leftContainerLeading(x: -20) == -20)
    #expect(layout.rightContainerTrailing(x: 270) == 20)
  }

  @Test("LL-10 canOpenRightButtons false blocks a drag from closed")
  func gating() {
    var state = ScrollSwipeCellState(layout: layout)
    state.canOpenRightButtons = false
    _ = ScrollSwipeCell().reduce(into: &state, action: .dragged(x: 120))
    #expect(state.contentOffset == 100)
    #expect(state.showsRightButtons == false)
    #expect(state.scrollRequest == ScrollSwipeRequest(x: 100, animated: false))
  }

  @Test("LL-11 an already open side can be dragged")
  func openSideDrags() {
    var state = ScrollSwipeCellState(layout: layout)
    state.canOpenRightButtons = false
    _ = ScrollSwipeCell().reduce(into: &state, action: .expandRight(animated: true))
    _ = ScrollSwipeCell().reduce(into: &state, action: .dragged(x: 200))
    #expect(state.contentOffset == 200)
    #expect(state.showsRightButtons)
  }

  @Test("LL-12 a table pan closes every open cell, animated")
  func tablePan() {
    var cells = [cell(at: 0), cell(at: 250), cell(at: 180)]
    for index in cells.indices { _ = ScrollSwipeCell().reduce(into: &cells[index], action: .tablePanned) }
    #expect(cells.map(\.contentOffset) == [100, 100, 100])
    #expect(
      cells.map(\.scrollRequest) == Array(repeating: ScrollSwipeRequest(x: 100, animated: true), count: 3))
  }

  @Test("release through the reducer, and bad input")
  func reducerRelease() {
    var state = cell(at: 30)
    _ = ScrollSwipeCell().reduce(into: &state, action: .dragged(x: .nan))
    #expect(state.contentOffset == 30)
    _ = ScrollSwipeCell().reduce(into: &state, action: .dragEnded(velocityPointsPerMillisecond: .infinity))
    #expect(state.contentOffset == 0)
    #expect(state.showsLeftButtons)
    #expect(ScrollSwipeLayout(leftWidths: [-5, .nan], rightWidths: []).leftWidth == 0)
  }
}
