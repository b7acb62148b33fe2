import RewindDiff
import Testing

private func path(_ element: Int, _ section: Int) -> ElementPath {
  ElementPath(element: element, section: section)
}

/// Checks the staged changeset with the validator and by applying it.
private func checked(_ source: [TestSection], _ target: [TestSection]) throws -> StagedChangeset<
  [TestSection]
> {
  let staged = StagedChangeset(source: source, target: target)
  try BatchUpdateValidator.validate(staged, from: source)
  #expect(try staged.apply(to: source) == target)
  #expect(staged.isEmpty ? source == target : staged.last?.data == target)
  return staged
}

@Suite("Sectioned changesets")
struct SectionedChangesetTests {
  @Test("section delete takes its elements along")
  func sectionDelete() throws {
    let staged = try checked([section(0, [1]), section(1, [2])], [section(1, [2])])
    #expect(staged == StagedChangeset([Changeset(data: [section(1, [2])], sectionDeleted: [0])]))
  }

  @Test("section insert brings its elements along")
  func sectionInsert() throws {
    let staged = try checked([section(1, [2])], [section(0, [1]), section(1, [2])])
    #expect(
      staged == StagedChangeset([Changeset(data: [section(0, [1]), section(1, [2])], sectionInserted: [0])]))
  }

  @Test("section move")
  func sectionMove() throws {
    let staged = try checked([section(0, [1]), section(1, [2])], [section(1, [2]), section(0, [1])])
    #expect(staged.count == 1)
    #expect(staged[0].sectionMoved == [Move(source: 1, target: 0)])
  }

  @Test("section update reloads the section in its own stage")
  func sectionUpdate() throws {
    let staged = try checked(
      [section(0, [1]), section(1, [2])], [section(0, [1], title: 1), section(1, [2])])
    #expect(
      staged
        == StagedChangeset([
          Changeset(data: [section(0, [1], title: 1), section(1, [2])], sectionUpdated: [0])
        ]))
  }

  @Test("element changes inside sections")
  func elements() throws {
    let source = [section(0, [1, 2, 3]), section(1, [4])]
    let target = [section(0, [3, 1, 5]), section(1, [4])]
    let staged = try checked(source, target)
    #expect(staged[0].elementDeleted == [path(1, 0)])
    #expect(staged[1].elementInserted == [path(2, 0)])
    #expect(staged[1].elementMoved == [Move(source: path(1, 0), target: path(0, 0))])
  }

  @Test("element update")
  func elementUpdate() throws {
    let source = [TestSection(model: Header(0), elements: [Item(1), Item(2)])]
    let target = [TestSection(model: Header(0), elements: [Item(1), Item(2, 1)])]
    let staged = try checked(source, target)
    #expect(staged == StagedChangeset([Changeset(data: target, elementUpdated: [path(1, 0)])]))
  }

  @Test("cross-section move")
  func crossSectionMove() throws {
    let staged = try checked([section(0, [1, 2]), section(1, [3])], [section(0, [1]), section(1, [3, 2])])
    #expect(
      staged
        == StagedChangeset([
          Changeset(
            data: [section(0, [1]), section(1, [3, 2])],
            elementMoved: [Move(source: path(1, 0), target: path(1, 1))])
        ]))
  }

  @Test("an element leaving a moved section is addressed where the section stands after the move")
  func moveOutOfMovedSection() throws {
    let staged = try checked([section(0, [1, 2]), section(1, [3])], [section(1, [3, 2]), section(0, [1])])
    #expect(staged.count == 2)
    #expect(staged[0].sectionMoved == [Move(source: 1, target: 0)])
    #expect(staged[0].data == [section(1, [3]), section(0, [1, 2])])
    #expect(staged[1].elementMoved == [Move(source: path(1, 1), target: path(1, 0))])
  }

  @Test("elements of deleted and inserted sections are not paired")
  func unpairedSections() throws {
    let staged = try checked([section(0, [1]), section(1, [2])], [section(1, [2, 1])])
    #expect(staged.count == 2)
    #expect(staged[0].sectionDeleted == [0])
    #expect(staged[1].elementInserted == [path(1, 0)])
  }

  @Test("all five stages, in order")
  func allStages() throws {
    let source = [
      TestSection(model: Header(0), elements: [Item(1), Item(2), Item(3)]),
      TestSection(model: Header(1), elements: [Item(4)]),
      TestSection(model: Header(2), elements: [Item(5)]),
    ]
    let target = [
      TestSection(model: Header(2, 1), elements: [Item(5), Item(3)]),
      TestSection(model: Header(9), elements: [Item(8)]),
      TestSection(model: Header(0), elements: [Item(1, 1), Item(6)]),
    ]
    let staged = try checked(source, target)
    #expect(staged.count == 5)
    #expect(staged[0].elementDeleted == [path(1, 0)] && staged[0].elementChangeCount == 1)
    #expect(staged[1].sectionDeleted == [1] && staged[1].sectionInserted == [1])
    #expect(staged[1].sectionMoved.count == 1 && staged[1].elementChangeCount == 0)
    #expect(staged[2].sectionUpdated == [0] && staged[2].changeCount == 1)
    #expect(staged[3].elementInserted == [path(1, 2)])
    #expect(staged[3].elementMoved.count == 1 && staged[3].sectionChangeCount == 0)
    #expect(staged[4].elementUpdated == [path(0, 2)] && staged[4].changeCount == 1)
  }

  @Test("empty, identical, all inserted, all deleted")
  func edges() throws {
    #expect(try checked([], []).isEmpty)
    let sections = [section(0, [1, 2]), section(1, [])]
    #expect(try checked(sections, sections).isEmpty)
    #expect(
      try checked([], sections) == StagedChangeset([Changeset(data: sections, sectionInserted: [0, 1])]))
    #expect(try checked(sections, []) == StagedChangeset([Changeset(data: [], sectionDeleted: [0, 1])]))
    let emptied = try checked(sections, [section(0, []), section(1, [])])
    #expect(
      emptied
        == StagedChangeset([
          Changeset(data: [section(0, []), section(1, [])], elementDeleted: [path(0, 0), path(1, 0)])
        ]))
  }

  @Test("duplicate section identifiers pair in order")
  func duplicateSections() throws {
    let source = [section(0, [1]), section(0, [2]), section(1, [3])]
    let target = [section(1, [3]), section(0, [2]), section(0, [1, 4])]
    _ = try checked(source, target)
  }
}
