#!/usr/bin/env bash
# Runs generated Structured Text programs (tools/plcopen/st-gen.py: nested expressions of
# every operator, standard functions and conversions, IF/ELSIF/ELSE and CASE nested, calls of
# TON, CTU and R_TRIG instances in branches or not) through Beremiz's generator and matiec
# and through `fbd import` + `fbd run`, every input driven (tools/plcopen/stimulus.py), and
# compares every output and variable of every scan (tools/plcopen/beremiz-check.py). A line
# per program that differs or is refused, then the totals.
#
#   BEREMIZ=... IEC2C=... MATIEC_LIB=... tools/plcopen/st-check.sh [COUNT] [SCANS] [FIRST_SEED]
set -uo pipefail
cd "$(dirname "$0")/../.."
COUNT=${1:-300}
SCANS=${2:-200}
FIRST=${3:-1}
NO_EXPORT=1
source tools/plcopen/check-lib.sh
for seed in $(seq "$FIRST" $((FIRST + COUNT - 1))); do
  x="$W/st$seed.xml"
  python3 tools/plcopen/st-gen.py "$seed" "$x"
  check_imported "seed $seed" "$x" "$SCANS"
done
echo "generated ST programs: $COUNT, the same: $same, differing: $differ, refused by a side: $refused; $values values compared"
[ "$differ" -eq 0 ]
