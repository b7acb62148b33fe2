// `import Rewind` brings the module its streams are built on too (`Differentiable`, `StagedChangeset`),
// so that `changesets(of:)` and what it delivers need no second import.
@_exported import RewindDiff
