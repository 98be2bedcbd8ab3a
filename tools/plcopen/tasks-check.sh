#!/usr/bin/env bash
# Several programs in several tasks, generated: COUNT projects, each merging three programs of
# crates/fbd-reference's generator (IEC blocks only, as generated-check.sh) exported by fbd,
# one per task at intervals of 10 to 50 ms (tools/plcopen/tasks-merge.py); each project is
# imported by fbd (the tick is the intervals' greatest common divisor) and run SCANS scans with
# every input driven (tools/plcopen/stimulus.py) beside Beremiz's generator + matiec
# (tools/plcopen/beremiz-check.py). Prints a line per project that differs or is refused, and
# the totals.
#
#   BEREMIZ=... IEC2C=... MATIEC_LIB=... tools/plcopen/tasks-check.sh [COUNT] [SCANS]
set -uo pipefail
cd "$(dirname "$0")/../.."
COUNT=${1:-100}
SCANS=${2:-120}
source tools/plcopen/check-lib.sh
GENERATED="$W" COUNT=$((COUNT * 3)) cargo test -q -p fbd-reference write_iec_diagrams -- --ignored >/dev/null 2>&1
# The interval sets, in ms: a task every tick, others at 2, 3 and 5 ticks; ticks of 10 and 5.
SETS=("10,20,30" "10,30,50" "20,30,10" "50,10,20" "5,10,15" "30,30,10")
for ((k = 0; k < COUNT; k++)); do
  ins=()
  for j in 0 1 2; do
    n=$((3 * k + j))
    if ! "$FBD" export "$W/gen-$n.json" -o "$W/gen-$n.xml" >/dev/null 2>"$W/err"; then
      echo "gen-$n.json: fbd refuses: $(head -c 300 "$W/err")"; continue 2
    fi
    ins+=("$W/gen-$n.xml")
  done
  m="$W/tasks-$k.xml"
  python3 tools/plcopen/tasks-merge.py "$m" --intervals "${SETS[$((k % ${#SETS[@]}))]}" "${ins[@]}"
  check_imported "tasks-$k (${SETS[$((k % ${#SETS[@]}))]} ms)" "$m" "$SCANS"
done
echo "projects of three programs in three tasks: $COUNT, the same: $same, differing: $differ, refused by a side: $refused; $values values compared; re-exports the same: $exported_same"
[ "$differ" -eq 0 ]
