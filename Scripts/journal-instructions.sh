#!/usr/bin/env bash
# Instructions per event of the journal's append and replay paths, counted by callgrind: repeatable on a
# loaded machine, where wall-clock figures are not. Needs valgrind.
#
#   Scripts/journal-instructions.sh [events]     (default 5000)
#
# Prints, per path, the instructions of FileJournal.append (appending thread), of the committer thread
# (frames, CRC, SHA-256, writes), of Store.open on the opening thread (scan, decode, reduce) and of the
# hash chain check that runs beside it on another thread, each divided by the number of events. Under
# valgrind the threads take turns, so the appender's frames hold a few events each instead of hundreds: the
# committer figure includes more per-frame overhead than a real run has. The replayed log is written at
# full speed first, outside valgrind, so the replay figures see real frame sizes.
set -euo pipefail
cd "$(dirname "$0")/.."
events="${1:-5000}"
command -v valgrind > /dev/null || { echo "valgrind is not installed" >&2; exit 2; }
swift build -c release --product rewind-bench > /dev/null
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

inclusive() {  # file, symbol pattern -> inclusive instruction count of the first match
  { callgrind_annotate --inclusive=yes "$1" 2> /dev/null | grep -E "$2" || true; } | head -1 | awk '{ gsub(",", "", $1); print $1 }'
}

every_thread() {  # run's output file prefix, symbol pattern -> the inclusive counts summed over its threads
  local sum=0 found thread
  for thread in "$1"-0*; do
    found=$(inclusive "$thread" "$2")
    sum=$((sum + ${found:-0}))
  done
  echo "$sum"
}

REWIND_BENCH_JOURNAL_LOG="$out/log" REWIND_BENCH_JOURNAL_ONLY=replay REWIND_BENCH_JOURNAL_COUNT="$events" \
  .build/release/rewind-bench journal > /dev/null 2>&1
for mode in append append-codable replay replay-codable; do
  REWIND_BENCH_JOURNAL_LOG="$out/log" REWIND_BENCH_JOURNAL_ONLY="$mode" REWIND_BENCH_JOURNAL_COUNT="$events" \
    valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$out/$mode.out" \
    .build/release/rewind-bench journal > /dev/null 2>&1
  case "$mode" in
    append*)
      appended=$(inclusive "$out/$mode.out-01" 'FileJournalC6appendyy0A05EventVyxGKF \[')
      committed=$(every_thread "$out/$mode.out" 'CommitterC3run.*yyF \[')
      printf '%-16s append %8d  committer %8d  instructions per event\n' "$mode" \
        $((appended / events)) $((committed / events))
      ;;
    replay*)
      # The bench opens the store twice (a warm-up and the measured run).
      opened=$(inclusive "$out/$mode.out-01" 'JournalSuite.swift:.*replayRate')
      checked=$(every_thread "$out/$mode.out" 'ChainCheck.swift:')
      printf '%-16s open, scan, decode, reduce %8d  chain check beside it %8d  instructions per event\n' \
        "$mode" $((opened / events / 2)) $((checked / events / 2))
      ;;
  esac
done
