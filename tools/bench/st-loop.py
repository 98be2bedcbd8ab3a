#!/usr/bin/env python3
"""Writes an ST loop and the same computation drawn in FBD (the loop unrolled), for the
benchmark in docs/performance.md ("an ST loop of N iterations against the same computation
in FBD"):

    tools/bench/st-loop.py N ROUNDS OUT_DIR

Each iteration computes ROUNDS rounds of `x := (x * 7 + i) MOD 1021; s := s + x;` (DINT):
four operations a round. `OUT_DIR/loop.json` is the FOR loop; `OUT_DIR/fbd.json` is N x ROUNDS
copies of those blocks, each with its `i` a constant. Both output `s` and `x`: the same values
scan after scan (the benchmark checks it).
"""

import json
import sys


def main():
    n, rounds, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    body = ["  x := (x * 7 + i) MOD 1021;", "  s := s + x;"] * rounds
    st = ["s := 0;", f"FOR i := 1 TO {n} DO", *body, "END_FOR;"]
    loop = {
        "fbd": 6,
        "name": f"st-loop-{n}x{rounds}",
        "variables": [{"name": v, "type": "DINT"} for v in ("i", "x", "s")],
        "outputs": [{"name": "sum", "type": "DINT", "from": "s"}, {"name": "last", "type": "DINT", "from": "x"}],
        "st": st,
    }
    blocks = []
    x, s = {"from": "x_last.out", "feedback": True}, 0
    k = 0
    for i in range(1, n + 1):
        for _ in range(rounds):
            blocks.append({"id": f"m{k}", "type": "MUL", "data_type": "DINT", "inputs": {"in1": x, "in2": 7}})
            blocks.append({"id": f"a{k}", "type": "ADD", "data_type": "DINT", "inputs": {"in1": f"m{k}.out", "in2": i}})
            blocks.append({"id": f"r{k}", "type": "MOD", "data_type": "DINT", "inputs": {"in1": f"a{k}.out", "in2": 1021}})
            blocks.append({"id": f"s{k}", "type": "ADD", "data_type": "DINT", "inputs": {"in1": s, "in2": f"r{k}.out"}})
            x, s = f"r{k}.out", f"s{k}.out"
            k += 1
    blocks.append({"id": "x_last", "type": "MOVE", "data_type": "DINT", "inputs": {"in": x}})
    fbd = {
        "fbd": 6,
        "name": f"fbd-unrolled-{n}x{rounds}",
        "outputs": [{"name": "sum", "type": "DINT", "from": s}, {"name": "last", "type": "DINT", "from": "x_last.out"}],
        "blocks": blocks,
    }
    json.dump(loop, open(f"{out}/loop.json", "w"), indent=1)
    json.dump(fbd, open(f"{out}/fbd.json", "w"), indent=1)


main()
