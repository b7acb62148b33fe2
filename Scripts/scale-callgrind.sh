#!/usr/bin/env bash
# Counts what one send of `rewind-bench scale` costs, independent of the machine's load: instructions and
# cache misses per send inside the timed loop, under callgrind with a 32 KB L1 and a 512 KB last level
# (about this machine's L2: a miss there is an L3 or memory access). Needs valgrind and a release build.
#
#   bash Scripts/scale-callgrind.sh ROWS CONFIG [SENDS] [BINARY]
#   bash Scripts/scale-callgrind.sh 100000 undo-off
#
# CONFIG `floors` counts the same edits without a store (`scale/edit-by-id…`): an `IdentifiedArray` edited
# in unique storage, the same with its first version kept, and a Swift `Dictionary`.
set -euo pipefail
cd "$(dirname "$0")/.."
rows=$1
config=$2
sends=${3:-2000}
binary=${4:-.build/release/rewind-bench}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
if [ "$config" = floors ]; then
  REWIND_BENCH_SCALE_ONLY=floors REWIND_BENCH_SCALE_ROWS=$rows REWIND_BENCH_SENDS=$sends valgrind --tool=callgrind \
    --cache-sim=yes --D1=32768,8,64 --LL=524288,8,64 --callgrind-out-file="$out" "$binary" scale > /dev/null 2>&1
  # Inclusive counts of the floors' edit loops (five runs of `sends` edits each); the IdentifiedArray loop
  # runs for both the unique and the kept list, the kept one inside toggledVersion.
  counts() {
    callgrind_annotate --inclusive=yes "$out" 2> /dev/null | grep -m1 "ScaleFloors.swift:\$s12rewind_bench$1" \
      | tr -d ',' | sed 's/([^)]*)//g' | awk '{ print $1, $5 + $6, $8 + $9 }'
  }
  read -r all_i all_l1 all_ll < <(counts '6toggle.*IdentifiedArray')
  read -r kept_i kept_l1 kept_ll < <(counts '14toggledVersion')
  read -r dict_i dict_l1 dict_ll < <(counts '6toggle.*SDySi')
  line() {
    awk -v n="$((sends * 5))" -v name="$1" -v i="$2" -v l1="$3" -v ll="$4" 'BEGIN {
      printf "%-34s %7.0f instructions, %6.1f L1 misses, %6.1f L2 misses per edit\n", name, i / n, l1 / n, ll / n
    }'
  }
  line "scale/edit-by-id-rows=$rows" $((all_i - kept_i)) $((all_l1 - kept_l1)) $((all_ll - kept_ll))
  line "scale/edit-by-id-kept-rows=$rows" "$kept_i" "$kept_l1" "$kept_ll"
  line "dictionary-rows=$rows" "$dict_i" "$dict_l1" "$dict_ll"
  exit 0
fi
REWIND_BENCH_SCALE_ONLY=sends REWIND_BENCH_SCALE_ROWS=$rows REWIND_BENCH_SCALE_CONFIGS=$config \
  REWIND_BENCH_SENDS=$sends valgrind --tool=callgrind --cache-sim=yes --D1=32768,8,64 --LL=524288,8,64 \
  --callgrind-out-file="$out" "$binary" scale > /dev/null 2>&1
# The timed closure of sendMicroseconds (five runs of `sends` sends), inclusive of everything it calls.
callgrind_annotate --inclusive=yes "$out" 2> /dev/null \
  | grep -m1 'Harness.swift:\$s12rewind_bench16sendMicroseconds' | tr -d ',' | sed 's/([^)]*)//g' \
  | awk -v sends="$sends" -v name="scale/$config-rows=$rows" '{
      n = sends * 5
      printf "%-28s %7.0f instructions, %6.1f L1 misses, %6.1f L2 misses per send\n", name, $1 / n, ($5 + $6) / n, ($8 + $9) / n
    }'
