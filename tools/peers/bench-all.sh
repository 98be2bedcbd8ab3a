#!/usr/bin/env bash
# Every figure of `fbd bench --all`, with the peers side by side in the same run: runs
# `fbd bench --all --json` with nneonneo/2048-ai's moves ($NNEONNEO_MOVES) and IronPLC
# ($IRONPLC_BIN), PAIRS pairs each (default 5). Writes target/peers/bench-all.json and prints
# the peers' ratios. tools/peers/README.md says what the two must be.
#
#   NNEONNEO_MOVES=PROGRAM IRONPLC_BIN=DIR tools/peers/bench-all.sh [PAIRS]
set -euo pipefail
cd "$(dirname "$0")/../.."
. tools/peers/lib.sh
PAIRS=${1:-5}
MOVES=$(need_program NNEONNEO_MOVES "a program running the moves workload on their execute_move")
IRONPLC=$(need_ironplc)
mkdir -p target/peers
cargo build --release -q -p fbd-cli
target/release/fbd bench --all --json --pairs "$PAIRS" --nneonneo-moves "$MOVES" --ironplc "$IRONPLC" \
  > target/peers/bench-all.json
python3 - target/peers/bench-all.json <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
for name, c in v["peers"].items():
    print(f"{name}: {c['what']}")
    print(f"  {c['ratio_is']}: median {c['ratio_median']:.2f} ({c['ratio_min']:.2f}-{c['ratio_max']:.2f}) over {len(c['pairs'])} pairs")
print(f"(everything else: {sys.argv[1]})")
PY
