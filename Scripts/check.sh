#!/usr/bin/env bash
# The project's full check, as CI runs it: a build where warnings are errors (which compiles the guides'
# Swift snippets too), the formatter's lint, the README's two commands (the example and the tests), the
# tests again under ThreadSanitizer, and the documentation.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

step "build, warnings as errors (library, tools, examples, tests)"
swift build --build-tests -Xswiftc -warnings-as-errors --scratch-path .build-werror

step "guides: their Package.swift blocks evaluate (their Swift blocks were compiled by the build above)"
# Tests/DocsSnippetTests/Generated holds the guides' Swift blocks; SnippetFreshnessTests (in swift test)
# fails when it is out of date with README.md and Docs/ (Scripts/docs-snippets.sh writes it).
bash Scripts/docs-snippets.sh --manifests

step "format: swift format lint --strict (.swift-format; fix with Scripts/format.sh)"
swift format lint --strict --recursive Sources Tests Examples Benchmarks Package.swift

step "conventions: invariant checks and unmanaged references each kept in one place"
# One flag, read in one place (Sources/Rewind/Support/InvariantChecking.swift); every `_checkInvariants()` in
# a `Type+Invariants.swift` file; the underscored unmanaged API only in the tree's wrapper, UnmanagedNode.
misplaced=$( (grep -rlE --include='*.swift' '#if .*REWIND_CHECK_INVARIANTS' Sources \
  | grep -v '^Sources/Rewind/Support/InvariantChecking.swift$'
  grep -rl --include='*.swift' 'func _checkInvariants()' Sources | grep -vE '(\+Invariants|/InvariantChecking)\.swift$'
  grep -rlE --include='*.swift' '_withUnsafeGuaranteedRef|_isBitwiseTakable' Sources \
  | grep -v '^Sources/Rewind/Collections/Persistent/UnmanagedNode.swift$') || true)
if [ -n "$misplaced" ]; then echo "outside its one place:"; echo "$misplaced"; exit 1; fi
echo "ok"

step "Apple-only files parse (their #if blocks are inactive on Linux, so the build never reads them)"
apple_only=$(grep -rlE --include='*.swift' 'canImport\((UIKit|AppKit|SwiftUI|Network)\)' Sources Examples \
  Tests/DocsSnippetTests/Generated || true)
for file in $apple_only; do swiftc -parse "$file"; done
echo "$(echo "$apple_only" | grep -c . || true) files parsed"

step "README: run the example (scripted: its output is not a terminal)"
rm -rf .build-inbox-data
swift run Inbox --directory .build-inbox-data > .build-example.log
tail -n 3 .build-example.log
grep -q "same state ✓$" .build-example.log
grep -q "chain verified ✓$" .build-example.log

step "README quick start: the minimal example"
swift run Mailbox > .build-mailbox.log
tail -n 1 .build-mailbox.log
grep -q "same state ✓" .build-mailbox.log

step "headless browser for the timeline test (Chromium from the system's packages)"
bash Scripts/install-browser.sh
export REWIND_REQUIRE_BROWSER=1  # the browser test fails, rather than skips, without Chromium

step "nats-server for the shipping tests (JetStream, from the system's packages)"
bash Scripts/install-nats.sh
export REWIND_REQUIRE_NATS=1  # the shipping tests fail, rather than skip, without nats-server

# A hung test must fail the run quickly rather than use up CI's time: each test run gets a generous limit.
step "README: run the tests"
timeout 1800 swift test

step "tests under ThreadSanitizer, with internal invariants checked after every mutation"
# REWIND_THREAD_SANITIZER swaps the package's lock for a pthread mutex TSan can see (Sources/Rewind/Support/Locked.swift).
# REWIND_CHECK_INVARIANTS turns on the `_checkInvariants()` calls of the core structures (off in normal builds).
# Serial (--no-parallel) and 10 kill -9 trials (crash and shipping): under TSan, tests that block a thread (the crash trials, file
# journal waits) held both cooperative threads for minutes, and 53 time-limited async tests queued behind them
# ran out of time before they started.
REWIND_CRASH_TRIALS=10 REWIND_SHIP_TRIALS=10 TSAN_OPTIONS="halt_on_error=1" timeout 2400 swift test --no-parallel --sanitize=thread -Xswiftc -DREWIND_THREAD_SANITIZER \
  -Xswiftc -DREWIND_CHECK_INVARIANTS --scratch-path .build-tsan

step "documentation (docc, warnings and broken links are errors)"
bash Scripts/docs.sh

step "all checks passed"
