#!/usr/bin/env bash
# Checks fbd2048's PLCopen export against an IEC 61131-3 compiler and runtime: exports DIAGRAM,
# turns its FBD bodies into ST (fbd2st.py, as Beremiz does), compiles that with matiec's iec2c
# (Beremiz's compiler) and gcc, runs it scan by scan with the command pulses of a recorded game,
# and compares every program output of every scan with `fbd run` of the same stimulus.
#
#   IEC2C=/path/to/iec2c MATIEC_LIB=/path/to/matiec/lib tools/plcopen/iec-check.sh [DIAGRAM] [MOVES]
#
# IEC2C and MATIEC_LIB come from a build of matiec made by whoever runs this (its public source;
# nothing of it is in this repository). DIAGRAM defaults to diagrams/2048.json (a 2048 wiring:
# its input `command`, its outputs v11..v44, score, best, game_over, win, busy); MOVES to 400
# seeded random moves. Prints the number of values compared and of differences; exits 1 on any.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${IEC2C:?set IEC2C to matiec's iec2c}" "${MATIEC_LIB:?set MATIEC_LIB to matiec's lib directory}"
DIAGRAM=${1:-diagrams/2048.json}
MOVES=${2:-$(python3 -c "import random; random.seed(7); print(''.join(random.choice('ULDR') for _ in range(400)))")}
FBD=${FBD:-target/release/fbd}
[ -x "$FBD" ] || cargo build --release -q -p fbd-cli
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
"$FBD" export "$DIAGRAM" -o "$W/export.xml" >/dev/null
python3 tools/plcopen/fbd2st.py "$W/export.xml" "$W/program.st"
(cd "$W" && "$IEC2C" -I "$MATIEC_LIB" program.st >/dev/null)
"$FBD" play "$DIAGRAM" --moves "$MOVES" --record "$W/game.json" >/dev/null
OUTS="v11 v12 v13 v14 v21 v22 v23 v24 v31 v32 v33 v34 v41 v42 v43 v44 score best game_over win busy"
python3 - "$W" "$OUTS" <<'PY'
import json, re, sys
w, outs = sys.argv[1], sys.argv[2].split()
rec = json.load(open(f"{w}/game.json"))
pulses = [(e["scan"], e["value"]) for e in rec["events"] if e["kind"] == "pulse" and e["name"] == "command"]
scans = rec["scans"] + 50
prog = re.search(r"^// PROGRAM (\w+)", open(f"{w}/POUS.h").read(), re.M).group(1)
with open(f"{w}/driver.c", "w") as f:
    f.write('#include "iec_std_lib.h"\n#include "accessor.h"\n#include "POUS.h"\n')
    f.write("TIME __CURRENT_TIME; BOOL __DEBUG;\nextern %s R__I;\n" % prog)
    f.write("void config_init__(void); void config_run__(unsigned long tick);\n")
    f.write("static const long long pulses[][2] = {%s};\n" % ",".join("{%d,%d}" % p for p in pulses))
    f.write("int main(void) { unsigned long np = sizeof pulses / sizeof pulses[0], j = 0; config_init__();\n")
    f.write(' printf("scan,%s\\n");\n' % ",".join(outs))
    f.write(" for (unsigned long k = 0; k < %d; k++) { long long v = 0;\n" % scans)
    f.write("  while (j < np && pulses[j][0] < (long long)k) j++;\n  if (j < np && pulses[j][0] == (long long)k) v = pulses[j][1];\n")
    f.write("  R__I.COMMAND.value = v; config_run__(k);\n")
    f.write('  printf("%%lu,%s\\n", k, %s); }\n return 0; }\n' % (",".join("%lld" for _ in outs), ",".join("(long long)R__I.%s.value" % o.upper() for o in outs)))
with open(f"{w}/stimulus.txt", "w") as f:
    for s, v in pulses:
        f.write(f"{s} command={v}\n{s + 1} command=0\n")
open(f"{w}/scans", "w").write(str(scans))
PY
(cd "$W" && gcc -w -O1 -I"$MATIEC_LIB/C" -o program driver.c c.c r.c -lm && ./program > iec.csv)
"$FBD" run "$DIAGRAM" --scans "$(cat "$W/scans")" --stimulus "$W/stimulus.txt" $(for o in $OUTS; do echo --watch "$o"; done) --trace "$W/fbd.csv" >/dev/null
python3 - "$W" <<'PY'
import csv, sys
w = sys.argv[1]
iec = list(csv.DictReader(open(f"{w}/iec.csv")))
ours = list(csv.DictReader(open(f"{w}/fbd.csv")))
keys = [k for k in iec[0] if k != "scan"]
diff = [(a["scan"], k, a[k], b[k]) for a, b in zip(iec, ours) for k in keys if int(a[k]) != int(b[k])]
for d in diff[:5]:
    print("scan %s %s: IEC build %s, fbd %s" % d)
print(f"{len(iec)} scans, {len(iec) * len(keys)} values compared, {len(diff)} differences")
sys.exit(1 if diff or len(iec) != len(ours) else 0)
PY
