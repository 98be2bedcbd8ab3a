#!/usr/bin/env bash
# The HMI's CPU in three situations, each measured over the same window of time from
# /proc/PID/stat (user + system ticks): idle on the board; the debugger open with the program
# running; the debugger, the online diagram of the 2048 top level and autoplay at full speed.
#   apt-get install -y xvfb xdotool imagemagick
#   cargo build --release --bin fbd2048
#   xvfb-run -a -s "-screen 0 1100x860x24" tools/hmi-cpu.sh [BINARY] [SECONDS]
# Prints one line per situation: its name and the CPU as % of one core.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-target/release/fbd2048}
SECS=${2:-20}
TICK=$(getconf CLK_TCK)

ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# Starts the window with settings DEBUGGER/DIAGRAM, runs the setup function, measures.
measure() {
  local name=$1 debugger=$2 diagram=$3 setup=$4
  local dir; dir=$(mktemp -d)
  printf '{"debugger": %s, "diagram": %s, "window": [1100, 760]}\n' "$debugger" "$diagram" > "$dir/settings.json"
  FBD2048_DATA_DIR="$dir" "$BIN" --seed 7 &
  local app=$!
  sleep 6
  local wid; wid=$(xdotool search --name "fbd2048" | head -1)
  xdotool windowmove "$wid" 0 0 windowfocus "$wid"
  "$setup"
  sleep 3
  # SHOTS=dir keeps what each situation looked like when its measurement began.
  if [ -n "${SHOTS:-}" ]; then import -window root "$SHOTS/${name//[^a-z]/_}.png"; fi
  local t0; t0=$(ticks $app)
  sleep "$SECS"
  local t1; t1=$(ticks $app)
  kill $app; wait $app 2>/dev/null || true
  rm -rf "$dir"
  awk -v n="$name" -v d=$((t1 - t0)) -v hz="$TICK" -v s="$SECS" 'BEGIN { printf "%-40s %6.1f %%\n", n, 100 * d / hz / s }'
}

nothing() { :; }
# The board's Start, max speed, Play, then the Diagram tab (positions in the default window).
autoplay() {
  xdotool mousemove "$START_X" "$START_Y" click 1; sleep 0.5
  xdotool mousemove 228 104 click 1; sleep 0.5    # max speed
  xdotool mousemove "$PLAY_X" "$PLAY_Y" click 1; sleep 0.5
  xdotool mousemove "$DIAGRAM_X" "$DIAGRAM_Y" click 1
}
START_X=${START_X:-30} START_Y=${START_Y:-75}
PLAY_X=${PLAY_X:-541} PLAY_Y=${PLAY_Y:-104}
DIAGRAM_X=${DIAGRAM_X:-99} DIAGRAM_Y=${DIAGRAM_Y:-43}

measure "idle, board" false false nothing
measure "debugger, running" true false nothing
measure "debugger + diagram + autoplay" true false autoplay
