#!/usr/bin/env bash
# Regenerates docs/online-diagram.png: the online diagram of the Processing macro of row 2
# (multi-scan `original` wiring) two scans into a Left move, stepped from the debugger.
#   apt-get install -y xvfb xdotool imagemagick
#   cargo build --release && xvfb-run -a -s "-screen 0 1280x820x24" tools/screenshot-diagram.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export FBD2048_DATA_DIR="$(mktemp -d)"
./target/release/fbd2048 --wiring original --seed 3 --paused &
APP=$!
trap 'kill $APP 2>/dev/null || true' EXIT
sleep 4
WID=$(xdotool search --name "fbd2048" | head -1)
xdotool windowfocus --sync "$WID"
xdotool mousemove 30 75 click 1; sleep 0.3              # Start
for i in 1 2 3; do xdotool key shift+F10; sleep 0.3; done   # the debugger's N scans (10) x3
xdotool mousemove 300 400; xdotool key Left; sleep 0.3  # a move, queued while paused
for i in 1 2; do xdotool key F10; sleep 0.2; done       # one scan x2: mid-move
xdotool key F12; sleep 0.3                              # hide the debugger
xdotool mousemove 99 43 click 1; sleep 0.5              # the Diagram tab
xdotool mousemove 280 75 click 1; sleep 0.2             # Find
xdotool type proc_2; xdotool key Return; sleep 0.4      # centres proc_2
xdotool mousemove 550 412 click --repeat 2 --delay 80 1; sleep 0.5   # double-click: open it
xdotool mousemove 40 380; sleep 0.2
for i in 1 2 3 4 5; do xdotool click 4; sleep 0.1; done   # zoom in around the input ports
xdotool mousemove 600 400 mousedown 1; sleep 0.1; xdotool mousemove 620 400; sleep 0.1
xdotool mousemove 640 400; sleep 0.1; xdotool mouseup 1; sleep 0.2   # drag: the port names in view
xdotool mousemove 1095 748; sleep 0.5
import -window "$WID" docs/online-diagram.png
