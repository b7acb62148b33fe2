#!/usr/bin/env bash
# Instructions per event of the journal's append and replay paths, counted by callgrind: repeatable on a
# loaded machine, where wall-clock figures are not. Needs valgrind.
#
#   Scripts/journal-instructions.sh [events]     (default 5000)
#
# Prints, per path, the instructions of FileJournal.append (appending thread), of the committer thread
# (frames, CRC, SHA-256, writes), and of Store.open (scan and verify, decode, reduce), each divided by the
# number of events. Under valgrind the threads take turns, so frames hold a few events each instead of
# hundreds: the committer and scan figures include more per-frame overhead than a real run has.
set -euo pipefail
cd "$(dirname "$0")/.."
events="${1:-5000}"
command -v valgrind > /dev/null || { echo "valgrind is not installed" >&2; exit 2; }
swift build -c release --product rewind-bench > /dev/null
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

inclusive() {  # file, symbol pattern -> inclusive instruction count of the first match
  callgrind_annotate --inclusive=yes "$1" 2> /dev/null | grep -E "$2" | head -1 | awk '{ gsub(",", "", $1); print $1 }'
}

for mode in append append-codable replay replay-codable; do
  REWIND_BENCH_JOURNAL_ONLY="$mode" REWIND_BENCH_JOURNAL_COUNT="$events" \
    valgrind --tool=callgrind --callgrind-out-file="$out/$mode.out" .build/release/rewind-bench journal > /dev/null 2>&1
  case "$mode" in
    append*)
      appended=$(inclusive "$out/$mode.out" 'FileJournalC6appendyy0A05EventVyxGKF \[')
      committed=$(inclusive "$out/$mode.out" 'CommitterC3run.*yyF \[')
      printf '%-16s append %8d  committer %8d  instructions per event\n' "$mode" \
        $((appended / events)) $((committed / events))
      ;;
    replay*)
      # The bench opens the store twice (a warm-up and the measured run).
      opened=$(inclusive "$out/$mode.out" 'JournalSuite.swift:.*replayRate')
      printf '%-16s open, verify, decode, reduce %8d  instructions per event\n' "$mode" $((opened / events / 2))
      ;;
  esac
done
