/// Random flat and sectioned pairs: sizes 0–300, few distinct identifiers (so many duplicates),
/// targets either edited from the source (deletes, inserts, moves, updates) or drawn afresh.
struct PairGenerator {
  var random: TestRandom

  init(seed: UInt64) { random = TestRandom(seed: seed) }

  /// A flat source and target.
  mutating func flatPair() -> (source: [Item], target: [Item]) {
    let count = random.below(301)
    let alphabet = 1 + random.below(max(1, count))  // from all equal to nearly all distinct
    let source = (0..<count).map { _ in Item(random.below(alphabet), random.below(2)) }
    if random.below(4) == 0 {
      let targetCount = random.below(301)
      return (source, (0..<targetCount).map { _ in Item(random.below(alphabet), random.below(2)) })
    }
    return (source, edited(source, alphabet: alphabet, limit: 300))
  }

  /// A sectioned source and target with up to 300 elements in all.
  mutating func sectionedPair() -> (source: [TestSection], target: [TestSection]) {
    let sectionAlphabet = 1 + random.below(8)
    let elementAlphabet = 1 + random.below(1 + random.below(300))
    let source = sections(alphabet: sectionAlphabet, elementAlphabet: elementAlphabet)
    if random.below(4) == 0 {
      return (source, sections(alphabet: sectionAlphabet, elementAlphabet: elementAlphabet))
    }
    // Edit the section list, then the elements inside it, moving some elements across sections.
    var target = edited(source, alphabet: sectionAlphabet, limit: 12) { random in
      TestSection(model: Header(random.below(sectionAlphabet), random.below(2)), elements: [Item]())
    } update: { section, random in
      TestSection(model: Header(section.model.id, random.below(2)), elements: section.elements)
    }
    var budget = 300 - target.reduce(0) { $0 + $1.elements.count }
    for index in target.indices {
      let edits = edited(
        target[index].elements, alphabet: elementAlphabet,
        limit: target[index].elements.count + max(0, budget))
      budget -= edits.count - target[index].elements.count
      target[index] = TestSection(model: target[index].model, elements: edits)
    }
    for _ in 0..<random.below(4) where target.count > 1 {
      let from = random.below(target.count)
      let to = random.below(target.count)
      guard !target[from].elements.isEmpty else { continue }
      var fromElements = target[from].elements
      let item = fromElements.remove(at: random.below(fromElements.count))
      target[from] = TestSection(model: target[from].model, elements: fromElements)
      var toElements = target[to].elements
      toElements.insert(item, at: random.below(toElements.count + 1))
      target[to] = TestSection(model: target[to].model, elements: toElements)
    }
    return (source, target)
  }

  private mutating func sections(alphabet: Int, elementAlphabet: Int) -> [TestSection] {
    let count = random.below(9)
    var budget = 300
    return (0..<count).map { _ in
      let size = random.below(min(budget, 80) + 1)
      budget -= size
      return TestSection(
        model: Header(random.below(alphabet), random.below(2)),
        elements: (0..<size).map { _ in Item(random.below(elementAlphabet), random.below(2)) })
    }
  }

  private mutating func edited(_ items: [Item], alphabet: Int, limit: Int) -> [Item] {
    edited(items, alphabet: alphabet, limit: limit) { random in
      Item(random.below(alphabet), random.below(2))
    } update: { item, _ in
      Item(item.id, 1 - item.content)
    }
  }

  /// `values` after a random number of random deletes, inserts, moves and updates, at most `limit` long.
  private mutating func edited<Value>(
    _ values: [Value], alphabet: Int, limit: Int,
    make: (inout TestRandom) -> Value, update: (Value, inout TestRandom) -> Value
  ) -> [Value] {
    var values = values
    let edits = random.below(1 + max(4, values.count / 4))
    for _ in 0..<edits {
      switch random.below(4) {
      case 0 where !values.isEmpty:
        values.remove(at: random.below(values.count))
      case 1 where values.count < limit:
        values.insert(make(&random), at: random.below(values.count + 1))
      case 2 where !values.isEmpty:
        let value = values.remove(at: random.below(values.count))
        values.insert(value, at: random.below(values.count + 1))
      case 3 where !values.isEmpty:
        let index = random.below(values.count)
        values[index] = update(values[index], &random)
      default:
        break
      }
    }
    return values
  }
}
