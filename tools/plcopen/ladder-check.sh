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
source tools/plcopen/check-lib.sh
for seed in $(seq "$FIRST" $((FIRST + COUNT - 1))); do
  x="$W/ladder$seed.xml"
  python3 tools/plcopen/ladder-gen.py "$seed" "$x"
  check_imported "seed $seed" "$x" "$SCANS"
done
echo "generated ladder programs: $COUNT, the same: $same, differing: $differ, refused by a side: $refused; $values values compared; re-exports the same: $exported_same"
[ "$differ" -eq 0 ]
