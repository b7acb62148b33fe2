#!/usr/bin/env bash
# Long runs of the kill -9 harness: Scripts/crash-trials.sh N
# Runs N trials of RewindLogTests/CrashTests (a child appends with grouped durability and reports each
# acknowledged event; it is killed with SIGKILL at a random moment; the log is reopened and checked), and
# N/3 trials of the same during retention cuts (4 KiB segments, a policy, periodic snapshots).
# The last line is "N passed, M failed"; the exit status is non-zero when any trial failed.
set -euo pipefail
trials="${1:-1000}"
cd "$(dirname "$0")/.."
swift build --build-tests >/dev/null
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
REWIND_CRASH_TRIALS="$trials" swift test --skip-build --filter 'RewindLogTests.CrashTests' >"$log" 2>&1 || status=$?
grep -E 'kill -9 trials|recorded an issue' "$log" || true
# One "P passed, F failed" line per test: the sum.
result="$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | awk '{p += $1; f += $3} END {if (NR) print p " passed, " f " failed"}' || true)"
if [ -z "$result" ]; then
  tail -40 "$log"
  echo "0 passed, $trials failed"
  exit 1
fi
echo "$result"
exit "$status"
