/// What a command accepts: its positional arguments and options, and the text `--help` prints.
public struct CommandSpec: Sendable {
  /// A positional argument.
  public struct Positional: Sendable {
    /// The placeholder shown in the usage line, e.g. `DIR`.
    public var name: String
    /// One line of help.
    public var help: String
    /// Whether it may be left out.
    public var optional: Bool

    /// Creates a positional argument.
    public init(_ name: String, help: String, optional: Bool = false) {
      self.name = name
      self.help = help
      self.optional = optional
    }
  }

  /// An option: `--name value`, `--name=value`, or a flag (`--name`) when it takes no value.
  public struct Option: Sendable {
    /// The long name without dashes.
    public var name: String
    /// A one-letter alias used as `-x`, if any.
    public var short: Character?
    /// The value's placeholder (e.g. `N`); `nil` for a flag.
    public var value: String?
    /// One line of help.
    public var help: String
    /// Whether it may be given more than once (its values accumulate).
    public var repeatable: Bool

    /// Creates an option that takes a value.
    public static func value(
      _ name: String, _ placeholder: String, short: Character? = nil, repeatable: Bool = false, help: String
    ) -> Option {
      Option(name: name, short: short, value: placeholder, help: help, repeatable: repeatable)
    }

    /// Creates a flag.
    public static func flag(_ name: String, short: Character? = nil, help: String) -> Option {
      Option(name: name, short: short, value: nil, help: help, repeatable: false)
    }
  }

  /// The command's name, e.g. `verify`.
  public var name: String
  /// One line saying what it does.
  public var summary: String
  /// Its positional arguments, in order.
  public var positionals: [Positional]
  /// Its options (`--help` is always accepted and need not be listed).
  public var options: [Option]
  /// More text for `--help`: details and examples.
  public var discussion: String

  /// Creates a command specification.
  public init(
    name: String, summary: String, positionals: [Positional] = [], options: [Option] = [],
    discussion: String = ""
  ) {
    self.name = name
    self.summary = summary
    self.positionals = positionals
    self.options = options
    self.discussion = discussion
  }

  func option(named name: String) -> Option? { options.first { $0.name == name } }
  func option(short: Character) -> Option? { options.first { $0.short == short } }
}
