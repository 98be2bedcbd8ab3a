#!/usr/bin/env bash
# Regenerates docs/screenshot.png: the HMI under Xvfb, a few moves played, the debugger open.
#   apt-get install -y xvfb xdotool imagemagick
#   cargo build --release && xvfb-run -a -s "-screen 0 1280x820x24" tools/screenshot.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export FBD2048_DATA_DIR="$(mktemp -d)"
./target/release/fbd2048 --debugger --seed 3 &
APP=$!
trap 'kill $APP 2>/dev/null || true' EXIT
sleep 4
WID=$(xdotool search --name "fbd2048" | head -1)
xdotool windowfocus "$WID"
xdotool mousemove 30 75 click 1      # Start (below the Board|Diagram tabs)
sleep 0.5
for k in Left Up Right Down Left Up Left Down Right Left; do
  xdotool key "$k"
  sleep 0.3
done
xdotool mousemove 690 650 click 1    # expand cell_1_1 in the signal tree
sleep 0.3
xdotool mousemove 700 673 click 1    # and its first block
sleep 0.5
import -window "$WID" docs/screenshot.png
