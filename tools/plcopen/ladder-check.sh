#!/usr/bin/env bash
# Runs generated ladder programs (tools/plcopen/ladder-gen.py: random series and parallel
# nests of every contact and coil kind, timers, counters and an ADD with EN/ENO in rungs,
# several rungs writing one variable) through Beremiz's generator and matiec and through
# `fbd import` + `fbd run`, every input driven (tools/plcopen/stimulus.py), and compares every
# output and variable of every scan (tools/plcopen/beremiz-check.py). A line per program that
# differs or is refused, then the totals.
#
#   BEREMIZ=... IEC2C=... MATIEC_LIB=... tools/plcopen/ladder-check.sh [COUNT] [SCANS] [FIRST_SEED]
set -uo pipefail
cd "$(dirname "$0")/../.."
COUNT=${1:-500}
SCANS=${2:-200}
FIRST=${3:-1}
FBD=${FBD:-target/release/fbd}
[ -x "$FBD" ] || cargo build --release -q -p fbd-cli
export FBD=$(realpath "$FBD")
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
same=0; differ=0; refused=0; values=0
for seed in $(seq "$FIRST" $((FIRST + COUNT - 1))); do
  x="$W/ladder$seed.xml"
  python3 tools/plcopen/ladder-gen.py "$seed" "$x"
  if ! "$FBD" import "$x" -o "$W/d.json" >/dev/null 2>"$W/err"; then
    refused=$((refused + 1)); echo "seed $seed: fbd refuses: $(head -c 300 "$W/err")"; continue
  fi
  python3 tools/plcopen/stimulus.py "$W/d.json" "$SCANS" > "$W/stim.txt"
  out=$(python3 tools/plcopen/beremiz-check.py "$x" --scans "$SCANS" --stimulus "$W/stim.txt" --show 3 2>&1)
  rc=$?
  n=$(echo "$out" | sed -n 's/.*: \([0-9]*\) values over.*/\1/p' | tail -1)
  values=$((values + ${n:-0}))
  case $rc in
    0) same=$((same + 1)) ;;
    1) differ=$((differ + 1)); echo "seed $seed: $(echo "$out" | tr '\n' ' ' | cut -c1-500)" ;;
    *) refused=$((refused + 1)); echo "seed $seed: refused: $(echo "$out" | tr '\n' ' ' | cut -c1-400)" ;;
  esac
done
echo "generated ladder programs: $COUNT, the same: $same, differing: $differ, refused by a side: $refused; $values values compared"
[ "$differ" -eq 0 ]
