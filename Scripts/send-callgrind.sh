#!/usr/bin/env bash
# Instructions per send through a store, counted by callgrind: exact and repeatable on a loaded machine,
# where wall-clock figures are not. Needs valgrind and a release build (`swift build -c release --product
# rewind-bench`).
#
#   bash Scripts/send-callgrind.sh [BINARY]
#
# Prints two figures, each the inclusive count of a suite's timed closure divided by the sends it makes:
# - `dispatch`: a counter with no subscribers (four runs of 100,000 sends; the benchmark's loop included).
# - `views`: a list of 1,000 rows, each send editing one row, averaged over the runs with a view per row
#   and without views (eight runs of 10,000 sends; the wait for the views to be told included, the main
#   thread's re-renders not).
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/release/rewind-bench}
command -v valgrind > /dev/null || { echo "valgrind is not installed" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Valgrind 3.19 gives up on the debug info Swift 6.2+ writes; symbols are all the counts need.
objcopy --strip-debug "$binary" "$out/binary"
binary=$out/binary

# The inclusive instruction count of the function whose symbol matches $2, in callgrind file $1: the largest
# of its lines (callgrind lists a function once per source file its code comes from, each with the whole
# function's inclusive count or a part of it). Lines with `=>` are calls inside annotated source.
inclusive() {
  callgrind_annotate --inclusive=yes --threshold=100 "$1" > "$1.txt" 2> /dev/null
  grep -v '=>' "$1.txt" | grep -E "$2" | awk '{ gsub(",", "", $1); if ($1 + 0 > max) max = $1 + 0 } END { print max }'
}

sends=100000
REWIND_BENCH_SENDS=$sends REWIND_BENCH_SUBSCRIBERS=0 valgrind --tool=callgrind \
  --callgrind-out-file="$out/dispatch" "$binary" dispatch > /dev/null 2>&1
count=$(inclusive "$out/dispatch" ':\$s12rewind_bench13storeSendRate.*XEfU0_( |$)')
awk -v i="$count" -v n=$((4 * sends)) 'BEGIN { printf "dispatch  %7.1f instructions per send\n", i / n }'

sends=10000
REWIND_BENCH_VIEWS=send REWIND_BENCH_SENDS=$sends valgrind --tool=callgrind \
  --callgrind-out-file="$out/views" "$binary" views > /dev/null 2>&1
count=$(inclusive "$out/views" ':\$s12rewind_bench9sendRates.*tFyyXEfU0_( |$)')
awk -v i="$count" -v n=$((8 * sends)) 'BEGIN { printf "views     %7.1f instructions per send\n", i / n }'
