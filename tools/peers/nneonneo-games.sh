#!/usr/bin/env bash
# nneonneo/2048-ai's expectimax playing whole games, accumulated across runs: their AI needs
# 30 minutes to well over an hour of one core per game on this machine (20 games: 15 h or more),
# more than one session has, so each run plays the games of the seeds it is given and appends
# every finished game to tools/peers/results/nneonneo-expectimax.txt; the summary is over every
# game in that file. Games are seeded (seed S is game S of the
# comparison), so a seed already in the file is never played again. A game still running when
# MAX_SECONDS (counted from the start of this run) are up is saved in
# tools/peers/results/nneonneo-seed-S.checkpoint and resumes from there next time (commit it).
# Two runs with different seeds use both cores.
#
#   NNEONNEO_AI=PROGRAM tools/peers/nneonneo-games.sh FIRST_SEED GAMES [MAX_SECONDS]
#                                          play seeds FIRST_SEED.. and append
#   tools/peers/nneonneo-games.sh --summary   only the summary
#
# PROGRAM plays with their search (tools/peers/README.md: its arguments, output and checkpoint).
#
# Ours, for the same comparison: fbd autoplay --native --player expectimax-deep --games 20 --seed 1
set -euo pipefail
cd "$(dirname "$0")/../.."
. tools/peers/lib.sh
RESULTS=tools/peers/results/nneonneo-expectimax.txt
if [ "${1:-}" != "--summary" ]; then
  FIRST=${1:?first seed}
  GAMES=${2:?number of games}
  SECS=${3:-1000000}
  THEIRS=$(need_program NNEONNEO_AI "a program playing seeded games with their expectimax")
  DEADLINE=$(( $(date +%s) + ${SECS%.*} ))
  for s in $(seq "$FIRST" $((FIRST + GAMES - 1))); do
    if grep -q "(seed $s)" "$RESULTS" 2>/dev/null; then
      echo "seed $s: already in $RESULTS"
      continue
    fi
    LEFT=$(( DEADLINE - $(date +%s) ))
    [ "$LEFT" -gt 0 ] || break
    CHECKPOINT=tools/peers/results/nneonneo-seed-$s.checkpoint
    out=$("$THEIRS" 1 "$s" "$LEFT" "$CHECKPOINT")
    line=${out%%$'\n'*}
    echo "$line"
    case "$line" in
      *"(cut: time budget)"*) echo "seed $s continues from $CHECKPOINT next time"; break ;;
    esac
    echo "$line" >> "$RESULTS"
  done
fi
python3 - "$RESULTS" <<'PY'
import re, statistics, sys
games = []
for line in open(sys.argv[1]):
    m = re.search(r"\(seed (\d+)\): max (\d+) score (\d+) moves (\d+) .*?moves/s ([0-9.]+)", line)
    if m:
        cpu = re.search(r"moves/cpu-s ([0-9.]+)", line)
        games.append(dict(seed=int(m[1]), max=int(m[2]), score=int(m[3]), moves=int(m[4]), wall=float(m[5]),
                          rate=float(cpu[1]) if cpu else None))
n = len(games)
if n == 0:
    sys.exit("no games yet")
rates = " ".join(f"{t}: {100 * sum(g['max'] >= t for g in games) // n}%" for t in (2048, 4096, 8192, 16384, 32768))
print(f"nneonneo/2048-ai: {n} games (seeds {', '.join(str(g['seed']) for g in sorted(games, key=lambda g: g['seed']))})")
print(f"  {rates}")
timed = [g["rate"] for g in games if g["rate"] is not None]
speed = (f"{statistics.median(timed):.1f} moves per processor second (median of {len(timed)} games)" if timed
         else f"{statistics.median(g['wall'] for g in games):.1f} moves/s (wall clock)")
print(f"  median score {statistics.median(g['score'] for g in games):.0f}, {speed}")
PY
