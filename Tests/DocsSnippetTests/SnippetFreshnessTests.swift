import Foundation
import Testing

/// The guides' code compiles because this target compiles `Generated/`; these tests make sure that what it
/// compiles is what the guides say now.
@Suite struct SnippetFreshnessTests {
  /// The package root, found from this file's path.
  static let root: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
  }()

  static let generatedDirectory = root + "/Tests/DocsSnippetTests/Generated"

  @Test func theGeneratedFilesMatchTheGuides() throws {
    let expected = try SnippetExtractor.generatedFiles(root: Self.root)
    let present = Set(
      (try FileManager.default.contentsOfDirectory(atPath: Self.generatedDirectory)).filter {
        $0.hasSuffix(".swift")
      })
    var stale: [String] = []
    for (name, source) in expected.sorted(by: { $0.key < $1.key }) {
      let onDisk = try? String(contentsOfFile: Self.generatedDirectory + "/" + name, encoding: .utf8)
      if onDisk != source { stale.append(name) }
    }
    stale += present.subtracting(expected.keys).sorted().map { "\($0) (no guide has blocks for it)" }
    #expect(
      stale.isEmpty,
      "Out of date with the guides: \(stale.joined(separator: ", ")). Run Scripts/docs-snippets.sh.")
  }

  @Test func everyGuideWithSwiftBlocksIsCompiled() throws {
    let expected = try SnippetExtractor.generatedFiles(root: Self.root)
    // README.md, GettingStarted and the guides that persist or test: these must never drop out.
    for name in ["README.swift", "GettingStarted.swift", "Persistence.swift", "Testing.swift"] {
      #expect(expected[name] != nil, "\(name) has no compiled blocks")
    }
  }
}
