import Foundation
import Testing

@testable import RewindComponents

/// Layout details beyond the parity table.
@Suite("Carousel layout")
struct CarouselLayoutTests {
  @Test("Depth order: Cover Flow puts the centre item in front")
  func coverFlowDepth() throws {
    var harness = CarouselHarness(type: .coverFlow)
    harness.send(.reload(count: 10, at: 0))
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

  @Test("Vertical layouts swap x and y, and rotate about −x")
  func verticalRotations() {
    var state = CarouselHarness(type: .cylinder).state
    state.properties.isVertical = true
    let horizontal = CarouselHarness(type: .cylinder).state.transform(forOffset: 1)
    let cylinder = state.transform(forOffset: 1)
    #expect(
      close(cylinder.m41, 0) && close(cylinder.m42, horizontal.m41) && close(cylinder.m43, horizontal.m43))
    #expect(close(cylinder.m33, horizontal.m33))
    state.type = .wheel
    let wheel = state.transform(forOffset: 1)
    let r = 200 * 10 / (2 * Double.pi)
    let theta = 2 * Double.pi / 10
    #expect(
      close(wheel.m41, r * cos(theta) - r) && close(wheel.m42, r * sin(theta)) && close(wheel.m43, 0.01))
    state.type = .coverFlow
    let cover = state.transform(forOffset: 0.5)
    #expect(close(cover.m41, 0) && close(cover.m42, 70) && close(cover.m43, -50))
    state.type = .timeMachine
    let machine = state.transform(forOffset: -2)
    #expect(close(machine.m41, 0) && close(machine.m42, -120) && close(machine.m43, -400))
  }

  @Test("Custom layout uses the reducer's transform, or the base without one")
  func custom() {
    var harness = CarouselHarness(type: .custom)
    harness.reducer = CarouselReducer(customTransform: { offset, base in
      base.translated(x: offset * 10, y: 0, z: 0)
    })
    harness.send(.reload(count: 10, at: 0))
    harness.place(at: 0)
    let items = harness.reducer.layout(of: harness.state)
    #expect(items.first { $0.index == 2 }?.transform.m41 == 20)
    #expect(harness.state.layout().allSatisfy { $0.transform == harness.state.baseTransform })
  }

  @Test("Every type lays out finite transforms", arguments: CarouselType.allCases)
  func everyType(type: CarouselType) {
    var harness = CarouselHarness(type: type, count: 20)
    harness.send(.reload(count: 20, at: 0))
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
    harness.send(.reload(count: 10, at: 0))
    #expect(harness.state.scrollAnimation != nil)
    let data = try JSONEncoder().encode(harness.state)
    #expect(try JSONDecoder().decode(CarouselState.self, from: data) == harness.state)
    let actions: [CarouselAction] = [
      .dragEnded(translation: -3, velocity: 2, at: 1.5), .animationFinished(id: 4), .layout(at: 2),
    ]
    #expect(try JSONDecoder().decode([CarouselAction].self, from: JSONEncoder().encode(actions)) == actions)
  }

}
