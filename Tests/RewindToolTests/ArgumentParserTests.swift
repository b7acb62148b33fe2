import Testing

@testable import RewindTool

@Suite struct ArgumentParserTests {
  let spec = CommandSpec(
    name: "demo", summary: "a demo",
    positionals: [.init("DIR", help: "a directory"), .init("SEQ", help: "a number", optional: true)],
    options: [
      .value("from", "N", help: "start"),
      .value("type", "T", repeatable: true, help: "type"),
      .value("output", "FILE", short: "o", help: "output"),
      .flag("json", help: "json"),
    ])

  @Test func positionalsOptionsAndFlagsInAnyOrder() throws {
    let parsed = try ArgumentParser.parse(
      ["--from", "3", "dir", "--json", "--type=a", "7", "--type", "b", "-o", "x"], for: spec)
    #expect(parsed.positionals == ["dir", "7"])
    #expect(parsed.value("from") == "3")
    #expect(parsed.allValues("type") == ["a", "b"])
    #expect(parsed.value("output") == "x")
    #expect(parsed.flag("json"))
    #expect(!parsed.helpRequested)
  }

  @Test func equalsFormKeepsEverythingAfterTheFirstEquals() throws {
    let parsed = try ArgumentParser.parse(["d", "--output=a=b", "--from="], for: spec)
    #expect(parsed.value("output") == "a=b")
    #expect(parsed.value("from") == "")
  }

  @Test func doubleDashEndsOptions() throws {
    let parsed = try ArgumentParser.parse(["--", "--json", "-o"], for: spec)
    #expect(parsed.positionals == ["--json", "-o"])
    #expect(parsed.flags.isEmpty)
  }

  @Test func helpAnywhereSkipsPositionalChecks() throws {
    #expect(try ArgumentParser.parse(["--help"], for: spec).helpRequested)
    #expect(try ArgumentParser.parse(["a", "b", "c", "-h"], for: spec).helpRequested)
  }

  @Test(arguments: [
    (["d", "--nope"], "unknown option '--nope'"),
    (["d", "-x"], "unknown option '-x'"),
    (["d", "--from"], "needs a value"),
    (["d", "-o"], "needs a value"),
    (["d", "--json=yes"], "takes no value"),
    (["d", "--from", "1", "--from", "2"], "only once"),
    ([], "needs DIR"),
    (["a", "b", "c"], "unexpected argument 'c'"),
  ])
  func usageErrorsSayWhatIsWrong(arguments: [String], message: String) {
    #expect {
      try ArgumentParser.parse(arguments, for: spec)
    } throws: { error in
      (error as? UsageError)?.message.contains(message) == true
    }
  }

  @Test func unsignedValuesAreChecked() throws {
    #expect(try ArgumentParser.parse(["d", "--from", "12"], for: spec).unsigned("from") == 12)
    #expect(throws: UsageError.self) {
      try ArgumentParser.parse(["d", "--from", "-1"], for: spec).unsigned("from")
    }
    #expect(throws: UsageError.self) {
      try ArgumentParser.parse(["d", "--from", "x"], for: spec).unsigned("from")
    }
  }

  @Test func usageListsArgumentsAndOptions() {
    let text = spec.usage(tool: "rewind")
    #expect(text.hasPrefix("usage: rewind demo [options] DIR [SEQ]\n"))
    for fragment in [
      "DIR", "a directory", "--from N", "--type T", "(repeatable)", "-o, --output FILE", "--json",
      "-h, --help",
    ] {
      #expect(text.contains(fragment), "missing \(fragment)")
    }
  }

  @Test func everyCommandHasHelpAndEveryBadOptionExits64() {
    let tool = RewindCommandLine.standard
    for command in tool.commands {
      let help = runTool([command.spec.name, "--help"])
      #expect(help.status == 0)
      #expect(help.output.hasPrefix("usage: rewind \(command.spec.name)"), "\(command.spec.name)")
      let bad = runTool([command.spec.name, "somewhere", "--no-such-option"])
      #expect(bad.status == 64)
      #expect(bad.errors.contains("unknown option '--no-such-option'"))
    }
    #expect(runTool(["--help"]).output.contains("timeline"))
    #expect(runTool(["help", "verify"]).output.hasPrefix("usage: rewind verify"))
    #expect(runTool([]).status == 64)
    #expect(runTool(["frobnicate"]).status == 64)
  }
}
