// The SwiftUI shim: animations and `Binding`s over the platform-neutral ViewTransaction and StoreBinding.
// Apple platforms only; it cannot be compiled on Linux (Scripts/check.sh parses it).
#if canImport(SwiftUI)
  import SwiftUI

  extension ViewTransaction {
    /// View updates applied inside SwiftUI's `withAnimation(animation)`.
    public static func animation(_ animation: Animation?) -> ViewTransaction {
      ViewTransaction { updates in withAnimation(animation) { updates() } }
    }
  }

  extension ScopedStore {
    /// Sends `action`; the view updates it causes are animated with `animation`.
    ///
    /// Use this rather than `withAnimation { store.send(action) }`: views are told of a send on the main
    /// actor after the send returns, outside that closure.
    @discardableResult
    public func send(_ action: Action, animation: Animation?) -> StoreTask {
      send(action, transaction: .animation(animation))
    }

    /// A binding to the value at `keyPath` whose writes send `toAction(newValue)`, animated like the write.
    ///
    /// ```swift
    /// TextField("Search", text: store.binding(\.query, send: Search.Action.queryChanged))
    /// ```
    public func binding<Value: Sendable>(
      _ keyPath: KeyPath<State, Value> & Sendable, send toAction: @escaping @Sendable (Value) -> Action
    ) -> Binding<Value> {
      let binding: StoreBinding<Value> = self.binding(keyPath, send: toAction)
      return Binding(binding)
    }

    /// A binding to the `Equatable` value at `keyPath` whose writes send `toAction(newValue)`.
    public func binding<Value: Equatable & Sendable>(
      _ keyPath: KeyPath<State, Value> & Sendable, send toAction: @escaping @Sendable (Value) -> Action
    ) -> Binding<Value> {
      let binding: StoreBinding<Value> = self.binding(keyPath, send: toAction)
      return Binding(binding)
    }
  }

  extension Binding {
    /// A binding that reads `binding`'s store and sends its action on each write, in the write's animation.
    public init(_ binding: StoreBinding<Value>) {
      self.init(
        get: { binding.value },
        set: { newValue, transaction in
          let animation = transaction.disablesAnimations ? nil : transaction.animation
          binding.send(newValue, transaction: animation.map { ViewTransaction.animation($0) })
        })
    }
  }
#endif
