#!/usr/bin/env bash
# Builds the Rewind module's documentation offline with the toolchain's docc, and fails on any warning,
# broken symbol links included. Output: .build/docs/Rewind.doccarchive
set -euo pipefail
cd "$(dirname "$0")/.."

graphs=.build/symbol-graphs
rm -rf "$graphs" .build/docs && mkdir -p "$graphs" .build/docs
# A fresh scratch directory: symbol graphs are written only when the module is compiled.
rm -rf .build-docs
swift build --target Rewind --scratch-path .build-docs \
  -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs" \
  -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public
# Only the module's own graphs: its dependencies are documented in their own right.
find "$graphs" -name '*.symbols.json' ! -name 'Rewind.symbols.json' ! -name 'Rewind@*.symbols.json' -delete

docc convert Sources/Rewind/Rewind.docc \
  --additional-symbol-graph-dir "$graphs" \
  --fallback-display-name Rewind --fallback-bundle-identifier org.rewind.Rewind \
  --output-dir .build/docs/Rewind.doccarchive \
  --warnings-as-errors
echo "documentation: .build/docs/Rewind.doccarchive"
