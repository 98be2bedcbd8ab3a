# Sourced by the generated checks (tasks-check.sh, ladder-check.sh): the fbd binary, a scratch
# directory, and one PLCopen file imported by fbd, every input driven and compared with
# Beremiz's generator + matiec, counted.

FBD=${FBD:-target/release/fbd}
[ -x "$FBD" ] || cargo build --release -q -p fbd-cli
export FBD=$(realpath "$FBD")
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
same=0; differ=0; refused=0; values=0; exported_same=0

# check_imported LABEL FILE.xml SCANS: `fbd import`, a stimulus of every input
# (tools/plcopen/stimulus.py), tools/plcopen/beremiz-check.py; counts the outcome in
# same/differ/refused and the values compared; prints a line for a difference or a refusal.
# The import is exported again (`fbd export`) and that file checked against the import's run:
# a re-export that differs or is refused counts as differing (exported_same counts the rest).
check_imported() {
  local label=$1 xml=$2 scans=$3 out rc n
  if ! "$FBD" import "$xml" -o "$W/d.json" >/dev/null 2>"$W/err"; then
    refused=$((refused + 1)); echo "$label: fbd refuses: $(head -c 300 "$W/err")"; return
  fi
  python3 tools/plcopen/stimulus.py "$W/d.json" "$scans" > "$W/stim.txt"
  out=$(python3 tools/plcopen/beremiz-check.py "$xml" --scans "$scans" --stimulus "$W/stim.txt" --show 3 2>&1)
  rc=$?
  n=$(echo "$out" | sed -n 's/.*: \([0-9]*\) values over.*/\1/p' | tail -1)
  values=$((values + ${n:-0}))
  # (NO_EXPORT: a language the export does not write yet.)
  if [ "$rc" = 0 ] && [ -z "${NO_EXPORT:-}" ]; then
    "$FBD" export "$W/d.json" -o "$W/e.xml" >/dev/null 2>&1
    out=$(python3 tools/plcopen/beremiz-check.py "$W/e.xml" --ours "$W/d.json" --scans "$scans" --stimulus "$W/stim.txt" --show 3 2>&1)
    if [ $? = 0 ]; then exported_same=$((exported_same + 1)); else rc=1; out="re-exported: $out"; fi
  fi
  case $rc in
    0) same=$((same + 1)) ;;
    1) differ=$((differ + 1)); echo "$label: $(echo "$out" | tr '\n' ' ' | cut -c1-500)" ;;
    *) refused=$((refused + 1)); echo "$label: refused: $(echo "$out" | tr '\n' ' ' | cut -c1-400)" ;;
  esac
}
