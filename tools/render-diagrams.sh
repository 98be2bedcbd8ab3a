#!/usr/bin/env bash
# Renders docs/diagrams/*.svg from diagrams/2048.json with `fbd svg` (a test checks they are
# fresh). Run from the repository root after changing the layout or the 2048 macros.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q --release -p fbd-cli
fbd=target/release/fbd
# The top level with its long nets as connector pairs (4,466 crossings as wires).
$fbd svg diagrams/2048.json --whole --connectors -o docs/diagrams/program.svg
for m in Cell Installation Random Processing ProcessingMultiScan; do
  $fbd svg diagrams/2048.json --macro "$m" -o "docs/diagrams/$m.svg"
done
# The top level page by page (`pages` in the file), as the online view opens it.
rm -f docs/diagrams/program-page-*.svg
k=1
while $fbd svg diagrams/2048.json --page "$k" -o "docs/diagrams/program-page-$k.svg" 2>/dev/null; do
  k=$((k + 1))
done
