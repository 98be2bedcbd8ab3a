#!/usr/bin/env bash
# Runs a corpus of public PLCopen projects (a directory of .xml files and a SOURCES file: one
# line per file, `FILE REPOSITORY PATH COMMIT`; nothing of theirs is in this repository) the
# way docs/plcopen.md's table counts them: the languages of its bodies; for a file whose bodies
# are FBD, LD (ladder) or ST, each alone or with the others, `fbd check` (imports, or is refused at
# its place); each imported one run for
# SCANS scans with every input driven (tools/plcopen/stimulus.py) through Beremiz's generator +
# matiec beside `fbd run` (tools/plcopen/beremiz-check.py, every output and every variable by
# its IEC name), and its re-export likewise. One line per file, then the counts.
# The corpus this repository measured is listed in tools/plcopen/corpus/SOURCES (docs/plcopen.md).
#
#   BEREMIZ=... IEC2C=... MATIEC_LIB=... tools/plcopen/corpus-check.sh CORPUS [SCANS]
set -uo pipefail
cd "$(dirname "$0")/../.."
CORPUS=$1
SCANS=${2:-1000}
FBD=${FBD:-target/release/fbd}
[ -x "$FBD" ] || cargo build --release -q -p fbd-cli
export FBD=$(realpath "$FBD")
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
declare -A count
while read -r file repo path commit; do
  f="$CORPUS/$file"
  langs=$(python3 - "$f" <<'PY'
import sys, xml.etree.ElementTree as ET
try:
    root = ET.parse(sys.argv[1]).getroot()
except Exception:
    print("unreadable"); sys.exit()
seen = set()
for body in root.iter():
    if body.tag.endswith("}body"):
        for c in body:
            t = c.tag.split("}")[1]
            if t in ("FBD", "LD", "ST", "SFC", "IL"):
                seen.add(t)
print("+".join(sorted(seen)) or "none")
PY
)
  case "$langs" in FBD|LD|ST|FBD+LD|FBD+ST|LD+ST|FBD+LD+ST) ok=1 ;; *) ok= ;; esac
  if [ -z "$ok" ]; then
    echo "$file ($repo $path): bodies $langs"; count["bodies $langs"]=$(( ${count["bodies $langs"]:-0} + 1 )); continue
  fi
  if ! "$FBD" import "$f" -o "$W/d.json" >/dev/null 2>"$W/err"; then
    why=$(grep -m1 '^error' "$W/err" | cut -c1-240)
    echo "$file: refused: $why"; count["$langs, refused"]=$(( ${count["$langs, refused"]:-0} + 1 )); continue
  fi
  python3 tools/plcopen/stimulus.py "$W/d.json" "$SCANS" > "$W/stim.txt"
  run=$(python3 tools/plcopen/beremiz-check.py "$f" --scans "$SCANS" --stimulus "$W/stim.txt" --show 2 2>&1)
  rc=$?
  "$FBD" export "$W/d.json" -o "$W/e.xml" >/dev/null 2>&1
  again=$(python3 tools/plcopen/beremiz-check.py "$W/e.xml" --ours "$W/d.json" --scans "$SCANS" --stimulus "$W/stim.txt" --show 2 2>&1)
  rc2=$?
  echo "$file: $(echo "$run" | tail -1 | sed 's/^[^:]*: //'); re-exported: $(echo "$again" | tail -1 | sed 's/^[^:]*: //')"
  case "$rc/$rc2" in
    0/0) k="$langs, imported, 0 differences, export 0 differences" ;;
    0/*) k="$langs, imported, 0 differences, export differs or refused" ;;
    1/*) k="$langs, imported, DIFFERS"; echo "$run" | head -3 ;;
    *) k="$langs, imported, refused by Beremiz or matiec" ;;
  esac
  count["$k"]=$(( ${count["$k"]:-0} + 1 ))
done < "$CORPUS/SOURCES"
echo
for k in "${!count[@]}"; do echo "${count[$k]}  $k"; done | sort -k2
