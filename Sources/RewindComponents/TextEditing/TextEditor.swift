import Foundation
import Rewind

/// The text editing reducer: MetaCellKit's begin / change / end / commit / cancel, input limits,
/// validation, character count and auto-save, over ``TextEditState``.
///
/// Validation rules and the delegate's answers are configuration here, never state.
///
/// Auto-save is a timer effect on the clock dependency (`DependencyValues.clock`), started by `begin`
/// and cancelled by the end of the session: each time it fires it sends
/// ``TextEditAction/autoSaveFired(session:)``, an event caused by the `begin` event. No display frame or
/// tick is involved.
public struct TextEditor: Reducer, Sendable {
  /// The rules, in order; the first failing one is reported.
  public var rules: [ValidationRule]
  /// Whether Return ends editing (`cellShouldReturn`); default true.
  public var shouldReturn: @Sendable (String) -> Bool
  /// Whether an auto-save of the text may happen (`cellShouldAutoSave`); default true.
  public var shouldAutoSave: @Sendable (String) -> Bool

  /// Creates the reducer.
  public init(
    rules: [ValidationRule] = [],
    shouldReturn: @escaping @Sendable (String) -> Bool = { _ in true },
    shouldAutoSave: @escaping @Sendable (String) -> Bool = { _ in true }
  ) {
    self.rules = rules
    self.shouldReturn = shouldReturn
    self.shouldAutoSave = shouldAutoSave
  }

  struct AutoSaveID: Hashable, Sendable { var editorID: String }

  /// Applies `action` to `state`; see the type's documentation for the rules.
  public func reduce(into state: inout TextEditState, action: TextEditAction) -> Effect<TextEditAction> {
    state.events.removeAll(keepingCapacity: true)
    // Without a delegate nobody hears the callbacks; the reuse that detaches it is still heard.
    let delegateHears = state.isDelegateAttached
    defer { if !delegateHears { state.events.removeAll() } }
    switch action {
    case .begin:
      return begin(&state)
    case .focus:
      state.session?.isFocused = true
      return .none
    case .setText(let text):
      guard state.session != nil else {
        state.title = text
        return .none
      }
      state.session?.text = text
      state.events.append(.didChangeText(text))
      return .none
    case .input(let location, let length, let replacement):
      return input(&state, location: location, length: length, replacement: replacement)
    case .end:
      return end(&state)
    case .commit:
      return commit(&state)
    case .cancel:
      return cancel(&state)
    case .resumeAutoSave:
      guard let session = state.session else { return .none }
      return autoSaveTimer(state, session: session.id)
    case .autoSaveFired(let session):
      guard state.session?.id == session, state.configuration.validAutoSaveInterval != nil else {
        return .none
      }
      autoSave(&state)
      return .none
    case .prepareForReuse:
      let effect = cancel(&state)
      state.title = ""
      state.isDelegateAttached = false
      return effect
    case .attachDelegate:
      state.isDelegateAttached = true
      return .none
    }
  }

  func begin(_ state: inout TextEditState) -> Effect<TextEditAction> {
    guard state.session == nil, state.configuration.isEditingEnabled else { return .none }
    state.sessionCount &+= 1
    let id = state.sessionCount
    state.session = TextEditState.Session(id: id, original: state.title, text: state.title)
    state.liveValidation = nil
    state.events.append(.didBeginEditing)
    return autoSaveTimer(state, session: id)
  }

  /// The repeating auto-save timer of session `id`, when the configuration has a usable interval.
  func autoSaveTimer(_ state: TextEditState, session id: Int) -> Effect<TextEditAction> {
    guard let interval = state.configuration.validAutoSaveInterval else { return .none }
    return ComponentTimer.repeating(
      every: interval, send: .autoSaveFired(session: id), id: AutoSaveID(editorID: state.editorID))
  }

  func input(_ state: inout TextEditState, location: Int, length: Int, replacement: String) -> Effect<
    TextEditAction
  > {
    guard let session = state.session else { return .none }
    if replacement == "\n" && shouldReturn(session.text) { return end(&state) }
    let current = session.text
    guard let range = Self.range(in: current, location: location, length: length) else { return .none }
    if let max = state.configuration.effectiveMaxTextLength, current.count + replacement.count - length > max
    {
      return .none
    }
    let text = current.replacingCharacters(in: range, with: replacement)
    state.session?.text = text
    if state.configuration.enablesDynamicHeight { state.events.append(.willChangeHeight) }
    state.events.append(.didChangeText(text))
    state.liveValidation = ValidationRule.firstError(of: text, rules: rules)
    return .none
  }

  func end(_ state: inout TextEditState) -> Effect<TextEditAction> {
    guard let session = state.session else { return .none }
    if let error = ValidationRule.firstError(of: session.text, rules: rules) {
      state.events.append(.validationFailed(error))
      return .none
    }
    return finish(&state, title: session.text)
  }

  func commit(_ state: inout TextEditState) -> Effect<TextEditAction> {
    guard let session = state.session else { return .none }
    guard ValidationRule.firstError(of: session.text, rules: rules) == nil else {
      state.lastCommitSucceeded = false
      return .none
    }
    state.lastCommitSucceeded = true
    return finish(&state, title: session.text)
  }

  func cancel(_ state: inout TextEditState) -> Effect<TextEditAction> {
    guard let session = state.session else { return .none }
    return finish(&state, title: session.original)
  }

  /// Closes the session with `title`: stops auto-save, emits `didEndEditing(title)`.
  func finish(_ state: inout TextEditState, title: String) -> Effect<TextEditAction> {
    state.title = title
    state.session = nil
    state.events.append(.didEndEditing(text: title))
    guard state.configuration.validAutoSaveInterval != nil else { return .none }
    return .cancel(id: AutoSaveID(editorID: state.editorID))
  }

  func autoSave(_ state: inout TextEditState) {
    guard let session = state.session, state.isDelegateAttached, shouldAutoSave(session.text) else { return }
    state.events.append(.didAutoSave(text: session.text))
  }

  /// The String range of a UTF-16 range, or `nil` when it is out of bounds, negative, or splits a
  /// character's scalar.
  static func range(in text: String, location: Int, length: Int) -> Range<String.Index>? {
    let utf16 = text.utf16
    guard location >= 0, length >= 0, location <= utf16.count - length,
      let lower = utf16.index(utf16.startIndex, offsetBy: location, limitedBy: utf16.endIndex),
      let upper = utf16.index(lower, offsetBy: length, limitedBy: utf16.endIndex),
      lower.samePosition(in: text.unicodeScalars) != nil, upper.samePosition(in: text.unicodeScalars) != nil
    else { return nil }
    return lower..<upper
  }
}
