import Rewind

extension TestStore {
  /// Opens a transaction through the store (see `Store.beginTransaction(_:from:)`) and asserts the state
  /// change (none, unless `assert` says otherwise).
  public func beginTransaction(
    _ name: String, from origin: Origin = .user,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column,
    assert update: ((inout State) throws -> Void)? = nil
  ) {
    let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    prepareForOwnEvent(what: "beginning transaction \"\(name)\"", location)
    store.beginTransaction(name, from: origin)
    assertOwnEvent(what: "beginning transaction \"\(name)\"", location, update)
  }

  /// Closes the innermost open transaction through the store and asserts the state change.
  public func endTransaction(
    from origin: Origin = .user,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column,
    assert update: ((inout State) throws -> Void)? = nil
  ) {
    let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    prepareForOwnEvent(what: "ending a transaction", location)
    store.endTransaction(from: origin)
    assertOwnEvent(what: "ending a transaction", location, update)
  }

  /// Records a mark through the store (see `Store.mark(_:from:)`) and asserts the state change (none).
  public func mark(
    _ name: String, from origin: Origin = .user,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column,
    assert update: ((inout State) throws -> Void)? = nil
  ) {
    let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    prepareForOwnEvent(what: "marking \"\(name)\"", location)
    store.mark(name, from: origin)
    assertOwnEvent(what: "marking \"\(name)\"", location, update)
  }
}
