import Testing

@Suite struct SnippetExtractorTests {
  @Test func onlySwiftBlocksWithoutTheMarkerAreTaken() {
    let markdown = """
      Text.

      ```swift
      let a = 1
      ```

      ```sh
      swift test
      ```

      <!-- not compiled: a case on its own -->
      ```swift
      case .x: break
      ```

        ```swift
        let b = 2
        ```
      """
    let blocks = SnippetExtractor.blocks(in: markdown)
    #expect(blocks.map(\.lines) == [["let a = 1"], ["let b = 2"]])
    #expect(blocks.map(\.line) == [4, 17])
  }

  @Test func declarationsAndStatementsAreSplitByDepth() {
    let block = SnippetExtractor.Block(
      line: 1,
      lines: [
        "// Sources/App/main.swift",
        "import Rewind",
        "",
        "// A counter.",
        "struct Counter {",
        "  var text = \"{ not a brace\"  // } nor this",
        "}",
        "@MainActor",
        "final class Model {}",
        "let store = Store(",
        "  initialState: 0)",
        "  .scoped()",
        "store.send(.x)",
        "@Test func counting() async {",
        "}",
      ])
    let items = SnippetExtractor.items(of: block)
    #expect(
      items == [
        .importModule("Rewind"),
        .declaration([
          "// A counter.", "struct Counter {", "  var text = \"{ not a brace\"  // } nor this", "}",
        ]),
        .declaration(["@MainActor", "final class Model {}"]),
        .statement(["let store = Store(", "  initialState: 0)", "  .scoped()"]),
        .statement(["store.send(.x)"]),
        .declaration(["@Test func counting() async {", "}"]),
      ])
  }

  @Test func laterBlocksSeeEarlierVariablesInNestedScopes() throws {
    let markdown = """
      ```swift
      import Rewind
      let store = 1
      ```

      ```swift
      let store = store + 1
      struct S {}
      ```
      """
    let source = try #require(SnippetExtractor.source(forGuide: "Docs/Guide.md", markdown: markdown))
    #expect(source.contains("import Rewind\n"))
    #expect(source.contains("// Docs/Guide.md:7\nstruct S {}\n"))
    #expect(
      source.contains(
        """
        func snippetsOfGuide() async throws {
          // Docs/Guide.md:2
          let store = 1
          do {
            // Docs/Guide.md:7
            let store = store + 1
          }
        }
        """))
  }

  @Test func appleOnlyBlocksAreCompiledWhereTheirModuleIs() throws {
    let markdown = """
      ```swift
      import UIKit
      final class Cell: UITableViewCell {}
      ```
      """
    let source = try #require(SnippetExtractor.source(forGuide: "Docs/Views.md", markdown: markdown))
    #expect(source.contains("#if canImport(UIKit)\n  import UIKit\n  // Docs/Views.md:2\n  final class Cell"))
    #expect(source.hasSuffix("#endif\n"))
  }

  @Test func aGuideWithoutSwiftHasNoFile() {
    #expect(SnippetExtractor.source(forGuide: "Docs/Tool.md", markdown: "```sh\nrewind info\n```\n") == nil)
  }
}
