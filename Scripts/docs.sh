#!/usr/bin/env bash
# Builds the documentation of every library module offline with the toolchain's docc, and fails on any
# warning, broken symbol links included. Output: .build/docs/<Module>.doccarchive
#
# Rewind has a catalog whose articles are the guides in Docs/ (Scripts/docs-articles.sh); the other modules
# are documented from their symbols.
# A symbol of another module is written in code voice, not as a link: each archive stands alone.
set -euo pipefail
cd "$(dirname "$0")/.."

modules=(Rewind RewindDiff RewindLog RewindComponents RewindTesting RewindShip RewindInspector RewindTool)
graphs=.build/symbol-graphs
rm -rf "$graphs" .build/docs && mkdir -p "$graphs" .build/docs
for module in "${modules[@]}"; do swift build --target "$module" --scratch-path .build-docs; done
bin=$(swift build --scratch-path .build-docs --show-bin-path)
triple=$(swiftc -print-target-info | sed -n 's/.*"triple": *"\([^"]*\)".*/\1/p' | head -n 1)

for module in "${modules[@]}"; do
  # Only the module's own symbols and its extensions of others (Module@Other.symbols.json): its
  # dependencies have their own archives. symbolgraph-extract leaves out what a module re-exports
  # (`@_exported import Rewind` in RewindLog), which the compiler's own graphs would repeat.
  mkdir -p "$graphs/$module"
  swift symbolgraph-extract -module-name "$module" -target "$triple" -I "$bin/Modules" \
    -Xcc -fmodule-map-file="$bin/CRewind.build/module.modulemap" \
    -minimum-access-level public -output-dir "$graphs/$module"
  catalog=()
  if [ "$module" = Rewind ]; then
    # The guides in Docs/ are the articles' only source: made into a copy of the catalog here.
    bash Scripts/docs-articles.sh .build/docs-catalog/Rewind.docc
    catalog=(.build/docs-catalog/Rewind.docc)
  elif [ -d "Sources/$module/$module.docc" ]; then
    catalog=("Sources/$module/$module.docc")
  fi
  docc convert "${catalog[@]}" \
    --additional-symbol-graph-dir "$graphs/$module" \
    --fallback-display-name "$module" --fallback-bundle-identifier "org.rewind.$module" \
    --output-dir ".build/docs/$module.doccarchive" \
    --warnings-as-errors
  echo "documentation: .build/docs/$module.doccarchive"
done
