#!/usr/bin/env bash
# Instructions of the log's checksums, counted by callgrind: per message and per 64 bytes of input (for
# SHA-256 over 1 MiB, the cost of one compressed block). Needs valgrind.
#
#   Scripts/checksum-instructions.sh [bytes]     (default 4 MiB hashed per line)
#
# Under valgrind the processor reports no SHA extensions, so SHA-256 runs its portable code here, as on a
# processor without them; `rewind-bench checksum` shows both.
set -euo pipefail
cd "$(dirname "$0")/.."
bytes="${1:-4194304}"
command -v valgrind > /dev/null || { echo "valgrind is not installed" >&2; exit 2; }
swift build -c release --product rewind-bench > /dev/null
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

printf '%-20s %14s %14s\n' line 'per message' 'per 64 bytes'
for line in sha256-64B sha256-1KiB sha256-1MiB hmac-sha256-64B hmac-sha256-1KiB hmac-sha256-1MiB \
  crc32c-64B crc32c-1KiB crc32c-1MiB chain-step-1KiB; do
  case "$line" in
    *-64B) size=64 ;;
    *-1KiB) size=1024 ;;
    *-1MiB) size=1048576 ;;
  esac
  REWIND_BENCH_CHECKSUM_ONLY="$line" REWIND_BENCH_CHECKSUM_BYTES="$bytes" \
    valgrind --tool=callgrind --callgrind-out-file="$out/$line.out" .build/release/rewind-bench checksum \
    > /dev/null 2>&1
  total=$({ callgrind_annotate --inclusive=yes "$out/$line.out" 2> /dev/null | grep -E 'checksumRun' || true; } |
    head -1 | awk '{ gsub(",", "", $1); print $1 }')
  messages=$((bytes / size > 0 ? bytes / size : 1))
  printf '%-20s %14d %14d\n' "$line" $((total / messages)) $((total * 64 / (messages * size)))
done
