#!/usr/bin/env bash
# Regenerates docs/editor.png (the Cell definition in the editor, an input's menu open) and
# docs/editor-error.png (the same input disconnected: the error under its block).
#   apt-get install -y xvfb xdotool imagemagick
#   cargo build --release && xvfb-run -a -s "-screen 0 1280x820x24" tools/screenshot-editor.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export FBD2048_DATA_DIR="$(mktemp -d)"
./target/release/fbd2048 --seed 3 &
APP=$!
trap 'kill $APP 2>/dev/null || true' EXIT
sleep 4
WID=$(xdotool search --name "fbd2048" | head -1)
xdotool windowfocus --sync "$WID"
xdotool mousemove 99 43 click 1; sleep 0.5     # the Diagram tab
xdotool mousemove 235 43 click 1; sleep 0.5    # Edit
xdotool mousemove 60 75 click 1; sleep 0.5     # the body selector
xdotool mousemove 60 125 click 1; sleep 0.8    # macro Cell
xdotool mousemove 118 270 click 3; sleep 0.5   # right-click two_four.in0
xdotool mousemove 250 300; sleep 0.2
import -window "$WID" docs/editor.png
xdotool key Escape; sleep 0.3
xdotool mousemove 118 257 click 3; sleep 0.5   # right-click two_four.g
xdotool mousemove 150 315 click 1; sleep 1.0   # disconnect (the last item of the menu)
xdotool mousemove 600 600; sleep 0.5
import -window "$WID" docs/editor-error.png
