/// A value of a store's state and the action that changes it: a two-way binding without a setter.
///
/// Reading ``value`` reads the store (and is observed like any read of that path); ``send(_:)`` sends the
/// action made from the new value. A write is an ordinary action: recorded, replayed and audited like any
/// other, and reduced by the app's reducer, which decides what the state becomes. The SwiftUI shim turns
/// one into a `Binding` (`store.binding(\.query, send: Action.queryChanged)` where a `Binding` is expected).
public struct StoreBinding<Value>: Sendable {
  private let getValue: @Sendable () -> Value
  private let sendValue: @Sendable (Value, ViewTransaction?) -> StoreTask

  /// Creates a binding from a reading and a sending function.
  public init(
    get: @escaping @Sendable () -> Value, send: @escaping @Sendable (Value, ViewTransaction?) -> StoreTask
  ) {
    self.getValue = get
    self.sendValue = send
  }

  /// The current value, read from the store.
  public var value: Value { getValue() }

  /// Sends the action that sets `newValue`.
  @discardableResult
  public func send(_ newValue: Value) -> StoreTask { sendValue(newValue, nil) }

  /// Sends the action that sets `newValue`; the view updates it causes are applied inside `transaction`.
  @discardableResult
  public func send(_ newValue: Value, transaction: ViewTransaction?) -> StoreTask {
    sendValue(newValue, transaction)
  }
}

extension ScopedStore {
  /// A binding to the value at `keyPath`, whose writes send `toAction(newValue)`.
  ///
  /// ```swift
  /// let query = store.binding(\.query, send: Search.Action.queryChanged)
  /// query.send("rewind")  // an ordinary action, in the log
  /// ```
  public func binding<Value: Sendable>(
    _ keyPath: KeyPath<State, Value> & Sendable, send toAction: @escaping @Sendable (Value) -> Action
  ) -> StoreBinding<Value> {
    makeBinding(keyPath, equal: nil, send: toAction)
  }

  /// A binding to the `Equatable` value at `keyPath`, whose writes send `toAction(newValue)`; reads are
  /// observed with `==`.
  public func binding<Value: Equatable & Sendable>(
    _ keyPath: KeyPath<State, Value> & Sendable, send toAction: @escaping @Sendable (Value) -> Action
  ) -> StoreBinding<Value> {
    makeBinding(keyPath, equal: ==, send: toAction)
  }

  private func makeBinding<Value: Sendable>(
    _ keyPath: KeyPath<State, Value> & Sendable, equal: (@Sendable (Value, Value) -> Bool)?,
    send toAction: @escaping @Sendable (Value) -> Action
  ) -> StoreBinding<Value> {
    StoreBinding(
      get: { [self] in read(keyPath, equal: equal) },
      send: { [self] newValue, transaction in
        guard let transaction else { return send(toAction(newValue)) }
        return send(toAction(newValue), transaction: transaction)
      })
  }
}
