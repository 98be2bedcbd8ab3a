#!/usr/bin/env bash
# Runs generated programs (crates/fbd-reference's generator, IEC blocks only: every type, the
# conversions, counters, edges, bistables, selection, comparison and arithmetic but DIV/MOD)
# through fbd's PLCopen export, Beremiz's generator and matiec, and compares every output of
# every scan with `fbd run` of the diagram (tools/plcopen/beremiz-check.py). Prints a line per
# program that differs or is refused, and the totals.
#
#   BEREMIZ=... IEC2C=... MATIEC_LIB=... tools/plcopen/generated-check.sh [COUNT] [SCANS]
set -uo pipefail
cd "$(dirname "$0")/../.."
COUNT=${1:-1000}
SCANS=${2:-60}
FBD=${FBD:-target/release/fbd}
[ -x "$FBD" ] || cargo build --release -q -p fbd-cli
export FBD
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
GENERATED="$W" COUNT="$COUNT" cargo test -q -p fbd-reference write_iec_diagrams -- --ignored >/dev/null 2>&1
same=0; differ=0; refused=0; values=0
for f in "$W"/gen-*.json; do
  x="${f%.json}.xml"
  if ! "$FBD" export "$f" -o "$x" >/dev/null 2>"$W/err"; then
    refused=$((refused + 1)); echo "$(basename "$f"): fbd refuses: $(head -c 300 "$W/err")"; continue
  fi
  out=$(python3 tools/plcopen/beremiz-check.py "$x" --ours "$f" --scans "$SCANS" --show 3 2>&1)
  rc=$?
  n=$(echo "$out" | sed -n 's/.*: \([0-9]*\) values over.*/\1/p' | tail -1)
  values=$((values + ${n:-0}))
  case $rc in
    0) same=$((same + 1)) ;;
    1) differ=$((differ + 1)); echo "$(basename "$f"): $(echo "$out" | tr '\n' ' ' | cut -c1-400)" ;;
    *) refused=$((refused + 1)); echo "$(basename "$f"): refused: $(echo "$out" | tr '\n' ' ' | cut -c1-400)" ;;
  esac
done
echo "generated programs: $COUNT, the same: $same, differing: $differ, refused by a side: $refused; $values values compared"
[ "$differ" -eq 0 ]
