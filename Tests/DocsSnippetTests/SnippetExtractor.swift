import Foundation

/// Turns the ```swift blocks of a Markdown guide into one Swift source file that the test target compiles.
///
/// Used by `Scripts/docs-snippets.sh`, which writes the files into `Generated/`, and by
/// `SnippetFreshnessTests`, which fails when they differ from what the guides say now. Plain Foundation on
/// purpose: the script compiles this file on its own, so it must build even when the generated files do not.
///
/// The rules, which the guides follow:
/// - Every block of every guide is compiled into one module, so a page may use the types another page
///   declares (`Mail` from GettingStarted); two pages must not declare the same name.
/// - A block's imports apply to its whole page (Swift imports are per file); a page imports what it shows.
/// - Declarations (types, extensions, functions, `@Test`s) go to file scope. Statements go into a
///   function per page, each block in a scope nested in the previous block's, so a later block sees the
///   variables of earlier ones and may declare them again. The functions are compiled, never run.
/// - A block that imports UIKit, AppKit or SwiftUI is compiled only where that module exists
///   (`#if canImport`); on Linux, `Scripts/check.sh` still parses it.
/// - A fragment that cannot stand alone (a `case` of a switch shown on its own) is skipped when the line
///   before its opening fence is `<!-- not compiled: the reason -->`.
enum SnippetExtractor {
  /// The marker that opts a block out, followed by the reason.
  static let skipMarker = "<!-- not compiled:"

  /// Modules only Apple platforms have: a block that imports one is compiled only there.
  static let appleOnlyModules: Set<String> = ["UIKit", "AppKit", "SwiftUI"]

  /// A fenced block of a guide.
  struct Block: Equatable {
    /// The 1-based line of the first line of code.
    var line: Int
    var lines: [String]
  }

  /// The ```swift blocks of `markdown` that are not opted out.
  static func blocks(in markdown: String) -> [Block] {
    let lines = markdown.components(separatedBy: "\n")
    var blocks: [Block] = []
    var index = 0
    while index < lines.count {
      let trimmed = lines[index].trimmingCharacters(in: .whitespaces)
      guard trimmed == "```swift" else {
        index += 1
        continue
      }
      let skipped = index > 0 && lines[index - 1].trimmingCharacters(in: .whitespaces).hasPrefix(skipMarker)
      let indent = lines[index].prefix { $0 == " " }.count
      var body: [String] = []
      var end = index + 1
      while end < lines.count, lines[end].trimmingCharacters(in: .whitespaces) != "```" {
        // A block inside a list item is indented; its code is not.
        let line = lines[end]
        body.append(line.prefix(indent).allSatisfy { $0 == " " } ? String(line.dropFirst(indent)) : line)
        end += 1
      }
      if !skipped, !isManifest(body) { blocks.append(Block(line: index + 2, lines: body)) }
      index = end + 1
    }
    return blocks
  }

  /// Whether a block is a package manifest (it starts with `// swift-tools-version`): not compiled here,
  /// but evaluated by `Scripts/docs-snippets.sh --manifests`, since PackageDescription is no library.
  static func isManifest(_ lines: [String]) -> Bool {
    lines.first { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?.hasPrefix("// swift-tools-version")
      ?? false
  }

  /// The package manifests among the ```swift blocks of `markdown`, with their first lines.
  static func manifests(in markdown: String) -> [Block] {
    let lines = markdown.components(separatedBy: "\n")
    var manifests: [Block] = []
    for (index, line) in lines.enumerated() where line.trimmingCharacters(in: .whitespaces) == "```swift" {
      let body = lines[(index + 1)...].prefix { $0.trimmingCharacters(in: .whitespaces) != "```" }
      if isManifest(Array(body)) { manifests.append(Block(line: index + 2, lines: Array(body))) }
    }
    return manifests
  }

  /// One top-level piece of a block: an import, a declaration or a run of statements.
  enum Item: Equatable {
    case importModule(String)
    case declaration([String])
    case statement([String])
  }

  /// Splits a block into top-level items, by bracket depth (ignoring strings and comments).
  static func items(of block: Block) -> [Item] {
    var items: [Item] = []
    var current: [String] = []
    var pendingComments: [String] = []
    var depth = 0
    var inBlockComment = false
    var inMultilineString = false

    func flush() {
      guard !current.isEmpty else { return }
      let code = current.filter { !isComment($0) }
      let head = code.first?.trimmingCharacters(in: .whitespaces) ?? ""
      if head.hasPrefix("import "), code.count == 1 {
        // Comments above an import say nothing the generated file needs.
        items.append(
          .importModule(String(head.dropFirst("import ".count)).trimmingCharacters(in: .whitespaces)))
      } else if isDeclaration(head) {
        items.append(.declaration(current))
      } else {
        items.append(.statement(current))
      }
      current = []
    }

    for line in block.lines {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if depth == 0, !inBlockComment, !inMultilineString {
        if trimmed.isEmpty {
          flush()
          continue
        }
        if trimmed.hasPrefix("//") {
          // A comment between items belongs to the item after it.
          flush()
          pendingComments.append(line)
          continue
        }
        // Attributes on lines of their own (`@MainActor`) lead the declaration below them.
        let onlyAttributes = current.allSatisfy {
          isComment($0) || isAttributeOnly($0.trimmingCharacters(in: .whitespaces))
        }
        if !current.isEmpty, !onlyAttributes, !isContinuation(trimmed) { flush() }
        if current.isEmpty {
          current = pendingComments
          pendingComments = []
        }
      }
      current.append(line)
      depth += bracketBalance(line, inBlockComment: &inBlockComment, inMultilineString: &inMultilineString)
      if depth < 0 { depth = 0 }
    }
    flush()
    if !pendingComments.isEmpty { items.append(.statement(pendingComments)) }
    // Comments that lead an item decide nothing: classify by the first line of code.
    return items.map { item in
      guard case .statement(let lines) = item,
        let code = lines.first(where: { !isComment($0) })?.trimmingCharacters(in: .whitespaces),
        isDeclaration(code)
      else { return item }
      return .declaration(lines)
    }
  }

  static func isComment(_ line: String) -> Bool {
    line.trimmingCharacters(in: .whitespaces).hasPrefix("//")
  }

  /// Whether a line is an attribute alone (`@MainActor`), which belongs to the declaration below it.
  static func isAttributeOnly(_ trimmed: String) -> Bool {
    trimmed.hasPrefix("@") && !trimmed.contains(" ")
  }

  /// Whether a top-level line starts a declaration rather than a statement.
  static func isDeclaration(_ trimmed: String) -> Bool {
    var words = trimmed.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    // Attributes and modifiers lead the keyword.
    let modifiers: Set<String> = [
      "public", "package", "internal", "private", "fileprivate", "final", "nonisolated", "indirect",
    ]
    while let first = words.first, first.hasPrefix("@") || modifiers.contains(first) {
      if first.hasPrefix("@") && words.count == 1 { return true }  // `@MainActor` on its own line
      words.removeFirst()
    }
    guard let keyword = words.first else { return false }
    let declarationKeywords: Set<String> = [
      "struct", "enum", "class", "actor", "protocol", "extension", "func", "typealias",
    ]
    return declarationKeywords.contains(keyword)
  }

  /// Whether a line at depth 0 continues the item before it (a chained call, `else`, `catch`).
  static func isContinuation(_ trimmed: String) -> Bool {
    for prefix in [".", "else", "catch", "where", "&&", "||", "??"] where trimmed.hasPrefix(prefix) {
      return true
    }
    return false
  }

  /// The change in `(`, `[` and `{` depth over `line`, outside strings and comments.
  static func bracketBalance(_ line: String, inBlockComment: inout Bool, inMultilineString: inout Bool) -> Int
  {
    var balance = 0
    var inString = false
    let characters = Array(line)
    var index = 0
    while index < characters.count {
      let character = characters[index]
      let next = index + 1 < characters.count ? characters[index + 1] : nil
      if inBlockComment {
        if character == "*", next == "/" {
          inBlockComment = false
          index += 1
        }
      } else if inMultilineString {
        if line[line.index(line.startIndex, offsetBy: index)...].hasPrefix("\"\"\"") {
          inMultilineString = false
          index += 2
        }
      } else if inString {
        if character == "\\" {
          index += 1
        } else if character == "\"" {
          inString = false
        }
      } else if character == "/", next == "/" {
        break
      } else if character == "/", next == "*" {
        inBlockComment = true
        index += 1
      } else if character == "\"" {
        if line[line.index(line.startIndex, offsetBy: index)...].hasPrefix("\"\"\"") {
          inMultilineString = true
          index += 2
        } else {
          inString = true
        }
      } else if "([{".contains(character) {
        balance += 1
      } else if ")]}".contains(character) {
        balance -= 1
      }
      index += 1
    }
    return balance
  }

  /// The Swift file for the guide at `path` (relative to the package root, e.g. `Docs/Testing.md`), or
  /// `nil` when it has no block to compile.
  static func source(forGuide path: String, markdown: String) -> String? {
    let blocks = blocks(in: markdown)
    guard !blocks.isEmpty else { return nil }
    let name = functionName(forGuide: path)
    var imports: [String] = []
    var portable: [(line: Int, declarations: [[String]], statements: [[String]])] = []
    var appleOnly: [(module: String, line: Int, imports: [String], items: [Item])] = []
    for block in blocks {
      let items = items(of: block)
      let blockImports = items.compactMap { item -> String? in
        if case .importModule(let module) = item { return module }
        return nil
      }
      if let module = blockImports.first(where: { appleOnlyModules.contains($0) }) {
        appleOnly.append((module, block.line, blockImports, items))
        continue
      }
      for module in blockImports where !imports.contains(module) { imports.append(module) }
      var declarations: [[String]] = []
      var statements: [[String]] = []
      for item in items {
        switch item {
        case .importModule: break
        case .declaration(let lines): declarations.append(lines)
        case .statement(let lines): statements.append(lines)
        }
      }
      portable.append((block.line, declarations, statements))
    }

    var out: [String] = [
      "// swift-format-ignore-file",
      "// Generated by Scripts/docs-snippets.sh from \(path); do not edit. Edit the guide and run the script.",
      "// The guide's ```swift blocks: declarations at file scope, statements in a function that is compiled",
      "// and never run (see Tests/DocsSnippetTests/SnippetExtractor.swift).",
      "",
    ]
    out += imports.map { "import \($0)" }
    for block in portable where !block.declarations.isEmpty {
      out += ["", "// \(path):\(block.line)"]
      for declaration in block.declarations { out += declaration + [""] }
      out.removeLast()
    }
    let withStatements = portable.filter { !$0.statements.isEmpty }
    if !withStatements.isEmpty {
      out += ["", "func \(name)() async throws {"]
      var depth = 1
      for (offset, block) in withStatements.enumerated() {
        let indent = String(repeating: "  ", count: depth)
        if offset > 0 { out.append(String(repeating: "  ", count: depth - 1) + "do {") }
        out.append("\(indent)// \(path):\(block.line)")
        for statement in block.statements {
          out += statement.map { $0.isEmpty ? "" : indent + $0 }
        }
        if offset < withStatements.count - 1 { depth += 1 }
      }
      while depth > 1 {
        out.append(String(repeating: "  ", count: depth - 1) + "}")
        depth -= 1
      }
      out.append("}")
    }
    for (offset, block) in appleOnly.enumerated() {
      out += ["", "#if canImport(\(block.module))"]
      out += block.imports.map { "  import \($0)" }
      out.append("  // \(path):\(block.line)")
      var statements: [[String]] = []
      for item in block.items {
        switch item {
        case .importModule: break
        case .declaration(let lines): out += lines.map { $0.isEmpty ? "" : "  " + $0 } + [""]
        case .statement(let lines): statements.append(lines)
        }
      }
      if !statements.isEmpty {
        out.append("  @MainActor func \(name)AppleOnly\(offset + 1)() async throws {")
        for statement in statements { out += statement.map { $0.isEmpty ? "" : "    " + $0 } }
        out.append("  }")
      } else if out.last == "" {
        out.removeLast()
      }
      out.append("#endif")
    }
    return out.joined(separator: "\n") + "\n"
  }

  /// `Docs/GettingStarted.md` → `snippetsOfGettingStarted`.
  static func functionName(forGuide path: String) -> String {
    "snippetsOf" + fileName(forGuide: path).replacingOccurrences(of: ".swift", with: "")
  }

  /// `Docs/GettingStarted.md` → `GettingStarted.swift`; `README.md` → `README.swift`.
  static func fileName(forGuide path: String) -> String {
    let base = (path as NSString).lastPathComponent
    return (base as NSString).deletingPathExtension.filter { $0.isLetter || $0.isNumber } + ".swift"
  }

  /// The guides whose blocks are compiled: README.md and Docs/*.md, relative to `root`.
  static func guides(in root: String) -> [String] {
    let docs = (try? FileManager.default.contentsOfDirectory(atPath: root + "/Docs")) ?? []
    return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "Docs/" + $0 }
  }

  /// Every generated file, by file name, for the guides under `root`.
  static func generatedFiles(root: String) throws -> [String: String] {
    var files: [String: String] = [:]
    for guide in guides(in: root) {
      let markdown = try String(contentsOfFile: root + "/" + guide, encoding: .utf8)
      if let source = source(forGuide: guide, markdown: markdown) {
        files[fileName(forGuide: guide)] = source
      }
    }
    return files
  }
}
