#!/usr/bin/env bash
# Expectimax side by side with nneonneo/2048-ai on this machine: the same number of games for
# our fast mode, our deep mode (both on every core) and their AI (single-threaded, as
# published), each game from its own seed; tile rates and moves/s.
#
#   tools/peers/expectimax-vs-nneonneo.sh [GAMES] [THEIR_SECONDS]   (default 20 games; their run
#                                                                    stops after THEIR_SECONDS)
#
# Their source: $NNEONNEO_DIR if set, else cloned from GitHub into target/peers/2048-ai. Their
# games are played by tools/peers/nneonneo_ai.cpp (their search, this harness's seeded spawns);
# ours by `fbd autoplay --native` (ref2048's seeded spawns): the same rules and odds, not the
# same tile sequences.
set -euo pipefail
cd "$(dirname "$0")/../.."
GAMES=${1:-20}
SECONDS_THEIRS=${2:-1000000}
. tools/peers/lib.sh
THEIRS=$(build_nneonneo_harness nneonneo_ai)
cargo build --release -q -p fbd-cli
for p in expectimax expectimax-deep; do
  echo "== ours: $p"
  target/release/fbd autoplay --native --player "$p" --games "$GAMES" --seed 1 | tail -3
done
echo "== nneonneo/2048-ai"
"$THEIRS" "$GAMES" 1 "$SECONDS_THEIRS" | tail -1
