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
source tools/plcopen/check-lib.sh
for seed in $(seq "$FIRST" $((FIRST + COUNT - 1))); do
  x="$W/st$seed.xml"
  python3 tools/plcopen/st-gen.py "$seed" "$x"
  # Every tenth program is also exported (`fbd export`: its FUNCTION as a FUNCTION) and the
  # export run by Beremiz + matiec against fbd's run of the import (a check takes twice as long).
  if [ $((seed % 10)) = 0 ]; then NO_EXPORT=; else NO_EXPORT=1; fi
  check_imported "seed $seed" "$x" "$SCANS"
done
echo "generated ST programs: $COUNT, the same: $same (of which re-exported the same: $exported_same), differing: $differ, refused by a side: $refused; $values values compared"
[ "$differ" -eq 0 ]
