#!/usr/bin/env bash
# Long runs of the shipping kill -9 harness: Scripts/ship-trials.sh N [SEED]
# Runs RewindShipTests/KillTrialTests with N trials: `rewind ship --follow` is killed with SIGKILL at a random
# moment while the app appends, N times, and the verifier checks the stream after each kill (every event once,
# in order, chain intact); then the app itself is killed mid-append N/4 times while an in-process shipper
# follows (no torn frame is ever shipped). Needs nats-server (Scripts/install-nats.sh).
# The last line is "N passed, M failed"; the exit status is non-zero when any trial failed.
set -euo pipefail
trials="${1:-1000}"
seed="${2:-}"
cd "$(dirname "$0")/.."
bash Scripts/install-nats.sh > /dev/null
swift build --build-tests > /dev/null
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
REWIND_REQUIRE_NATS=1 REWIND_SHIP_TRIALS="$trials" REWIND_SHIP_SEED="$seed" \
  swift test --skip-build --filter 'RewindShipTests.KillTrialTests' > "$log" 2>&1 || status=$?
grep -E 'kill -9 trials|recorded an issue' "$log" | cut -c1-300 || true
result="$(grep -oE '[0-9]+ passed, [0-9]+ failed$' "$log" | awk '{p += $1; f += $3} END {if (NR) print p " passed, " f " failed"}' || true)"
if [ -z "$result" ] || [ "$status" -ne 0 ]; then
  tail -20 "$log" | cut -c1-300
  [ -z "$result" ] && result="0 passed, $trials failed"
  status=1
fi
echo "$result"
exit "$status"
