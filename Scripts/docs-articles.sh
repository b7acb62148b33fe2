#!/usr/bin/env bash
# Makes DocC articles of the guides in Docs/, which are their only source: the guides are written for
# GitHub, and this turns them into articles of a copy of the Rewind catalog, so that the two never drift.
#
#   Scripts/docs-articles.sh OUTPUT_CATALOG
#
# OUTPUT_CATALOG receives Sources/Rewind/Rewind.docc (the landing page, which lists the articles) plus one
# article per guide. What changes: a link to another guide `[text](Guide.md#part)` becomes
# `[text](doc:Guide)` (GitHub's heading anchors are not DocC's, so the part is dropped), and a link
# inside the page `[text](#part)` becomes its text.
set -euo pipefail
cd "$(dirname "$0")/.."

output=${1:?usage: Scripts/docs-articles.sh OUTPUT_CATALOG}
rm -rf "$output"
mkdir -p "$(dirname "$output")"
cp -R Sources/Rewind/Rewind.docc "$output"

for guide in Docs/*.md; do
  name=$(basename "$guide" .md)
  if [ -e "$output/$name.md" ]; then
    echo "docs-articles: $name.md exists in the catalog too; Docs/ is its only source" >&2
    exit 1
  fi
  sed -E \
    -e 's/\]\(([A-Za-z]+)\.md(#[^)]*)?\)/](doc:\1)/g' \
    -e 's/\[([^]]*)\]\(#[^)]*\)/\1/g' \
    "$guide" > "$output/$name.md"
done
echo "docs-articles: $(ls Docs/*.md | wc -l) guides made articles in $output"
