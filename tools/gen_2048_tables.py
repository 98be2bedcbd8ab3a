#!/usr/bin/env python3
"""Writes the test tables of the 2048 macros (`fbd test diagrams`): every line of four tiles
from {0, 2, 4, 8} through Processing (4^4 = 256 rows: every pattern of empty, equal and
different neighbours), the expected line computed here by the game's rule, independently of
the diagram. Rerun after changing the rule or the patterns."""

import itertools
import sys

sys.dont_write_bytecode = True  # importing the diagram generator leaves no __pycache__ in tools/
from gen_2048 import write  # noqa: E402


def merged(line):
    """The line after a move toward x4: tiles slide to x4, equal neighbours merge once, from
    the x4 end. Returns the new line and the score (the sum of the merged tiles)."""
    tiles = [t for t in reversed(line) if t]
    out, score, k = [], 0, 0
    while k < len(tiles):
        if k + 1 < len(tiles) and tiles[k] == tiles[k + 1]:
            out.append(2 * tiles[k])
            score += 2 * tiles[k]
            k += 2
        else:
            out.append(tiles[k])
            k += 1
    out += [0] * (4 - len(out))
    return list(reversed(out)), score


def processing():
    rows = []
    for line in itertools.product([0, 2, 4, 8], repeat=4):
        y, score = merged(list(line))
        rows.append({
            "set": {f"x{k + 1}": v for k, v in enumerate(line)},
            "pulse": {"Command": True},
            "expect": {**{f"y{k + 1}": v for k, v in enumerate(y)}, "Score": score, "Worked": y != list(line), "Finish": True},
        })
    return macro_table(
        "Processing",
        "Every line of four tiles from {0, 2, 4, 8} (written by tools/gen_2048_tables.py): after a Command the outputs are the line moved toward x4, Score the merged tiles, Worked whether it changed.",
        [
            {"name": "every line of four tiles from {0, 2, 4, 8} moves and merges toward x4", "steps": rows},
            {
                "name": "without a Command the outputs hold",
                "steps": [
                    {"set": {"x1": 2, "x2": 2, "x3": 0, "x4": 0}, "pulse": {"Command": True}, "expect": {"y4": 4, "Finish": True}},
                    {"set": {"x1": 8, "x2": 8, "x3": 8, "x4": 8}, "run": 5, "expect": {"y4": {"=": 4, "throughout": True}, "y3": 0, "Finish": {"=": False, "throughout": True}}},
                ],
            },
        ],
    )


def installation():
    rows = []
    for work in (False, True):
        for row in range(0, 6):
            for col in range(0, 6):
                rows.append({
                    "set": {"work": work, "row": row, "col": col},
                    "expect": {f"set_{r}_{c}": work and r == row and c == col for r in range(1, 5) for c in range(1, 5)},
                })
    return macro_table(
        "Installation",
        "Every (work, row, col) with row and col from 0 to 5 (written by tools/gen_2048_tables.py): exactly the Set of cell (row, col) while work, none otherwise.",
        [{"name": "work, row and col select one cell's Set", "steps": rows}],
    )


def random():
    steps = [{"run": 20000, "expect": {"row": {"min": 1, "max": 4, "throughout": True}, "col": {"min": 1, "max": 4, "throughout": True}}}]
    # Every row and column comes up (the design's generator is driven by the clock; its
    # distribution is measured in docs/2048.md, not here).
    for k in range(1, 5):
        steps.append({"run": 2000, "expect": {"row": {"becomes": k}}})
        steps.append({"run": 2000, "expect": {"col": {"becomes": k}}})
    steps.append({"run": 2000, "expect": {"four": {"becomes": True}}})
    steps.append({"run": 2000, "expect": {"four": {"becomes": False}}})
    return macro_table(
        "Random",
        "The design's Random (written by tools/gen_2048_tables.py): row and col always 1..4, each value comes up, four both ways.",
        [{"name": "row and col stay on the board and take every value", "steps": steps}],
    )


def macro_table(macro, description, tests):
    """A test table of one macro of the 2048 library."""
    return {"fbd_test": 1, "program": "2048-macros.json", "macro": macro, "description": description, "tests": tests}


if __name__ == "__main__":
    write("diagrams/lib/processing.test.json", processing())
    write("diagrams/lib/installation.test.json", installation())
    write("diagrams/lib/random.test.json", random())
