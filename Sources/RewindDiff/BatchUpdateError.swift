/// Why a stage would crash (or leave stale rows in) a table view's batch update.
public struct BatchUpdateError: Error, Hashable, Sendable {
  /// A batch-update rule a stage can break.
  public enum Rule: String, Hashable, Sendable {
    /// A section index lies outside the collection it addresses (before or after the stage).
    case sectionOutOfRange
    /// An element path lies outside the collection it addresses (before or after the stage).
    case elementOutOfRange
    /// One section is deleted, reloaded or moved from more than once, or inserted or moved to more than once.
    case sectionTouchedTwice
    /// One element is deleted, reloaded or moved from more than once, or inserted or moved to more than once.
    case elementTouchedTwice
    /// An element change addresses a section that the same stage deletes, inserts, reloads or moves.
    case elementInChangedSection
    /// Sections before, minus deletes, plus inserts, is not the number of sections in the stage's data.
    case sectionCountMismatch
    /// A section's elements before, minus deletes and moves out, plus inserts and moves in, is not its count in the data.
    case elementCountMismatch
    /// A section or element the table keeps has a different identity in the stage's data.
    case identityMismatch
    /// A section or element the table keeps without reloading has different content in the stage's data.
    case staleContent
  }

  /// The offset of the failing stage.
  public var stage: Int
  /// The rule the stage breaks.
  public var rule: Rule
  /// The section concerned, when the rule is about a section.
  public var section: Int?
  /// The element concerned, when the rule is about an element.
  public var element: ElementPath?

  /// An error for `rule` broken by `stage` at `section` or `element`.
  public init(stage: Int, rule: Rule, section: Int? = nil, element: ElementPath? = nil) {
    self.stage = stage
    self.rule = rule
    self.section = section
    self.element = element
  }
}

extension BatchUpdateError: CustomStringConvertible {
  /// `stage 2: elementTouchedTwice at [0, 3]`.
  public var description: String {
    var text = "stage \(stage): \(rule.rawValue)"
    if let element { text += " at \(element)" } else if let section { text += " at section \(section)" }
    return text
  }
}
