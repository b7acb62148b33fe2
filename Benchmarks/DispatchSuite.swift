/// Suite `dispatch`: filled by the store-core issue.
let dispatchSuite = Suite(name: "dispatch", summary: "store sends per second") { _ in }
