import Foundation
import Rewind
import Synchronization
import Testing

/// A dependency for these tests: a greeting, "live" unless overridden.
enum GreetingKey: DependencyKey {
  static let liveValue = "live"
  static let testValue = "test"
}

/// A dependency that counts how often its live value is made.
enum CountedKey: DependencyKey {
  static let made = Atomic<Int>(0)
  static var liveValue: Int { made.add(1, ordering: .relaxed).newValue }
}

/// A dependency without a test value.
enum NoTestValueKey: DependencyKey {
  static let liveValue = 1
}

extension DependencyValues {
  var greeting: String {
    get { self[GreetingKey.self] }
    set { self[GreetingKey.self] = newValue }
  }
}

/// Three levels: an app scoping a feature, which presents an optional child. Each level's `.greet` starts
/// an effect that reports the greeting it sees, tagged with its level.
enum Greeter {
  struct State: Equatable, Sendable {
    var heard: [String] = []
    var feature = FeatureState()
  }

  struct FeatureState: Equatable, Sendable {
    var heard: [String] = []
    var child: ChildState? = ChildState()
  }

  struct ChildState: Equatable, Sendable { var heard: [String] = [] }

  enum Action: Equatable, Sendable {
    case greet, heard(String), feature(FeatureAction)
    static let featurePath = ActionPath<Action, FeatureAction>(
      embed: Action.feature, extract: { if case .feature(let a) = $0 { a } else { nil } })
  }

  enum FeatureAction: Equatable, Sendable {
    case greet, heard(String), child(ChildAction)
    static let childPath = ActionPath<FeatureAction, ChildAction>(
      embed: FeatureAction.child, extract: { if case .child(let a) = $0 { a } else { nil } })
  }

  enum ChildAction: Equatable, Sendable { case greet, heard(String) }

  static func reportGreeting<A: Sendable>(_ heard: @escaping @Sendable (String) -> A) -> Effect<A> {
    .run { send in
      @Dependency(\.greeting) var greeting
      send(heard(greeting))
    }
  }

  struct Child: Reducer {
    func reduce(into state: inout ChildState, action: ChildAction) -> Effect<ChildAction> {
      switch action {
      case .greet: return reportGreeting(ChildAction.heard)
      case .heard(let greeting): state.heard.append(greeting)
      }
      return .none
    }
  }

  struct Feature: Reducer {
    let childGreeting: String?

    var body: some Reducer<FeatureState, FeatureAction> {
      Reduce<FeatureState, FeatureAction> { state, action in
        switch action {
        case .greet: return reportGreeting(FeatureAction.heard)
        case .heard(let greeting): state.heard.append(greeting)
        case .child: break
        }
        return .none
      }
      .ifLet(\.child, action: FeatureAction.childPath) {
        if let childGreeting {
          Child().dependency(\.greeting, childGreeting)
        } else {
          Child()
        }
      }
    }
  }

  struct App: Reducer {
    var featureGreeting: String?
    var childGreeting: String?

    var body: some Reducer<State, Action> {
      Reduce<State, Action> { state, action in
        switch action {
        case .greet: return reportGreeting(Action.heard)
        case .heard(let greeting): state.heard.append(greeting)
        case .feature: break
        }
        return .none
      }
      Scope(state: \.feature, action: Action.featurePath) {
        if let featureGreeting {
          Feature(childGreeting: childGreeting).dependency(\.greeting, featureGreeting)
        } else {
          Feature(childGreeting: childGreeting)
        }
      }
    }
  }
}

@Suite(.timeLimit(.minutes(1))) struct DependencyTests {
  private func greetEveryLevel(_ store: Store<Greeter.State, Greeter.Action>) async -> [String] {
    store.send(.greet)
    store.send(.feature(.greet))
    store.send(.feature(.child(.greet)))
    await store.waitForEffects()
    let state = store.state
    return state.heard + state.feature.heard + (state.feature.child?.heard ?? [])
  }

  @Test func effectsSeeTheLiveValueByDefault() async {
    let store = Store(initialState: Greeter.State(), reducer: Greeter.App())
    #expect(await greetEveryLevel(store) == ["live", "live", "live"])
  }

  @Test func theStoreOverridesForEveryEffect() async {
    let store = Store(
      initialState: Greeter.State(), reducer: Greeter.App(), dependencies: { $0.greeting = "store" })
    #expect(await greetEveryLevel(store) == ["store", "store", "store"])
  }

  @Test func overridesNestAndTheDeepestWinsThreeLevelsDown() async {
    let store = Store(
      initialState: Greeter.State(), reducer: Greeter.App(featureGreeting: "feature", childGreeting: "child"),
      dependencies: { $0.greeting = "store" })
    #expect(await greetEveryLevel(store) == ["store", "feature", "child"])
  }

  @Test func anOverrideThreeLevelsDownLeavesTheLevelsAboveAlone() async {
    let store = Store(initialState: Greeter.State(), reducer: Greeter.App(childGreeting: "child"))
    #expect(await greetEveryLevel(store) == ["live", "live", "child"])
  }

  @Test func aStoreInTheTestContextStartsFromTestValues() async {
    let store = Store(
      initialState: Greeter.State(), reducer: Greeter.App(), dependencies: { $0.context = .test })
    #expect(await greetEveryLevel(store) == ["test", "test", "test"])
  }

  /// While it reduces, a reducer reads its store's values (those its recorded draws come from), with the
  /// overrides of the reducers around it; outside a reduce, the task's.
  @Test func reducersSeeTheStoresDependenciesWhileReducing() async {
    let seenWhileReducing = Locked<[String]>([])
    let reducer = Reduce<Int, Bool> { count, _ in
      seenWhileReducing.withLock { $0.append(DependencyValues.current.greeting) }
      count += 1
      return .none
    }
    let store = Store(initialState: 0, reducer: reducer, dependencies: { $0.greeting = "store" })
    store.send(false)
    let overridden = Store(
      initialState: 0, reducer: reducer.dependency(\.greeting, "reducer"),
      dependencies: { $0.greeting = "store" })
    overridden.send(false)
    #expect(seenWhileReducing.withLock { $0 } == ["store", "reducer"])
    #expect(DependencyValues.current.greeting == "live", "outside a reduce, the task's values")
  }

  @Test func aLiveValueIsMadeOncePerStore() async {
    let reads = Locked<[Int]>([])
    let store = Store(
      initialState: 0,
      reducer: Reduce<Int, Bool> { _, _ in
        .run { _ in
          @Dependency(CountedKey.self) var counted
          reads.withLock { $0.append(counted) }
        }
      })
    let before = CountedKey.made.load(ordering: .relaxed)
    for _ in 0..<5 { store.send(true) }
    await store.waitForEffects()
    let values = reads.withLock { $0 }
    #expect(values.count == 5)
    #expect(Set(values).count == 1, "every effect of one store sees the same live value: \(values)")
    #expect(CountedKey.made.load(ordering: .relaxed) - before == 1)
  }

  @Test func aKeyWithoutATestValueIsReportedByNameInATest() async {
    let log = DiagnosticLog()
    let store = Store(
      initialState: 0,
      reducer: Reduce<Int, Bool> { _, _ in
        .run { _ in
          @Dependency(NoTestValueKey.self) var value
          _ = value
        }
      }, diagnostics: log.record, dependencies: { $0.context = .test })
    store.send(true)
    await store.waitForEffects()
    #expect(log.all.map(\.kind) == [.dependencyUnimplemented])
    #expect(log.all.first?.message.contains("NoTestValueKey has no testValue") == true)
  }

  @Test func anUnimplementedEndpointReportsItsNameOnceAndThrows() async {
    struct Server: Sendable { var fetch: @Sendable (String) async throws -> Int }
    let log = DiagnosticLog()
    let fetch: @Sendable (String) async throws -> Int = unimplemented("Server.fetch")
    let server = Server(fetch: fetch)
    let caught = Locked<(any Error)?>(nil)
    let store = Store(
      initialState: 0,
      reducer: Reduce<Int, Bool> { _, _ in
        .run { _ in
          do { _ = try await server.fetch("inbox") } catch {
            caught.withLock { $0 = error }
            throw error
          }
        }
      }, diagnostics: log.record)
    store.send(true)
    await store.waitForEffects()
    #expect(log.all.map(\.kind) == [.dependencyUnimplemented], "reported once, not also as effectFailed")
    #expect(log.all.first?.message.contains("Server.fetch") == true)
    #expect(
      caught.withLock { $0 } as? UnimplementedDependencyError
        == UnimplementedDependencyError(name: "Server.fetch"))
  }

  @Test func anUnimplementedEndpointWithAPlaceholderReturnsIt() async {
    let log = DiagnosticLog()
    let count: @Sendable (Int, String) -> Int = unimplemented("Counter.count", placeholder: -1)
    let store = Store(
      initialState: 0,
      reducer: Reduce<Int, Int> { state, action in
        if action != 0 {
          state = action
          return .none
        }
        return .run { send in send(count(1, "x")) }
      }, diagnostics: log.record)
    store.send(0)
    await store.waitForEffects()
    #expect(store.state == -1)
    #expect(log.all.map(\.message) == ["Unimplemented: Counter.count was called"])
  }

  @Test func effectsReadTheStoresJournal() async throws {
    let seen = Locked<[UInt64]>([])
    let store = Store(
      initialState: 0,
      reducer: Reduce<Int, Int> { state, action in
        state += action
        guard action == 0 else { return .none }
        return .run { _ in
          let journal = DependencyValues.current.journal(of: Int.self)
          let wrongType = DependencyValues.current.journal(of: String.self)
          seen.withLock { $0 = [journal?.lastSequence ?? 99, wrongType == nil ? 0 : 1] }
        }
      })
    store.send(5)
    store.send(0)
    await store.waitForEffects()
    #expect(seen.withLock { $0 } == [2, 0])
    #expect(DependencyValues.current.journal(of: Int.self) == nil, "no journal outside a store's effect")
  }

  @Test func theReadyMadeGenerators() async {
    let uuid = UUIDGenerator.incrementing
    #expect(uuid().uuidString == "00000000-0000-0000-0000-000000000000")
    #expect(uuid().uuidString == "00000000-0000-0000-0000-000000000001")
    #expect(UUIDGenerator.incrementing().uuidString == "00000000-0000-0000-0000-000000000000")
    let date = Date(timeIntervalSince1970: 1_000)
    #expect(DateGenerator.constant(date)() == date)
    #expect(DateGenerator.constant(date).now == date)
    #expect(DependencyValues().clock is ContinuousClock)
    #expect(DependencyValues(context: .test).clock is ContinuousClock == false)
  }

  @Test func withDependenciesChangesTheValuesForItsOperation() async {
    let inside = await withDependencies {
      $0.greeting = "scoped"
    } operation: {
      await Task.yield()
      return DependencyValues.current.greeting
    }
    #expect(inside == "scoped")
    #expect(DependencyValues.current.greeting == "live")
    let nested = withDependencies {
      $0.greeting = "outer"
    } operation: {
      withDependencies {
        $0.greeting += "+inner"
      } operation: {
        DependencyValues.current.greeting
      }
    }
    #expect(nested == "outer+inner")
  }

  @Test func childTasksOfAnEffectInheritItsValues() async {
    let store = Store(
      initialState: [String](),
      reducer: Reduce<[String], String> { state, action in
        if action != "go" {
          state.append(action)
          return .none
        }
        return .run { send in
          let child = await Task { DependencyValues.current.greeting }.value
          send(child)
        }
      }, dependencies: { $0.greeting = "store" })
    store.send("go")
    await store.waitForEffects()
    #expect(store.state == ["store"])
  }
}
