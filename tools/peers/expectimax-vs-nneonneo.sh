#!/usr/bin/env bash
# Expectimax side by side with nneonneo/2048-ai on this machine: the same number of games for
# our fast mode, our deep mode (both on every core) and their AI (single-threaded, as
# published), each game from its own seed; tile rates and moves/s.
#
#   NNEONNEO_AI=PROGRAM tools/peers/expectimax-vs-nneonneo.sh [GAMES] [THEIR_SECONDS]
#       (default 20 games; their run stops after THEIR_SECONDS)
#
# Theirs: the program in $NNEONNEO_AI, their search playing seeded games (tools/peers/README.md:
# its arguments and output); ours: `fbd autoplay --native` (ref2048's seeded spawns). The same
# rules and odds, not the same tile sequences. Their games take hours: tools/peers/nneonneo-games.sh
# plays them a few at a time and keeps them.
set -euo pipefail
cd "$(dirname "$0")/../.."
. tools/peers/lib.sh
GAMES=${1:-20}
SECONDS_THEIRS=${2:-1000000}
THEIRS=$(need_program NNEONNEO_AI "a program playing seeded games with their expectimax")
cargo build --release -q -p fbd-cli
for p in expectimax expectimax-deep; do
  echo "== ours: $p"
  target/release/fbd autoplay --native --player "$p" --games "$GAMES" --seed 1 | tail -3
done
echo "== nneonneo/2048-ai"
"$THEIRS" "$GAMES" 1 "$SECONDS_THEIRS" | tail -1
