/// A readable line diff of two values' dumps: `−` lines are expected only, `+` lines actual only.
///
/// Unchanged lines are shown only near a change, so a one-field difference in a large state stays short,
/// and so are the lines that enclose a change (its element, `▿ [id: 7]: Mail`, and the fields above it),
/// so the diff names where the change is however deep it lies.
func stateDiff<T>(expected: T, actual: T, context: Int = 2) -> String {
  let expectedLines = dumpLines(expected)
  let actualLines = dumpLines(actual)
  let difference = actualLines.difference(from: expectedLines)

  var removed = Set<Int>()
  var inserted = Set<Int>()
  for change in difference {
    switch change {
    case .remove(let offset, _, _): removed.insert(offset)
    case .insert(let offset, _, _): inserted.insert(offset)
    }
  }

  // Walk both sides in step: an expected line is either removed or matched with the next kept actual line.
  var lines: [(mark: Character, text: String)] = []
  var expectedIndex = 0
  var actualIndex = 0
  while expectedIndex < expectedLines.count || actualIndex < actualLines.count {
    if expectedIndex < expectedLines.count, removed.contains(expectedIndex) {
      lines.append(("−", expectedLines[expectedIndex]))
      expectedIndex += 1
    } else if actualIndex < actualLines.count, inserted.contains(actualIndex) {
      lines.append(("+", actualLines[actualIndex]))
      actualIndex += 1
    } else {
      lines.append((" ", actualIndex < actualLines.count ? actualLines[actualIndex] : ""))
      expectedIndex += 1
      actualIndex += 1
    }
  }

  let changed = lines.indices.filter { lines[$0].mark != " " }
  var shown = Set<Int>()
  for index in changed {
    for near in max(0, index - context)...min(lines.count - 1, index + context) { shown.insert(near) }
    // The enclosing lines: each nearest line above that is indented less than the last one taken.
    var level = indentation(lines[index].text)
    var above = index - 1
    while above >= 0, level > 0 {
      let depth = indentation(lines[above].text)
      if depth < level {
        shown.insert(above)
        level = depth
      }
      above -= 1
    }
  }
  var output: [String] = []
  var previous = -1
  for index in shown.sorted() {
    if previous >= 0, index > previous + 1 { output.append("  …") }
    output.append("\(lines[index].mark) \(lines[index].text)")
    previous = index
  }
  return output.joined(separator: "\n")
}

private func indentation(_ line: String) -> Int { line.prefix { $0 == " " }.count }

private func dumpLines<T>(_ value: T) -> [String] {
  var text = ""
  dump(value, to: &text)
  return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
}
