#!/usr/bin/env bash
# Builds the documentation of every library module offline with the toolchain's docc, and fails on any
# warning, broken symbol links included. Output: .build/docs/<Module>.doccarchive
#
# Rewind has a catalog whose articles are the guides in Docs/ (Scripts/docs-articles.sh); the other modules
# are documented from their symbols.
# A symbol of another module is written in code voice, not as a link: each archive stands alone.
set -euo pipefail
cd "$(dirname "$0")/.."

modules=(Rewind RewindDiff RewindLog RewindComponents RewindTesting RewindShip RewindTool)
graphs=.build/symbol-graphs
rm -rf "$graphs" .build/docs && mkdir -p "$graphs" .build/docs
# A fresh scratch directory: symbol graphs are written only when a module is compiled.
rm -rf .build-docs
for module in "${modules[@]}"; do
  swift build --target "$module" --scratch-path .build-docs \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs/all" \
    -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public
done

for module in "${modules[@]}"; do
  # Only the module's own graphs (and its extensions of others): its dependencies have their own archives.
  mkdir -p "$graphs/$module"
  cp "$graphs/all/$module.symbols.json" "$graphs/$module/"
  find "$graphs/all" -name "$module@*.symbols.json" -exec cp {} "$graphs/$module/" \;
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
