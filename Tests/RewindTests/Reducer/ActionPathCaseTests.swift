import Foundation
import Rewind
import Synchronization
import Testing

/// Counts the instances alive, to show that extracting a payload neither leaks nor over-releases it.
private let liveTrackers = Atomic<Int>(0)

private final class Tracker: Sendable {
  let name: String
  init(_ name: String) {
    self.name = name
    liveTrackers.add(1, ordering: .relaxed)
  }
  deinit { liveTrackers.subtract(1, ordering: .relaxed) }
}

private struct Row: Equatable, Sendable {
  var id: Int
  var title: String
  var isDone: Bool
}

private enum Child: Equatable, Sendable {
  case tap
  case set(Int)
  case rename(String)
}

private final class Reference: Sendable, Equatable {
  let value: Int
  init(_ value: Int) { self.value = value }
  static func == (lhs: Reference, rhs: Reference) -> Bool { lhs.value == rhs.value }
}

/// Every shape a case can take, and several that share a payload type.
private enum Shape: Equatable, Sendable {
  case plain(Int)
  case other(Int)
  case text(String)
  case rename(String)
  case labeled(id: Int)
  case labeledToo(id: Int)
  case select(id: Int)
  case select(name: String)
  case pair(Int, String)
  case move(from: Int, to: Int)
  case swap(Int, Int)
  case child(Child)
  case otherChild(Child)
  indirect case nested(Shape)
  case optional(Int?)
  case row(Row)
  case reference(Reference)
  case empty
  case emptyToo
}

/// The same shapes, each with a path written by hand: what the reflected path must agree with.
private enum Manual {
  static let plain = ActionPath<Shape, Int>(embed: Shape.plain) {
    if case .plain(let v) = $0 { v } else { nil }
  }
  static let other = ActionPath<Shape, Int>(embed: Shape.other) {
    if case .other(let v) = $0 { v } else { nil }
  }
  static let text = ActionPath<Shape, String>(embed: Shape.text) {
    if case .text(let v) = $0 { v } else { nil }
  }
  static let rename = ActionPath<Shape, String>(embed: Shape.rename) {
    if case .rename(let v) = $0 { v } else { nil }
  }
  static let labeled = ActionPath<Shape, Int>(embed: Shape.labeled) {
    if case .labeled(let v) = $0 { v } else { nil }
  }
  static let labeledToo = ActionPath<Shape, Int>(embed: Shape.labeledToo) {
    if case .labeledToo(let v) = $0 { v } else { nil }
  }
  static let child = ActionPath<Shape, Child>(embed: Shape.child) {
    if case .child(let v) = $0 { v } else { nil }
  }
  static let otherChild = ActionPath<Shape, Child>(embed: Shape.otherChild) {
    if case .otherChild(let v) = $0 { v } else { nil }
  }
  static let nested = ActionPath<Shape, Shape>(embed: Shape.nested) {
    if case .nested(let v) = $0 { v } else { nil }
  }
  static let optional = ActionPath<Shape, Int?>(embed: Shape.optional) {
    if case .optional(let v) = $0 { v } else { nil }
  }
  static let row = ActionPath<Shape, Row>(embed: Shape.row) { if case .row(let v) = $0 { v } else { nil } }
  static let reference = ActionPath<Shape, Reference>(embed: Shape.reference) {
    if case .reference(let v) = $0 { v } else { nil }
  }
}

private let samples: [Shape] = [
  .plain(1), .plain(-7), .other(1), .other(42), .text("a"), .text(String(repeating: "long ", count: 20)),
  .rename("a"), .labeled(id: 3), .labeledToo(id: 3), .select(id: 5), .select(name: "five"),
  .pair(1, "one"), .move(from: 1, to: 2), .swap(1, 2), .child(.tap), .child(.set(9)), .child(.rename("x")),
  .otherChild(.set(9)), .nested(.plain(1)), .nested(.nested(.child(.tap))), .optional(nil), .optional(0),
  .optional(8), .row(Row(id: 1, title: "Milk", isDone: false)), .row(Row(id: 2, title: "Eggs", isDone: true)),
  .reference(Reference(4)), .empty, .emptyToo,
]

@Suite struct ActionPathCaseTests {
  /// The reflected path extracts exactly what the hand-written one does, from every sample, the first
  /// time (reflecting) and after (from what it learned), and embeds what it extracts back into the sample.
  private func agree<Value: Equatable & Sendable>(
    _ reflected: ActionPath<Shape, Value>, _ manual: ActionPath<Shape, Value>,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for round in 0..<3 {
      for sample in samples {
        let expected = manual.extract(sample)
        let extracted = reflected.extract(sample)
        #expect(
          extracted == expected, "round \(round), \(sample): \(String(describing: extracted))",
          sourceLocation: sourceLocation)
        if let extracted { #expect(reflected.embed(extracted) == sample, sourceLocation: sourceLocation) }
      }
    }
  }

  @Test func extractsWhatAHandWrittenPathExtractsFromEveryShape() {
    agree(ActionPath(Shape.plain), Manual.plain)
    agree(ActionPath(Shape.other), Manual.other)
    agree(ActionPath(Shape.text), Manual.text)
    agree(ActionPath(Shape.rename), Manual.rename)
    agree(ActionPath(Shape.labeled), Manual.labeled)
    agree(ActionPath(Shape.labeledToo), Manual.labeledToo)
    agree(ActionPath(Shape.child), Manual.child)
    agree(ActionPath(Shape.otherChild), Manual.otherChild)
    agree(ActionPath(Shape.nested), Manual.nested)
    agree(ActionPath(Shape.optional), Manual.optional)
    agree(ActionPath(Shape.row), Manual.row)
    agree(ActionPath(Shape.reference), Manual.reference)
  }

  @Test func neverMatchesAnotherCaseWithTheSamePayloadType() {
    let plain = ActionPath(Shape.plain)
    let other = ActionPath(Shape.other)
    let labeled = ActionPath(Shape.labeled)
    let selectID = ActionPath(Shape.select(id:))
    for value in [0, 1, -1, Int.max] {
      for path in [plain, other, labeled, selectID] {
        #expect(path.extract(path.embed(value)) == value)
      }
      #expect(plain.extract(.other(value)) == nil)
      #expect(other.extract(.plain(value)) == nil)
      #expect(labeled.extract(.labeledToo(id: value)) == nil)
      #expect(selectID.extract(.labeled(id: value)) == nil)
    }
    #expect(ActionPath(Shape.text).extract(.rename("a")) == nil)
    #expect(ActionPath(Shape.rename).extract(.text("a")) == nil)
    #expect(ActionPath(Shape.child).extract(.otherChild(.tap)) == nil)
    #expect(ActionPath(Shape.select(name:)).extract(.text("five")) == nil)
  }

  /// Cases that share a base name (`select(id:)`, `select(name:)`) cannot be matched by hand (the pattern
  /// is ambiguous); the reflected path tells them apart.
  @Test func tellsApartCasesThatShareABaseName() {
    let byID = ActionPath(Shape.select(id:))
    let byName = ActionPath(Shape.select(name:))
    for _ in 0..<3 {
      #expect(byID.extract(.select(id: 5)) == 5)
      #expect(byID.extract(.select(name: "five")) == nil)
      #expect(byName.extract(.select(name: "five")) == "five")
      #expect(byName.extract(.select(id: 5)) == nil)
      for sample in samples where sample != .select(id: 5) && sample != .select(name: "five") {
        #expect(byID.extract(sample) == nil, "\(sample)")
        #expect(byName.extract(sample) == nil, "\(sample)")
      }
    }
    #expect(byID.embed(5) == .select(id: 5))
  }

  @Test func readsSeveralValuesAsATupleWhateverTheirLabels() {
    let pair = ActionPath(Shape.pair)
    let move = ActionPath(Shape.move)
    let swap = ActionPath(Shape.swap)
    for _ in 0..<3 {
      let extracted = pair.extract(.pair(3, "three"))
      #expect(extracted?.0 == 3 && extracted?.1 == "three")
      let moved = move.extract(.move(from: 4, to: 5))
      #expect(moved?.0 == 4 && moved?.1 == 5)
      #expect(move.extract(.swap(4, 5)) == nil, "same payload layout, another case")
      #expect(swap.extract(.move(from: 4, to: 5)) == nil)
      #expect(swap.extract(.swap(6, 7)).map { [$0.0, $0.1] } == [6, 7])
      #expect(pair.extract(.plain(3)) == nil)
    }
    #expect(move.embed((1, 2)) == .move(from: 1, to: 2))
  }

  @Test func casesWithoutPayloadNeverMatch() {
    let paths: [ActionPath<Shape, Int>] = [ActionPath(Shape.plain), ActionPath(Shape.labeled)]
    for path in paths {
      #expect(path.extract(.empty) == nil)
      #expect(path.extract(.emptyToo) == nil)
    }
  }

  @Test func readsGenericEnumsOptionalsAndVoidPayloads() {
    enum Generic<T: Sendable>: Sendable {
      case value(T)
      case another(T)
      case nothing
    }
    let value = ActionPath(Generic<String>.value)
    let another = ActionPath(Generic<String>.another)
    for _ in 0..<2 {
      #expect(value.extract(.value("a")) == "a")
      #expect(value.extract(.another("a")) == nil)
      #expect(another.extract(.another("b")) == "b")
      #expect(value.extract(.nothing) == nil)
    }
    #expect(ActionPath(Generic<Int>.value).extract(.value(7)) == 7)
    #expect(ActionPath(Generic<Int>.value).extract(.another(7)) == nil)

    let some = ActionPath<Child?, Child>(Optional.some)
    #expect(some.extract(.some(.set(1))) == .set(1))
    #expect(some.extract(nil) == nil)

    enum Signal: Sendable {
      case ping(Void)
      case pong(Void)
    }
    let ping = ActionPath(Signal.ping)
    #expect(ping.extract(.ping(())) != nil)
    #expect(ping.extract(.pong(())) == nil)

    enum One: Equatable, Sendable { case only }
    enum Parent: Equatable, Sendable {
      case first(One)
      case second(One)
      indirect case boxed(One)
    }
    for _ in 0..<2 {
      #expect(ActionPath(Parent.first).extract(.first(.only)) == .only)
      #expect(ActionPath(Parent.first).extract(.second(.only)) == nil)
      #expect(ActionPath(Parent.second).extract(.first(.only)) == nil)
      #expect(ActionPath(Parent.boxed).extract(.boxed(.only)) == .only)
      #expect(ActionPath(Parent.boxed).extract(.first(.only)) == nil)
    }
  }

  @Test func readsExistentialAndClassPayloadsByCasting() {
    enum Loose: Sendable {
      case any(any Sendable)
      case number(Int)
      case object(Reference)
    }
    let any = ActionPath(Loose.any)
    #expect(any.extract(.any(5)) as? Int == 5)
    #expect(any.extract(.any("five")) as? String == "five")
    #expect(any.extract(.number(5)) == nil)
    let object = ActionPath(Loose.object)
    let reference = Reference(3)
    #expect(object.extract(.object(reference)) === reference)
    #expect(object.extract(.any(reference)) == nil)
  }

  @Test func extractingNeitherLeaksNorOverReleasesPayloads() {
    enum Tracked: Sendable {
      case one(Tracker)
      case two(Tracker, String)
      case three(name: String, tracker: Tracker)
      indirect case boxed(Tracked)
    }
    let before = liveTrackers.load(ordering: .relaxed)
    do {
      let one = ActionPath(Tracked.one)
      let two = ActionPath(Tracked.two)
      let three = ActionPath(Tracked.three)
      let boxed = ActionPath(Tracked.boxed)
      for index in 0..<50 {
        let values: [Tracked] = [
          .one(Tracker("a\(index)")), .two(Tracker("b\(index)"), "x"),
          .three(name: "y", tracker: Tracker("c\(index)")), .boxed(.one(Tracker("d\(index)"))),
        ]
        for value in values {
          _ = one.extract(value)
          _ = two.extract(value)
          _ = three.extract(value)
          _ = boxed.extract(value)
        }
        #expect(one.extract(values[0])?.name == "a\(index)")
        #expect(two.extract(values[1])?.0.name == "b\(index)")
        #expect(three.extract(values[2])?.1.name == "c\(index)")
        if case .one(let tracker)? = boxed.extract(values[3]) { #expect(tracker.name == "d\(index)") }
      }
    }
    #expect(liveTrackers.load(ordering: .relaxed) == before)
  }

  @Test func pathsMadeConcurrentlyLearnTheSameCases() async {
    enum Wide: Equatable, Sendable {
      case a(Int), b(Int), c(String), d(String), e(Child), f(Child)
    }
    let values: [Wide] = [.a(1), .b(1), .c("1"), .d("1"), .e(.tap), .f(.tap)]
    await withTaskGroup(of: Bool.self) { group in
      for task in 0..<8 {
        group.addTask {
          let paths: [(Wide) -> Bool] = [
            { ActionPath(Wide.a).extract($0) == 1 }, { ActionPath(Wide.b).extract($0) == 1 },
            { ActionPath(Wide.c).extract($0) == "1" }, { ActionPath(Wide.d).extract($0) == "1" },
            { ActionPath(Wide.e).extract($0) == .tap }, { ActionPath(Wide.f).extract($0) == .tap },
          ]
          var right = true
          for round in 0..<20 {
            for (index, value) in values.enumerated().shuffled() {
              let which = (index + task + round) % paths.count
              right = right && paths[which](value) == (which == index)
            }
          }
          return right
        }
      }
      for await right in group { #expect(right) }
    }
  }

  @Test func composesWithScopeForEachAndAppending() {
    struct Counter: Reducer {
      enum Action: Equatable, Sendable { case add(Int) }
      func reduce(into state: inout Int, action: Action) -> Effect<Action> {
        if case .add(let amount) = action { state += amount }
        return .none
      }
    }
    struct Item: Identifiable, Equatable, Sendable {
      var id: Int
      var count = 0
    }
    struct App: Reducer {
      struct State: Equatable, Sendable {
        var counter = 0
        var items: IdentifiedArray<Item> = [Item(id: 1), Item(id: 2)]
      }
      enum Action: Equatable, Sendable {
        case counter(Counter.Action)
        case other(Counter.Action)
        case items(IdentifiedAction<Int, Counter.Action>)
      }
      var body: some Reducer<State, Action> {
        Scope(state: \.counter, action: .case(Action.counter)) { Counter() }
        Reduce { _, _ in .none }
          .forEach(\.items, action: ActionPath(Action.items)) {
            Scope(state: \Item.count, action: .identity) { Counter() }
          }
      }
    }
    let store = Store(initialState: App.State(), reducer: App())
    store.send(.counter(.add(2)))
    store.send(.other(.add(100)))
    store.send(.items(IdentifiedAction(id: 2, action: .add(5))))
    #expect(store.state.counter == 2)
    #expect(store.state.items[id: 2]?.count == 5)
    #expect(store.state.items[id: 1]?.count == 0)

    let element = ActionPath(App.Action.items).appending(.element(id: 2))
    #expect(element.extract(.items(IdentifiedAction(id: 2, action: .add(1)))) == .add(1))
    #expect(element.extract(.items(IdentifiedAction(id: 1, action: .add(1)))) == nil)
    #expect(element.embed(.add(3)) == .items(IdentifiedAction(id: 2, action: .add(3))))
  }
}
