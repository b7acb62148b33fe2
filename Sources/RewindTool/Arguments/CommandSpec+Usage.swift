extension CommandSpec {
  /// The text `--help` prints: usage line, summary, arguments, options and the discussion.
  public func usage(tool: String) -> String {
    var line = "usage: \(tool) \(name)"
    if !options.isEmpty { line += " [options]" }
    for positional in positionals {
      line += positional.optional ? " [\(positional.name)]" : " \(positional.name)"
    }
    var text = [line, "", summary]
    if !positionals.isEmpty {
      text += ["", "arguments:"]
      let width = positionals.map(\.name.count).max() ?? 0
      text += positionals.map {
        "  " + $0.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.help
      }
    }
    let rows =
      options.map { option -> (String, String) in
        var left = option.short.map { "-\($0), " } ?? ""
        left += "--" + option.name + (option.value.map { " " + $0 } ?? "")
        return (left, option.help + (option.repeatable ? " (repeatable)" : ""))
      } + [("-h, --help", "show this help")]
    let width = rows.map(\.0.count).max() ?? 0
    text += ["", "options:"]
    text += rows.map { "  " + $0.0.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.1 }
    if !discussion.isEmpty { text += ["", discussion] }
    return text.joined(separator: "\n") + "\n"
  }
}
