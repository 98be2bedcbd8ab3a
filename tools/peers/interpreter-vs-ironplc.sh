#!/usr/bin/env bash
# Our scan interpreter side by side with IronPLC's bytecode VM (ironplc/ironplc) on one program:
# `x := (x + 7 - 3) MOD 1021` repeated STAGES times per scan (3 operations each). Ours runs it
# as FBD (ADD, SUB and MOD blocks in one chain closed by a feedback wire: fbd_engine::synth::
# mod_chain, `fbd bench --shape modchain`), IronPLC as the same Structured Text program (a bare
# PROGRAM: its freewheeling task runs every round). Also the plan compiled to C (`cc -O2`,
# fbd_engine::cgen): a lower bound, bound by MOD's latency rather than by dispatch.
#
#   IRONPLC_BIN=DIR tools/peers/interpreter-vs-ironplc.sh [PAIRS] [STAGES]
#       (default 5 pairs, 1000 stages; DIR holds IronPLC's ironplcc and ironplcvm)
#
# Each pair runs theirs and ours back to back; the ratio of mean scan times is printed per pair,
# then the median and range. Theirs: IronPLC's own command-line tools, built by the user from
# their public source (tools/peers/README.md).
# The chain and wide shapes on IronPLC (their plans as Structured Text): tools/peers/bench-all.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
PAIRS=${1:-5}
STAGES=${2:-1000}
. tools/peers/lib.sh
BIN=$(need_ironplc)
IRONPLCC="$BIN/ironplcc"
IRONPLCVM="$BIN/ironplcvm"
cargo build --release -q -p fbd-cli
mkdir -p target/peers
ST=target/peers/modchain.st
{
  echo "PROGRAM main"
  echo "  VAR x : DINT; END_VAR"
  for _ in $(seq "$STAGES"); do echo "  x := (x + 7 - 3) MOD 1021;"; done
  echo "END_PROGRAM"
} > "$ST"
"$IRONPLCC" compile "$ST" -o target/peers/modchain.iplc
BLOCKS=$((STAGES * 3))
echo "program: x := (x + 7 - 3) MOD 1021, ${STAGES}x per scan ($BLOCKS operations)"
for p in $(seq "$PAIRS"); do
  theirs=$("$IRONPLCVM" benchmark target/peers/modchain.iplc --cycles 20000 --warmup 2000 |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["scan_us"]["mean"])')
  ours_json=$(target/release/fbd bench --synthetic "$BLOCKS" --shape modchain --native-c --json)
  read -r ours c <<< "$(python3 -c 'import json,sys; r=json.loads(sys.argv[1])[0]; print(r["scan_mean_ns"]/1e3, r["native_c_scan_ns"]/1e3)' "$ours_json")"
  python3 -c 'import sys; t,o,c=map(float,sys.argv[1:4]); print(f"pair {sys.argv[4]}: IronPLC {t:.2f} µs, ours {o:.2f} µs, C {c:.2f} µs per scan (means); IronPLC/ours {t/o:.1f}x, ours/C {o/c:.2f}x")' "$theirs" "$ours" "$c" "$p"
done | tee target/peers/ironplc-pairs.txt
python3 - target/peers/ironplc-pairs.txt <<'EOF'
import re, statistics, sys
r = [float(m) for m in re.findall(r"IronPLC/ours ([0-9.]+)x", open(sys.argv[1]).read())]
print(f"IronPLC/ours: median {statistics.median(r):.1f}x ({min(r):.1f}-{max(r):.1f}) over {len(r)} pairs")
EOF
