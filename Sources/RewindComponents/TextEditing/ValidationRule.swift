import Foundation

/// The outcome of validating text.
public enum ValidationResult: Equatable, Sendable {
  /// The text passes.
  case valid
  /// The text fails, with the message to show.
  case invalid(String)
}

/// A rule that fails validation: which rule, and its message.
public struct ValidationError: Equatable, Sendable, Codable {
  /// The failing rule's name.
  public var ruleName: String
  /// The failing rule's message.
  public var message: String

  /// Creates an error.
  public init(ruleName: String, message: String) {
    self.ruleName = ruleName
    self.message = message
  }
}

/// A validation rule: length bounds, a regular expression, or a custom closure. Rules live in the
/// ``TextEditor`` reducer's configuration, never in state.
public struct ValidationRule: Sendable {
  /// The rule's name, reported in ``ValidationError``.
  public var name: String
  /// The message of a failure.
  public var errorMessage: String
  private let check: @Sendable (String) -> ValidationResult

  /// Creates a rule from a closure returning the full result.
  public init(name: String, errorMessage: String, check: @escaping @Sendable (String) -> ValidationResult) {
    self.name = name
    self.errorMessage = errorMessage
    self.check = check
  }

  /// Validates `text`.
  public func validate(_ text: String) -> ValidationResult { check(text) }

  /// Length in grapheme clusters within `min...max`, both inclusive; a missing bound is not checked.
  ///
  /// The default message is "Text must have minimum N and maximum M characters" (parts omitted when unset).
  public static func length(min: Int? = nil, max: Int? = nil, message: String? = nil) -> ValidationRule {
    var parts: [String] = []
    if let min { parts.append("minimum \(min)") }
    if let max { parts.append("maximum \(max)") }
    let text = message ?? "Text must have " + parts.joined(separator: " and ") + " characters"
    return ValidationRule(name: "length", errorMessage: text) { candidate in
      let count = candidate.count
      if let min, count < min { return .invalid(text) }
      if let max, count > max { return .invalid(text) }
      return .valid
    }
  }

  /// Valid when `pattern` (ICU syntax, no options) matches anywhere in the text: *contains*, not
  /// full-match; anchor with `^…$`. A pattern that does not compile makes the rule always invalid with the
  /// message "Invalid regex pattern".
  public static func regex(_ pattern: String, message: String) -> ValidationRule {
    let compiled = CompiledPattern(pattern)
    return ValidationRule(name: "regex", errorMessage: message) { candidate in
      guard let expression = compiled.expression else { return .invalid("Invalid regex pattern") }
      let range = NSRange(candidate.startIndex..<candidate.endIndex, in: candidate)
      return expression.firstMatch(in: candidate, options: [], range: range) == nil
        ? .invalid(message) : .valid
    }
  }

  /// Valid when `isValid` returns true.
  public static func custom(
    name: String = "custom", message: String, _ isValid: @escaping @Sendable (String) -> Bool
  ) -> ValidationRule {
    ValidationRule(name: name, errorMessage: message) { isValid($0) ? .valid : .invalid(message) }
  }

  /// The first failing rule in order (short-circuit), or `nil` when all pass or there are none.
  ///
  /// Upstream reports the first rule of the array whatever failed; this reports the rule that failed.
  public static func firstError(of text: String, rules: [ValidationRule]) -> ValidationError? {
    for rule in rules {
      if case .invalid(let message) = rule.validate(text) {
        return ValidationError(ruleName: rule.name, message: message)
      }
    }
    return nil
  }

  /// Every failing rule, in order.
  public static func allErrors(of text: String, rules: [ValidationRule]) -> [ValidationError] {
    rules.compactMap { rule in
      if case .invalid(let message) = rule.validate(text) {
        return ValidationError(ruleName: rule.name, message: message)
      }
      return nil
    }
  }
}

/// A regular expression compiled once. NSRegularExpression is immutable after creation and documented as
/// safe to use from several threads.
private final class CompiledPattern: @unchecked Sendable {
  let expression: NSRegularExpression?
  init(_ pattern: String) { expression = try? NSRegularExpression(pattern: pattern, options: []) }
}
