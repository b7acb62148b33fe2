#!/usr/bin/env bash
# Formats every Swift file of the package in place with the toolchain's `swift format` and the rules in
# .swift-format, then lints strictly as CI does (Scripts/check.sh), listing what the formatter cannot fix
# (names, force unwraps, comments too long to move).
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Sources Tests Examples Benchmarks Package.swift)
swift format --in-place --recursive "${paths[@]}"
swift format lint --strict --recursive "${paths[@]}"
