/// Suite `diff`: filled by the RewindDiff issue.
let diffSuite = Suite(name: "diff", summary: "collection diffing (RewindDiff)") { _ in }
