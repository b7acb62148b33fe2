#!/usr/bin/env bash
# Syscall fault injection against the durable path: Scripts/fault-trials.sh [CALLS] [EVENTS]
#
# For each of pwrite64, fdatasync, fsync, ftruncate, rename(at) and openat, and each of EIO and ENOSPC,
# fails the Nth call (N = 1...CALLS, default 20) of `rewind-crash-child --faults` (appends EVENTS events,
# default 60, waiting for durability, flushing, reading back, handing to the OS and writing snapshots)
# under `strace -e inject`. After each run: the driver ended by itself (no hang: `timeout`), and reopening
# the log (`--check`) succeeds with every acknowledged event intact. Installs strace when missing.
# The last line is "N passed, M failed"; the exit status is non-zero when any trial failed.
set -uo pipefail
calls="${1:-20}"
events="${2:-60}"
cd "$(dirname "$0")/.."
if ! command -v strace >/dev/null 2>&1; then
  echo "installing strace" >&2
  apt-get update -qq >/dev/null && apt-get install -y -qq strace >/dev/null || { echo "0 passed, 1 failed (no strace)"; exit 1; }
fi
swift build --product rewind-crash-child >/dev/null || exit 1
child="$(swift build --show-bin-path)/rewind-crash-child"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
skipped=0
errored=0
fail() {
  failed=$((failed + 1))
  echo "FAILED $1" >&2
}
for syscall in pwrite64 fdatasync fsync ftruncate rename,renameat,renameat2 openat; do
  for error in EIO ENOSPC; do
    for when in $(seq 1 "$calls"); do
      trial="$syscall:error=$error:when=$when"
      rm -rf "$work/log" "$work/out" "$work/err"
      status=0
      timeout 60 strace -f -qq -o /dev/null -e trace="$syscall" -e inject="$trial" \
        "$child" --faults "$work/log" "$events" >"$work/out" 2>"$work/err" || status=$?
      if [ "$status" -eq 124 ]; then fail "$trial: the driver hung"; continue; fi
      if [ "$status" -ne 0 ] && [ "$status" -ne 1 ]; then
        # A fault in the first calls can hit the dynamic loader before the driver's code runs at all.
        # (The driver's own failures, before or after it opened the log, exit with 1.)
        if ! grep -q '^open ' "$work/out"; then
          skipped=$((skipped + 1))
          continue
        fi
        fail "$trial: the driver ended with status $status"
        continue
      fi
      if [ "$status" -eq 1 ]; then errored=$((errored + 1)); fi
      acked="$(grep '^ack ' "$work/out" | tail -1 | cut -d' ' -f2)"
      acked="${acked:-0}"
      if [ ! -d "$work/log" ]; then
        if [ "$acked" -eq 0 ]; then passed=$((passed + 1)); else fail "$trial: acknowledged $acked, no log"; fi
        continue
      fi
      check=0
      last="$(timeout 60 "$child" --check "$work/log" 2>"$work/check-err")" || check=$?
      last="${last#last }"
      if [ "$check" -ne 0 ]; then fail "$trial: reopening failed: $(cat "$work/check-err")"; continue; fi
      if [ "$last" -lt "$acked" ]; then fail "$trial: acknowledged $acked, reopened with $last"; continue; fi
      if [ "$status" -eq 0 ] && [ "$last" -ne "$events" ]; then fail "$trial: succeeded but holds $last of $events"; continue; fi
      passed=$((passed + 1))
    done
  done
done
echo "($errored runs ended with the injected error, the others did not meet it or got past it)"
if [ "$skipped" -gt 0 ]; then echo "($skipped runs not counted: the fault hit the loader before the driver started)"; fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
