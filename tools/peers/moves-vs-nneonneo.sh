#!/usr/bin/env bash
# Native moves side by side with nneonneo/2048-ai, in one run: four moves on each of 2^20
# random boards (splitmix64 from 0x2048), 30 times, through ref2048::move_board
# (crates/ref2048/examples/moves_workload.rs) and through their execute_move (a program of
# the user's own around their move code, $NNEONNEO_MOVES). Both print the same checksum; the
# pairs alternate, and the ratio is the median of their move-loop times (process times too).
#
#   NNEONNEO_MOVES=PROGRAM tools/peers/moves-vs-nneonneo.sh [PAIRS]      (default 7)
#
# Theirs: the program in $NNEONNEO_MOVES (tools/peers/README.md: what it must print).
set -euo pipefail
cd "$(dirname "$0")/../.."
. tools/peers/lib.sh
PAIRS=${1:-7}
THEIRS=$(need_program NNEONNEO_MOVES "a program running the workload on their execute_move")
cargo build --release -q -p ref2048 --example moves_workload
OURS=target/release/examples/moves_workload
ratios=(); pratios=()
for i in $(seq "$PAIRS"); do
  a=$("$OURS"); b=$("$THEIRS")
  ca=$(echo "$a" | awk '{print $2}'); cb=$(echo "$b" | awk '{print $2}')
  if [ "$ca" != "$cb" ]; then echo "checksums differ: ours $ca, theirs $cb" >&2; exit 1; fi
  na=$(echo "$a" | awk '{print $5}'); nb=$(echo "$b" | awk '{print $5}')
  pa=$(echo "$a" | sed -E 's/.*process ([0-9.]+) s.*/\1/'); pb=$(echo "$b" | sed -E 's/.*process ([0-9.]+) s.*/\1/')
  r=$(awk -v a="$na" -v b="$nb" 'BEGIN{printf "%.3f", a/b}')
  pr=$(awk -v a="$pa" -v b="$pb" 'BEGIN{printf "%.3f", a/b}')
  ratios+=("$r"); pratios+=("$pr")
  echo "pair $i: ours $na ns/move (process $pa s), nneonneo $nb ns/move (process $pb s): time ratio $r (process $pr)"
done
med() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
lo() { printf '%s\n' "$@" | sort -n | head -1; }
hi() { printf '%s\n' "$@" | sort -n | tail -1; }
echo "checksum $(echo "$a" | awk '{print $2}') (both)"
echo "ours / nneonneo time: median $(med "${ratios[@]}") (range $(lo "${ratios[@]}")-$(hi "${ratios[@]}")); whole process: median $(med "${pratios[@]}") (range $(lo "${pratios[@]}")-$(hi "${pratios[@]}"))"
echo "(below 1: ours is faster; throughput ratio = 1 / time ratio)"
