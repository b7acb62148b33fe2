#!/usr/bin/env bash
# Counts what one send of `rewind-bench scale` costs, independent of the machine's load: instructions and
# cache misses per send inside the timed loop, under callgrind with a 32 KB L1 and a 512 KB last level
# (about this machine's L2: a miss there is an L3 or memory access). Needs valgrind and a release build.
#
#   bash Scripts/scale-callgrind.sh ROWS CONFIG [SENDS] [BINARY]
#   bash Scripts/scale-callgrind.sh 100000 undo-off
#
# What it prints, each figure divided by the edits or sends it counts (five runs of SENDS each):
# - CONFIG a store configuration (`undo-off`, `undo-on`, `subscriber`, `file`, `all`): the inclusive count of
#   the timed closure of `sendMicroseconds`, everything a send does and calls, per send.
# - CONFIG `floors`: the same edits without a store (`scale/edit-by-id…`), each the inclusive count of its own
#   loop function in Benchmarks/ScaleFloors.swift, per edit: `toggleUnique` (an `IdentifiedArray` in unique
#   storage), `toggledVersion` (the same with its first version kept) and `toggleDictionary` (a Swift
#   `Dictionary`). No figure is a difference of two counts.
set -euo pipefail
cd "$(dirname "$0")/.."
rows=$1
config=$2
sends=${3:-2000}
binary=${4:-.build/release/rewind-bench}
out=$(mktemp)
stripped=$(mktemp)
trap 'rm -f "$out" "$stripped"' EXIT
# Valgrind 3.19 gives up on the debug info Swift 6.2+ writes; symbols are all the counts need.
objcopy --strip-debug "$binary" "$stripped"
binary=$stripped

# The inclusive counts of the function whose symbol matches $1: instructions, L1 misses, last-level misses.
# `--threshold=100` lists every function (the default drops the cheapest 1%, and a short run's loop with
# them); lines with `=>` are calls inside annotated source, not a function's own total.
counts() {
  callgrind_annotate --inclusive=yes --threshold=100 "$out" 2> /dev/null | grep -v '=>' | grep -m1 -E "$1" \
    | tr -d ',' | sed 's/([^)]*)//g' | awk '{ print $1, $5 + $6, $8 + $9 }'
}
# Prints `name`: each count over `n`.
line() {
  awk -v n="$2" -v name="$1" -v i="$3" -v l1="$4" -v ll="$5" -v unit="$6" 'BEGIN {
    printf "%-34s %7.0f instructions, %6.1f L1 misses, %6.1f L2 misses per %s\n", name, i / n, l1 / n, ll / n, unit
  }'
}

if [ "$config" = floors ]; then
  REWIND_BENCH_SCALE_ONLY=floors REWIND_BENCH_SCALE_ROWS=$rows REWIND_BENCH_SENDS=$sends valgrind --tool=callgrind \
    --cache-sim=yes --D1=32768,8,64 --LL=524288,8,64 --callgrind-out-file="$out" "$binary" scale > /dev/null 2>&1
  read -r unique_i unique_l1 unique_ll < <(counts '[^ ]*:\$s12rewind_bench12toggleUnique')
  read -r kept_i kept_l1 kept_ll < <(counts '[^ ]*:\$s12rewind_bench14toggledVersion')
  read -r dict_i dict_l1 dict_ll < <(counts '[^ ]*:\$s12rewind_bench16toggleDictionary')
  line "scale/edit-by-id-rows=$rows" $((sends * 5)) "$unique_i" "$unique_l1" "$unique_ll" edit
  line "scale/edit-by-id-kept-rows=$rows" $((sends * 5)) "$kept_i" "$kept_l1" "$kept_ll" edit
  line "dictionary-rows=$rows" $((sends * 5)) "$dict_i" "$dict_l1" "$dict_ll" edit
  exit 0
fi
REWIND_BENCH_SCALE_ONLY=sends REWIND_BENCH_SCALE_ROWS=$rows REWIND_BENCH_SCALE_CONFIGS=$config \
  REWIND_BENCH_SENDS=$sends valgrind --tool=callgrind --cache-sim=yes --D1=32768,8,64 --LL=524288,8,64 \
  --callgrind-out-file="$out" "$binary" scale > /dev/null 2>&1
read -r send_i send_l1 send_ll < <(counts '[^ ]*:\$s12rewind_bench16sendMicroseconds[^ ]*XEfU[0-9]+_ ')
line "scale/$config-rows=$rows" $((sends * 5)) "$send_i" "$send_l1" "$send_ll" send
