// RewindDiff: collection diffing into staged changesets. Filled by the "RewindDiff" issue.
