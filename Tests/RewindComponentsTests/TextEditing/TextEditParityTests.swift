import Foundation
import Rewind
import RewindTestSupport
import RewindTesting
import Testing

@testable import RewindComponents

/// Drives a text editor directly and collects its events.
struct EditDriver {
  var state: TextEditState
  var reducer: TextEditor
  var events: [TextEditEvent] = []

  init(
    title: String = "", reducer: TextEditor = TextEditor(),
    configure: (inout TextEditConfiguration) -> Void = { _ in }
  ) {
    var configuration = TextEditConfiguration()
    configuration.isEditingEnabled = true
    configure(&configuration)
    state = TextEditState(title: title, configuration: configuration)
    self.reducer = reducer
  }

  mutating func send(_ actions: TextEditAction...) {
    for action in actions {
      _ = reducer.reduce(into: &state, action: action)
      events += state.events
    }
  }
}

@Suite("MetaCellKit parity")
struct TextEditParityTests {
  @Test("MK-1 length rule")
  func lengthRule() {
    let rule = ValidationRule.length(min: 3, max: 10)
    #expect(rule.validate("ab") == .invalid("Text must have minimum 3 and maximum 10 characters"))
    #expect(rule.validate("abc") == .valid)
    #expect(rule.validate(String(repeating: "x", count: 10)) == .valid)
    #expect(rule.validate(String(repeating: "x", count: 11)) != .valid)
    #expect(ValidationRule.length().errorMessage == "Text must have  characters")
  }

  @Test("MK-2 length counts grapheme clusters")
  func graphemes() {
    #expect(ValidationRule.length(min: 2).validate("👍🏽👍🏽") == .valid)
  }

  @Test("MK-3 regex contains-semantics and invalid patterns")
  func regex() {
    #expect(ValidationRule.regex("[0-9]", message: "digit").validate("abc1") == .valid)
    #expect(
      ValidationRule.regex("^[0-9]+$", message: "digits only").validate("abc1") == .invalid("digits only"))
    #expect(ValidationRule.regex("[", message: "custom").validate("x") == .invalid("Invalid regex pattern"))
  }

  @Test("MK-4 an anchored star pattern accepts the empty string")
  func emptyRegex() {
    #expect(ValidationRule.regex("^[A-Za-z]*$", message: "letters").validate("") == .valid)
  }

  @Test("MK-6 corrected: end reports the rule that failed and keeps editing")
  func endReportsFailingRule() {
    var driver = EditDriver(
      reducer: TextEditor(rules: [.custom(message: "never") { _ in true }, .length(max: 3)]))
    driver.send(.begin, .setText("abcd"), .end)
    #expect(
      driver.events.last
        == .validationFailed(
          ValidationError(ruleName: "length", message: "Text must have maximum 3 characters")))
    #expect(driver.state.isEditing)
  }

  @Test("MK-7 commit with a failing rule is silent")
  func silentCommit() {
    var driver = EditDriver(
      reducer: TextEditor(rules: [.custom(message: "never") { _ in true }, .length(max: 3)]))
    driver.send(.begin, .setText("abcd"))
    driver.events = []
    driver.send(.commit)
    #expect(driver.events.isEmpty)
    #expect(driver.state.lastCommitSucceeded == false)
    #expect(driver.state.isEditing)
  }

  @Test("MK-8 cancel restores the original")
  func cancel() {
    var driver = EditDriver(title: "Orig")
    driver.send(.begin, .setText("X"), .cancel)
    #expect(driver.events == [.didBeginEditing, .didChangeText("X"), .didEndEditing(text: "Orig")])
    #expect(driver.state.title == "Orig")
    #expect(driver.state.isEditing == false)
  }

  @Test("MK-9 editing disabled: begin does nothing")
  func disabled() {
    var driver = EditDriver { $0.isEditingEnabled = false }
    let before = driver.state
    driver.send(.begin)
    #expect(driver.state == before)
    #expect(driver.events.isEmpty)
  }

  @Test("MK-10 maximum length counts the replaced range")
  func maxLength() {
    var driver = EditDriver(title: "abcd") { $0.maxTextLength = 5 }
    driver.send(.begin, .input(location: 4, length: 0, replacement: "ef"))
    #expect(driver.state.text == "abcd")
    driver.send(.input(location: 3, length: 1, replacement: "ef"))
    #expect(driver.state.text == "abcef")
    #expect(driver.events.suffix(2) == [.willChangeHeight, .didChangeText("abcef")])
  }

  @Test("MK-11 Return with shouldReturn true commits without the newline")
  func returnCommits() {
    var driver = EditDriver(title: "ok")
    driver.send(.begin, .input(location: 2, length: 0, replacement: "\n"))
    #expect(driver.state.isEditing == false)
    #expect(driver.state.title == "ok")
    #expect(driver.events.last == .didEndEditing(text: "ok"))
  }

  @Test("MK-12 Return with shouldReturn false inserts the newline")
  func returnInserts() {
    var driver = EditDriver(title: "ok", reducer: TextEditor(shouldReturn: { _ in false }))
    driver.send(.begin, .input(location: 2, length: 0, replacement: "\n"))
    #expect(driver.state.isEditing)
    #expect(driver.state.text == "ok\n")
  }

  @Test("MK-14 remaining count turns red below 10")
  func remaining() {
    var driver = EditDriver(title: String(repeating: "a", count: 95)) {
      $0.maxTextLength = 100
      $0.characterCountDisplay = .remaining
    }
    driver.send(.begin)
    #expect(
      driver.state.characterCount == CharacterCountLabel(text: "5 characters remaining", isWarning: true))
  }

  @Test("MK-15 count without a maximum")
  func countOnly() {
    var driver = EditDriver(title: "seven77") { $0.characterCountDisplay = .count }
    driver.send(.begin)
    #expect(driver.state.characterCount == CharacterCountLabel(text: "7", isWarning: false))
    #expect(
      CharacterCountLabel.make(style: .both, count: 3, maximum: 20)
        == CharacterCountLabel(text: "3/20 (17 remaining)", isWarning: false))
    #expect(CharacterCountLabel.make(style: .both, count: 3, maximum: nil)?.text == "")
    #expect(CharacterCountLabel.make(style: .count, count: 21, maximum: 20)?.isWarning == true)
  }

  @Test("MK-16 corrected: the placeholder is not counted and not text")
  func placeholderNotCounted() {
    var driver = EditDriver { $0.characterCountDisplay = .count }
    driver.send(.begin)
    #expect(driver.state.characterCount?.text == "0")
    #expect(driver.state.text == "")
    #expect(driver.state.visiblePlaceholder == "Enter text...")
    driver.send(.setText("early"), .focus)
    #expect(driver.state.text == "early")
  }

  @Test("MK-17 corrected: ending with an untouched placeholder commits the empty string")
  func placeholderNotCommitted() {
    var driver = EditDriver()
    driver.send(.begin, .end)
    #expect(driver.state.title == "")
    #expect(driver.events.last == .didEndEditing(text: ""))
  }

  @Test("MK-18 auto-save: the timer fires at t = 2 and 4 (two saves of the current text), none after commit")
  func autoSaveTimer() async {
    let clock = ManualClock()
    var configuration = TextEditConfiguration()
    configuration.isEditingEnabled = true
    configuration.autoSaveInterval = 2
    let store = TestStore(
      initialState: TextEditState(title: "draft", configuration: configuration),
      reducer: TextEditor(), clock: clock)
    store.send(.begin) {
      $0.sessionCount = 1
      $0.session = TextEditState.Session(id: 1, original: "draft", text: "draft")
      $0.events = [.didBeginEditing]
    }
    #expect(await clock.waitForSleepers())
    await clock.advance(by: .milliseconds(1999))
    #expect(clock.sleeperCount == 1, "not due before t = 2")
    await clock.advance(by: .milliseconds(1))
    await store.receive(.autoSaveFired(session: 1)) { $0.events = [.didAutoSave(text: "draft")] }
    store.send(.setText("draft 2")) {
      $0.session?.text = "draft 2"
      $0.events = [.didChangeText("draft 2")]
    }
    #expect(await clock.waitForSleepers())
    await clock.advance(by: .seconds(2))
    await store.receive(.autoSaveFired(session: 1)) { $0.events = [.didAutoSave(text: "draft 2")] }
    store.send(.commit) {
      $0.title = "draft 2"
      $0.session = nil
      $0.lastCommitSucceeded = true
      $0.events = [.didEndEditing(text: "draft 2")]
    }
    await clock.advance(by: .seconds(10))
    #expect(clock.sleeperCount == 0, "commit cancelled the timer")
    await store.finish()
  }

  @Test("MK-19 no delegate, or a delegate that declines: no auto-saves")
  func autoSaveWithoutDelegate() {
    var driver = EditDriver(title: "draft") { $0.autoSaveInterval = 2 }
    driver.state.isDelegateAttached = false
    driver.send(.begin, .autoSaveFired(session: 1), .autoSaveFired(session: 1))
    #expect(driver.events.isEmpty)
    var declined = EditDriver(title: "draft", reducer: TextEditor(shouldAutoSave: { _ in false })) {
      $0.autoSaveInterval = 2
    }
    declined.send(.begin, .autoSaveFired(session: 1))
    #expect(declined.events == [.didBeginEditing])
  }

  @Test("auto-save fires are events caused by begin; resumeAutoSave restarts a timer effects did not keep")
  func autoSaveAttributionAndResume() async throws {
    let clock = ManualClock()
    var configuration = TextEditConfiguration()
    configuration.isEditingEnabled = true
    configuration.autoSaveInterval = 2
    let journal = InMemoryJournal<TextEditAction>()
    let initial = TextEditState(title: "draft", configuration: configuration)
    let store = try Store(
      initialState: initial, reducer: TextEditor().dependency(\.clock, clock), journal: journal, clock: clock,
      actor: "ana")
    store.send(.begin)
    #expect(await clock.waitForSleepers())
    await clock.advance(by: .seconds(2))
    #expect(await eventually { store.sequence == 2 })
    let fired = try #require(try store.journal.events(in: 2...2).first)
    #expect(fired.action == .autoSaveFired(session: 1))
    #expect(fired.metadata.source == .effect(cause: 1))
    #expect(fired.metadata.actor == "ana")
    store.cancelAllEffects()  // the process ends while editing

    let later = ManualClock()
    let restored = try Store(
      initialState: initial, reducer: TextEditor().dependency(\.clock, later), journal: journal, clock: later)
    #expect(restored.state.isEditing)
    restored.send(.resumeAutoSave)
    #expect(await later.waitForSleepers())
    await later.advance(by: .seconds(2))
    #expect(await eventually { restored.sequence == 4 })
    #expect(restored.state.events == [.didAutoSave(text: "draft")])
    restored.send(.cancel)
    await restored.waitForEffects()
  }

  @Test("auto-save keeps running after an end that a rule refused")
  func autoSaveAfterFailedEnd() async {
    let clock = ManualClock()
    var configuration = TextEditConfiguration()
    configuration.isEditingEnabled = true
    configuration.autoSaveInterval = 2
    let error = ValidationError(ruleName: "length", message: "Text must have minimum 10 characters")
    let store = TestStore(
      initialState: TextEditState(title: "short", configuration: configuration),
      reducer: TextEditor(rules: [.length(min: 10)]), clock: clock)
    store.send(.begin) {
      $0.sessionCount = 1
      $0.session = TextEditState.Session(id: 1, original: "short", text: "short")
      $0.events = [.didBeginEditing]
    }
    store.send(.end) { $0.events = [.validationFailed(error)] }
    #expect(await clock.waitForSleepers())
    await clock.advance(by: .seconds(2))
    await store.receive(.autoSaveFired(session: 1)) { $0.events = [.didAutoSave(text: "short")] }
    store.send(.cancel) {
      $0.session = nil
      $0.events = [.didEndEditing(text: "short")]
    }
    await store.finish()
  }

  @Test("a timer that outlived its session saves nothing in the next one")
  func staleAutoSave() {
    var driver = EditDriver(title: "draft") { $0.autoSaveInterval = 2 }
    driver.send(.begin, .cancel, .begin)
    #expect(driver.state.session?.id == 2)
    driver.events = []
    driver.send(.autoSaveFired(session: 1))
    #expect(driver.events.isEmpty)
    driver.send(.autoSaveFired(session: 2))
    #expect(driver.events == [.didAutoSave(text: "draft")])
  }

  @Test("MK-20 relative dates (future corrected)")
  func relativeDates() {
    let formatter = MetadataDateFormatter()
    let now = Date(timeIntervalSince1970: 1_704_067_200)
    let deltas: [Double] = [30, 60, 3599, 3600, 86399, 86400, 604799, 604800, -86400]
    let texts = deltas.map { formatter.string(from: now.addingTimeInterval(-$0), style: .relative, now: now) }
    let medium = formatter.string(from: now.addingTimeInterval(-604800), style: .medium, now: now)
    #expect(
      texts == ["Just now", "1m ago", "59m ago", "1h ago", "23h ago", "1d ago", "6d ago", medium, "in 1d"])
    #expect(medium == "25 Dec 2023")
  }

  @Test("MK-21 short and medium patterns")
  func shortMedium() {
    let formatter = MetadataDateFormatter()
    let date = Date(timeIntervalSince1970: 1_704_412_800)  // 2024-01-05 00:00 UTC
    #expect(formatter.string(from: date, style: .short, now: date) == "05 Jan")
    #expect(formatter.string(from: date, style: .medium, now: date) == "05 Jan 2024")
  }

  @Test("MK-23 badge values")
  func badge() {
    #expect(
      [BadgeValue.integer(0), .integer(3), .decimal(3.14), .text(""), .unsupported].map(
        MetadataViews.badgeText) == [nil, "3", "3.1", nil, nil])
    #expect(MetadataViews.badgeSize(textWidth: 30).width == 42)
    #expect(MetadataViews.badgeSize(textWidth: 4).cornerRadius == 12)
  }

  @Test("MK-24 reuse while editing cancels and detaches the delegate")
  func reuse() {
    var driver = EditDriver(title: "Orig")
    driver.send(.begin, .setText("changed"), .prepareForReuse)
    #expect(driver.events.last == .didEndEditing(text: "Orig"))
    #expect(driver.state.isDelegateAttached == false)
    #expect(driver.state.title == "")
    driver.events = []
    driver.send(.setText("x"), .begin, .cancel)
    #expect(driver.events.isEmpty)
  }

  @Test("metadata view count is clamped to 0…3")
  func metadataCount() {
    #expect([-2, 0, 2, 3, 4].map(MetadataViews.count(requested:)) == [0, 0, 2, 3, 3])
    #expect(MetadataViews.isVisible(text: "", hasIcon: false) == false)
    #expect(MetadataViews.isVisible(text: nil, hasIcon: true))
  }

  @Test("bad input ranges are rejected; bad auto-save intervals disable auto-save")
  func badInput() {
    var driver = EditDriver(title: "a👍b") { $0.autoSaveInterval = -1 }
    driver.send(.begin)
    for (location, length) in [(-1, 0), (0, -1), (9, 0), (2, 1), (1, 9)] {
      driver.send(.input(location: location, length: length, replacement: "x"))
    }
    #expect(driver.state.text == "a👍b")
    driver.send(.input(location: 1, length: 2, replacement: "-"))
    #expect(driver.state.text == "a-b")
    // No timer starts with a bad interval; a stray fire saves nothing either.
    driver.send(.autoSaveFired(session: 1))
    #expect(driver.events.contains { if case .didAutoSave = $0 { true } else { false } } == false)
    #expect(driver.state.liveValidation == nil)
  }

  @Test("extreme numbers never trap: negative maximum")
  func extremes() {
    var driver = EditDriver(title: "t") {
      $0.maxTextLength = Int.min
      $0.characterCountDisplay = .both
    }
    driver.send(.begin)
    #expect(driver.state.characterCount == CharacterCountLabel(text: "1/0 (-1 remaining)", isWarning: true))
    driver.send(.input(location: 1, length: 0, replacement: "x"))
    #expect(driver.state.text == "t")
  }

  @Test("a tiny interval fires every 0.1 ms (Foundation's floor), not without pause; a huge one sleeps")
  func extremeIntervals() async {
    for (interval, advance, fires) in [(1e-300, 0.00035, 3), (1e300, 1e8, 0)] {
      let clock = ManualClock()
      var configuration = TextEditConfiguration()
      configuration.isEditingEnabled = true
      configuration.autoSaveInterval = interval
      let store = TestStore(
        initialState: TextEditState(title: "t", configuration: configuration),
        reducer: TextEditor(), clock: clock)
      store.send(.begin) {
        $0.sessionCount = 1
        $0.session = TextEditState.Session(id: 1, original: "t", text: "t")
        $0.events = [.didBeginEditing]
      }
      for _ in 0..<fires {
        #expect(await clock.waitForSleepers())
        await clock.advance(by: .seconds(0.0001))
        await store.receive(.autoSaveFired(session: 1)) { $0.events = [.didAutoSave(text: "t")] }
      }
      #expect(await clock.waitForSleepers())
      await clock.advance(by: .seconds(advance - 0.0001 * Double(fires)))
      store.send(.cancel) {
        $0.session = nil
        $0.events = [.didEndEditing(text: "t")]
      }
      await store.finish()
    }
  }
}

@Suite("MetaCellKit metadata binding")
struct MetadataBindingTests {
  struct Task {
    var name: String
    var icon: String
    var count: Int
    var due: Date
    var project: String?
    var note: String?
    var size: Double
    var owner: String
    var extra: String
  }

  @Test("binding fills title, icon, badge, then free metadata views in order")
  func binding() {
    let task = Task(
      name: "Ship", icon: "star", count: 0, due: Date(timeIntervalSince1970: 1_704_412_800), project: nil,
      note: "urgent", size: 3, owner: "ana", extra: "dropped")
    let bound = MetadataBinding.bind(task, configured: [nil, "Fixed", "", "fourth"])
    #expect(bound.title == "Ship")
    #expect(bound.icon == "star")
    #expect(bound.badge == "0")
    #expect(bound.metadata == ["05 Jan 2024", "Fixed", "urgent"])
    #expect(MetadataBinding.bind(task, configured: []).metadata.isEmpty)
  }
}

@Suite("Text editing documentation example")
struct TextEditDocExampleTests {
  @Test("the documented example behaves as written")
  func example() {
    var configuration = TextEditConfiguration()
    configuration.isEditingEnabled = true
    configuration.maxTextLength = 40
    configuration.characterCountDisplay = .remaining
    configuration.autoSaveInterval = 5
    let editor = TextEditor(rules: [.length(min: 1), .regex("^[^<>]*$", message: "No angle brackets")])
    let store = Store(
      initialState: TextEditState(title: "Groceries", configuration: configuration), reducer: editor)
    store.send(.begin)
    store.send(.input(location: 9, length: 0, replacement: " list"))
    #expect(store.state.characterCount?.text == "26 characters remaining")
    store.send(.autoSaveFired(session: 1))  // what the auto-save timer sends 5 s after begin
    #expect(store.state.events == [.didAutoSave(text: "Groceries list")])
    store.send(.input(location: 14, length: 0, replacement: "\n"))
    #expect(store.state.title == "Groceries list")
    #expect(store.state.isEditing == false)
  }
}
