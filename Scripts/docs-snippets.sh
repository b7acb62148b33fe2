#!/usr/bin/env bash
# Writes the ```swift blocks of README.md and Docs/*.md into Tests/DocsSnippetTests/Generated/, one file per
# guide, which the DocsSnippetTests target compiles: so a snippet that no longer compiles fails the build,
# and SnippetFreshnessTests fails when the files are out of date with the guides. Run it after editing a
# guide's Swift. The rules a guide follows are in Tests/DocsSnippetTests/SnippetExtractor.swift.
#
#   Scripts/docs-snippets.sh               write the generated files
#   Scripts/docs-snippets.sh --manifests   evaluate the guides' Package.swift blocks (`swift package
#                                          dump-package` on each), which no test target can compile
#
# Opt a fragment out (sparingly: only one that cannot stand alone, such as a `case` shown on its own) with
# `<!-- not compiled: REASON -->` on the line before its opening fence.
set -euo pipefail
cd "$(dirname "$0")/.."

work=.build/docs-snippets
mkdir -p "$work"
cat > "$work/main.swift" <<'SWIFT'
import Foundation

let root = FileManager.default.currentDirectoryPath
if CommandLine.arguments.dropFirst().first == "--manifests" {
  // One directory per manifest block, named after its guide and line, for the shell to evaluate.
  for guide in SnippetExtractor.guides(in: root) {
    let markdown = try String(contentsOfFile: root + "/" + guide, encoding: .utf8)
    for manifest in SnippetExtractor.manifests(in: markdown) {
      let name = SnippetExtractor.fileName(forGuide: guide).replacingOccurrences(of: ".swift", with: "")
      let directory = CommandLine.arguments[2] + "/\(name)-\(manifest.line)"
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      try (manifest.lines.joined(separator: "\n") + "\n").write(
        toFile: directory + "/Package.swift", atomically: true, encoding: .utf8)
      print(directory)
    }
  }
  exit(0)
}
let directory = root + "/Tests/DocsSnippetTests/Generated"
try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
let files = try SnippetExtractor.generatedFiles(root: root)
for name in try FileManager.default.contentsOfDirectory(atPath: directory)
where name.hasSuffix(".swift") && files[name] == nil {
  try FileManager.default.removeItem(atPath: directory + "/" + name)
  print("removed \(name)")
}
for (name, source) in files.sorted(by: { $0.key < $1.key }) {
  let path = directory + "/" + name
  if (try? String(contentsOfFile: path, encoding: .utf8)) == source { continue }
  try source.write(toFile: path, atomically: true, encoding: .utf8)
  print("wrote \(name)")
}
print("docs-snippets: \(files.count) guides with Swift blocks, in \(directory)")
SWIFT
# Compiled on its own (plain Foundation), so it runs even when the generated files do not build.
swiftc Tests/DocsSnippetTests/SnippetExtractor.swift "$work/main.swift" -o "$work/extract"
if [ "${1:-}" = --manifests ]; then
  rm -rf "$work/manifests"
  count=0
  for directory in $("$work/extract" --manifests "$PWD/$work/manifests"); do
    # Evaluating a manifest needs no dependency checked out, only the manifest itself.
    swift package --package-path "$directory" dump-package > /dev/null
    echo "manifest evaluates: $(basename "$directory")"
    count=$((count + 1))
  done
  echo "docs-snippets: $count package manifests in the guides evaluate"
  exit 0
fi
"$work/extract"
