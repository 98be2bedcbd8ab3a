#!/usr/bin/env python3
"""Generates the 2048 FBD programs from the design (../shared/seeds/000_*.txt).

    python3 tools/gen_2048.py        # rewrites diagrams/lib/2048-macros.json and diagrams/2048*.json
    for f in diagrams/2048*.json; do cargo run --release -p fbd-cli --bin fbd -- layout "$f" --write; done

The grid positions written here are placeholders: the second command replaces them with the
positions fbd-layout gives each body (a test checks the stored positions are those).

The JSON files are the source of truth that the engine loads; this script is how they were
written (a few hundred blocks are easier to get right in a loop than by hand). Every macro is
defined once, in diagrams/lib/2048-macros.json, and the three programs include that file.
"""
import json
import os

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


class Body:
    """A program or macro body: blocks in creation order, laid out on a grid."""

    def __init__(self, cols_per_row=10):
        self.blocks = []
        self.ids = set()
        self.cols = cols_per_row
        # Pages (sheets) of the drawing, in order: name -> ids; blocks go to the current one.
        self.pages = {}
        self.current = None

    def page(self, name):
        """Blocks added from now on are drawn on page `name`."""
        self.current = name
        self.pages.setdefault(name, [])

    def page_list(self):
        return [{"name": n, "blocks": ids} for n, ids in self.pages.items() if ids]

    def add(self, id, type, inputs=None, params=None, data_type=None, comment=None):
        assert id not in self.ids, id
        self.ids.add(id)
        n = len(self.blocks)
        b = {"id": id, "type": type}
        if inputs:
            b["inputs"] = inputs
        if params:
            b["params"] = params
        if data_type:
            b["data_type"] = data_type
        b["pos"] = [(n % self.cols) * 180, (n // self.cols) * 110]
        if comment:
            b["comment"] = comment
        self.blocks.append(b)
        if self.current is not None:
            self.pages[self.current].append(id)
        return id

    def o(self, id, pin="out"):
        return f"{id}.{pin}"


def fb(ref, init=None):
    w = {"from": ref, "feedback": True}
    if init is not None:
        w["init"] = init
    return w


def port(name, ty, default=None, description=None):
    p = {"name": name, "type": ty}
    if default is not None:
        p["default"] = default
    if description:
        p["description"] = description
    return p


def out(name, ty, src, description=None, kind=None):
    p = {"name": name, "type": ty, "from": src}
    if kind:
        p["kind"] = kind
    if description:
        p["description"] = description
    return p


# ----------------------------------------------------------------------------------------------
# Macros


def cell_macro():
    b = Body()
    b.add("empty", "EQ", {"in1": "mem.prev", "in2": 0}, comment="Comparison: the cell is empty (value at the start of the scan)")
    b.add("two_four", "SEL", {"g": "Four", "in0": 2, "in1": 4}, comment="Choice 1: a two or a four")
    b.add("set_empty", "AND", {"in1": "Set", "in2": "empty.out"})
    b.add("choice2", "SEL", {"g": "set_empty.out", "in0": "Input", "in1": "two_four.out"}, comment="Choice 2: the new tile into an empty cell, else the processed value")
    b.add("start_set", "AND", {"in1": "Start", "in2": "Set"})
    b.add("choice3", "SEL", {"g": "start_set.out", "in0": "choice2.out", "in1": "two_four.out"}, comment="Choice 3: start of a game, no empty check")
    b.add("choice4", "SEL", {"g": "Clear", "in0": "choice3.out", "in1": 0}, comment="Choice 4: Clear, the highest priority")
    b.add("write", "OR", {"in1": "Clear", "in2": "Go", "in3": "set_empty.out", "in4": "start_set.out"})
    b.add("mem", "MEMORY", {"in": "choice4.out", "en": "write.out"}, params={"init": 0}, comment="Memory: the value of the cell")
    b.add("done", "OR", {"in1": "set_empty.out", "in2": "start_set.out"}, comment="the cell took the new tile: the spawn is over")
    return {
        "name": "Cell",
        "description": "One field of the board (16 identical instances). Priority: Clear -> 0; Start and Set -> 2/4; Set into an empty cell -> 2/4 and Done; Go -> Input; otherwise hold.",
        "inputs": [
            port("Set", "BOOL", description="put a new tile here if the cell is empty"),
            port("Four", "BOOL", description="the new tile is a 4, not a 2"),
            port("Clear", "BOOL", description="write 0"),
            port("Go", "BOOL", description="the processed values are ready: take Input"),
            port("Input", "DINT", description="the value after processing the command"),
            port("Start", "BOOL", description="start of a game: Set writes without the empty check"),
        ],
        "outputs": [out("Value", "DINT", "mem.q"), out("Done", "BOOL", "done.out")],
        "blocks": b.blocks,
    }


def installation_macro():
    b = Body(cols_per_row=8)
    for k in range(1, 5):
        b.add(f"row{k}", "EQ", {"in1": "row", "in2": k})
        b.add(f"col{k}", "EQ", {"in1": "col", "in2": k})
    outs = []
    for r in range(1, 5):
        for c in range(1, 5):
            b.add(f"and_{r}_{c}", "AND", {"in1": "work", "in2": f"row{r}.out", "in3": f"col{c}.out"})
            outs.append(out(f"set_{r}_{c}", "BOOL", f"and_{r}_{c}.out"))
    return {
        "name": "Installation",
        "description": "Sixteen ANDs turning (work, row, column) into the Set signal of one cell.",
        "inputs": [port("work", "BOOL"), port("row", "LINT"), port("col", "LINT")],
        "outputs": outs,
        "blocks": b.blocks,
    }


def random_macro():
    b = Body()
    b.add("now", "NOW", comment="controller time")
    b.add("saw1", "SAW", {"period": 37, "lo": 1.0, "hi": 2.0}, comment="algorithms 2, 3, 4: values changing as a saw")
    b.add("saw2", "SAW", {"period": 53, "lo": 1.0, "hi": 2.0})
    b.add("saw3", "SAW", {"period": 71, "lo": 1.0, "hi": 2.0})
    b.add("sum", "ADD", {"in1": "saw1.out", "in2": "saw2.out", "in3": "saw3.out"})
    b.add("t", "ADD", {"in1": "now.s", "in2": 1.0}, comment="+1 s so that scan 0 does not divide 0")
    b.add("q", "DIV", {"in1": "t.out", "in2": "sum.out"})
    b.add("m3", "MUL", {"in1": "q.out", "in2": 1000.0}, comment="the fraction from the 4th decimal place")
    b.add("f3", "FRAC", {"in": "m3.out"})
    b.add("four", "LT", {"in1": "f3.out", "in2": 0.1}, comment="10 %: a four")
    b.add("m5", "MUL", {"in1": "q.out", "in2": 100000.0}, comment="the fraction from the 6th decimal place")
    b.add("f5", "FRAC", {"in": "m5.out"})
    b.add("m16", "MUL", {"in1": "f5.out", "in2": 16.0})
    b.add("k", "FLOOR", {"in": "m16.out"}, comment="0..15")
    b.add("quot", "DIV", {"in1": "k.out", "in2": 4})
    b.add("rem", "MOD", {"in1": "k.out", "in2": 4})
    b.add("row", "ADD", {"in1": "quot.out", "in2": 1})
    b.add("col", "ADD", {"in1": "rem.out", "in2": 1})
    return {
        "name": "Random",
        "description": "The design's generator: NOW divided by a sum of SAW ramps, digits taken from the fraction. Deterministic for a given timing; its bias is measured in the README.",
        "inputs": [],
        "outputs": [out("row", "LINT", "row.out"), out("col", "LINT", "col.out"), out("four", "BOOL", "four.out")],
        "blocks": b.blocks,
    }


def shift_stage(b, p, a):
    """One step of closing gaps toward a4: the elements in front of the last gap move one place
    toward a4 and a zero enters at a1. Returns the four outputs and the 'a gap was closed' sign."""
    nz = {i: b.add(f"{p}nz{i}", "NE", {"in1": a[i - 1], "in2": 0}) for i in (1, 2, 3)}
    z = {i: b.add(f"{p}z{i}", "EQ", {"in1": a[i - 1], "in2": 0}) for i in (2, 3, 4)}
    any123 = b.add(f"{p}any123", "OR", {"in1": f"{nz[1]}.out", "in2": f"{nz[2]}.out", "in3": f"{nz[3]}.out"})
    any12 = b.add(f"{p}any12", "OR", {"in1": f"{nz[1]}.out", "in2": f"{nz[2]}.out"})
    e4 = b.add(f"{p}e4", "AND", {"in1": f"{z[4]}.out", "in2": f"{any123}.out"})
    e3 = b.add(f"{p}e3", "AND", {"in1": f"{z[3]}.out", "in2": f"{any12}.out"})
    e2 = b.add(f"{p}e2", "AND", {"in1": f"{z[2]}.out", "in2": f"{nz[1]}.out"})
    g3 = b.add(f"{p}g3", "OR", {"in1": f"{e4}.out", "in2": f"{e3}.out"})
    g2 = b.add(f"{p}g2", "OR", {"in1": f"{e4}.out", "in2": f"{e3}.out", "in3": f"{e2}.out"})
    o4 = b.add(f"{p}b4", "SEL", {"g": f"{e4}.out", "in0": a[3], "in1": a[2]})
    o3 = b.add(f"{p}b3", "SEL", {"g": f"{g3}.out", "in0": a[2], "in1": a[1]})
    o2 = b.add(f"{p}b2", "SEL", {"g": f"{g2}.out", "in0": a[1], "in1": a[0]})
    o1 = b.add(f"{p}b1", "SEL", {"g": f"{g2}.out", "in0": a[0], "in1": 0})
    return [f"{o1}.out", f"{o2}.out", f"{o3}.out", f"{o4}.out"], f"{g2}.out"


def merge(b, c):
    """Pairwise merge of a compacted line, starting at c4. Returns y1..y4 and the score."""
    b.add("nz3", "NE", {"in1": c[2], "in2": 0})
    b.add("eq43", "EQ", {"in1": c[3], "in2": c[2]})
    b.add("m43", "AND", {"in1": "eq43.out", "in2": "nz3.out"}, comment="x4 = x3: they merge")
    b.add("nz2", "NE", {"in1": c[1], "in2": 0})
    b.add("eq32", "EQ", {"in1": c[2], "in2": c[1]})
    b.add("m32", "AND", {"in1": "eq32.out", "in2": "nz2.out"})
    b.add("nz1", "NE", {"in1": c[0], "in2": 0})
    b.add("eq21", "EQ", {"in1": c[1], "in2": c[0]})
    b.add("m21", "AND", {"in1": "eq21.out", "in2": "nz1.out"})
    b.add("d4", "ADD", {"in1": c[3], "in2": c[3]})
    b.add("d3", "ADD", {"in1": c[2], "in2": c[2]})
    b.add("d2", "ADD", {"in1": c[1], "in2": c[1]})
    b.add("y4", "SEL", {"g": "m43.out", "in0": c[3], "in1": "d4.out"})
    b.add("v2", "SEL", {"g": "m21.out", "in0": c[1], "in1": "d2.out"}, comment="x2 with x1 merged into it, if they merge")
    b.add("y3b", "SEL", {"g": "m32.out", "in0": c[2], "in1": "d3.out"})
    b.add("y3", "SEL", {"g": "m43.out", "in0": "y3b.out", "in1": "v2.out"})
    b.add("y2a", "SEL", {"g": "m21.out", "in0": c[0], "in1": 0})
    b.add("y2b", "SEL", {"g": "m32.out", "in0": "v2.out", "in1": c[0]})
    b.add("y2", "SEL", {"g": "m43.out", "in0": "y2b.out", "in1": "y2a.out"})
    b.add("m3221", "OR", {"in1": "m32.out", "in2": "m21.out"})
    b.add("y1b", "SEL", {"g": "m3221.out", "in0": c[0], "in1": 0})
    b.add("y1", "SEL", {"g": "m43.out", "in0": "y1b.out", "in1": 0})
    b.add("s4", "SEL", {"g": "m43.out", "in0": 0, "in1": "d4.out"}, comment="scoring: the merged sums")
    b.add("s3a", "SEL", {"g": "m21.out", "in0": 0, "in1": "d2.out"})
    b.add("s3b", "SEL", {"g": "m32.out", "in0": "s3a.out", "in1": "d3.out"})
    b.add("s3", "SEL", {"g": "m43.out", "in0": "s3b.out", "in1": "s3a.out"})
    b.add("gain", "ADD", {"in1": "s4.out", "in2": "s3.out"})
    return ["y1.out", "y2.out", "y3.out", "y4.out"], "gain.out"


def output_stage(b, y, gain, originals, en, comment=None):
    """Worked (the line changed), and the results latched in Memories when `en` is on."""
    for i in range(1, 5):
        b.add(f"ne{i}", "NE", {"in1": y[i - 1], "in2": originals[i - 1]})
    b.add("changed", "OR", {f"in{i}": f"ne{i}.out" for i in range(1, 5)})
    for i in range(1, 5):
        b.add(f"out{i}", "MEMORY", {"in": y[i - 1], "en": en}, params={"init": 0}, comment=comment)
    b.add("worked", "MEMORY", {"in": "changed.out", "en": en}, params={"init": False})
    b.add("score", "MEMORY", {"in": gain, "en": en}, params={"init": 0})


PROC_PORTS_IN = [port(f"x{i}", "DINT") for i in range(1, 5)] + [port("Command", "BOOL")]


def proc_outputs(finish):
    return [out(f"y{i}", "DINT", f"out{i}.q") for i in range(1, 5)] + [
        out("Finish", "BOOL", finish),
        out("Worked", "BOOL", "worked.q"),
        out("Score", "DINT", "score.q"),
    ]


def processing_macro():
    b = Body()
    a = [f"x{i}" for i in range(1, 5)]
    for k in (1, 2, 3):
        a, _ = shift_stage(b, f"s{k}_", a)
    y, gain = merge(b, a)
    output_stage(b, y, gain, [f"x{i}" for i in range(1, 5)], "Command", "keeps the result visible (the design's Memory 54-57)")
    return {
        "name": "Processing",
        "description": "UPD.1: the universal row processor for the move 'to the right' (toward x4) in one pass: every gap pattern closed head on in three unrolled shift steps, then the pairwise merge from x4. No memory, no feedback; the output Memories only keep the result visible. Score is the sum of the merged tiles (the design's 'unrealized' scoring).",
        "inputs": PROC_PORTS_IN,
        "outputs": proc_outputs("Command"),
        "blocks": b.blocks,
    }


def processing_multiscan_macro():
    b = Body()
    b.add("edge", "R_TRIG", {"clk": "Command"}, comment="on the leading edge of the command the elements are written into memory")
    for i in range(1, 5):
        b.add(f"orig{i}", "MEMORY", {"in": f"x{i}", "en": "edge.q"}, params={"init": 0})
    a_prev = [f"a{i}.prev" for i in range(1, 5)]
    shifted, gap = shift_stage(b, "s_", a_prev)
    b.add("run_prev", "DELAY", {"in": "running.q1"}, params={"init": False}, comment="running, as it was in the previous scan")
    b.add("nogap", "NOT", {"in": gap})
    b.add("shifting", "AND", {"in1": "run_prev.q", "in2": gap}, comment="a gap is left: shift once more this scan")
    b.add("finish", "AND", {"in1": "run_prev.q", "in2": "nogap.out"}, comment="no gap left: merge and finish")
    b.add("running", "SR", {"s1": "edge.q", "r": "finish.out"})
    b.add("load", "OR", {"in1": "edge.q", "in2": "shifting.out"})
    for i in range(1, 5):
        b.add(f"next{i}", "SEL", {"g": "edge.q", "in0": shifted[i - 1], "in1": f"x{i}"})
        b.add(f"a{i}", "MEMORY", {"in": f"next{i}.out", "en": "load.out"}, params={"init": 0})
    y, gain = merge(b, a_prev)
    output_stage(b, y, gain, [f"orig{i}.q" for i in range(1, 5)], "finish.out")
    return {
        "name": "ProcessingMultiScan",
        "description": "The first version of the row processor: the inputs are latched on the rising edge of Command; each scan, if a gap stands before a tile in the shift direction, the elements in front of the last gap shift one place (up to 3 scans); when no gap is left, the pairwise merge runs in one pass, the outputs are written and Finish pulses. Memories, a trigger and feedback, as in the design.",
        "inputs": PROC_PORTS_IN,
        "outputs": proc_outputs("finish.out"),
        "blocks": b.blocks,
    }


def library():
    return {
        "fbd": 3,
        "name": "2048 macros",
        "description": "The macros of the 2048 FBD program (seeds/000): Cell, Installation, Random, Processing (UPD.1) and ProcessingMultiScan (the first version). Written once, included by every 2048 wiring.",
        "macros": [cell_macro(), installation_macro(), random_macro(), processing_macro(), processing_multiscan_macro()],
    }


# ----------------------------------------------------------------------------------------------
# Programs

CMD_OPTIONS = ["up", "right", "down", "left", "start", "reset"]


def cell_ref(r, c):
    return f"cell_{r}_{c}.Value"


def line_sources(i, j):
    """Processor i, position j, for the directions right, left, down, up (MUX order 0..3)."""
    return [(i, j), (i, 5 - j), (j, i), (5 - j, i)]


def cell_sources(r, c):
    """Cell (r, c) takes its processed value from (processor, position) per direction."""
    return [(r, c), (r, 5 - c), (c, r), (c, 5 - r)]


def program(variant):
    b = Body(cols_per_row=12)
    # The design's four quarters as pages, in the order the whole drawing arranges them two by
    # two: the commands top left, the processors top right, the board bottom left, the
    # re-ordering bottom right; below them the lockout, the score and the game's end (and the
    # smart spawn's page), each a page a screen shows legibly.
    for name in ["Commands", "Processing", "Board", "Re-ordering", "Lockout", "Score", "Full", "Win", "Pairs and game over"]:
        b.pages[name] = []
    b.page("Commands")
    # Control block: the one-of-six selector, edges, lockout.
    b.add("selector", "SELECTOR", {"sel": "command"}, params={"n": 6}, comment="1 up, 2 right, 3 down, 4 left, 5 start, 6 reset")
    for k in range(1, 7):
        b.add(f"edge{k}", "R_TRIG", {"clk": f"selector.q{k}"})
    b.add("any_move", "OR", {f"in{k}": f"edge{k}.q" for k in range(1, 5)})
    b.add("unlocked", "NOT", {"in": "lock.out"})
    b.add("move", "AND", {"in1": "any_move.out", "in2": "unlocked.out"}, comment="a move command accepted")
    b.add("start", "AND", {"in1": "edge5.q", "in2": "unlocked.out"})
    b.add("reset", "AND", {"in1": "edge6.q", "in2": "unlocked.out"})
    b.add("clear", "OR", {"in1": "start.out", "in2": "reset.out"})
    # Direction code for the MUXes: 0 right, 1 left, 2 down, 3 up.
    b.add("code_lr", "SEL", {"g": "edge4.q", "in0": 0, "in1": 1})
    b.add("code_d", "SEL", {"g": "edge3.q", "in0": "code_lr.out", "in1": 2})
    b.add("code", "SEL", {"g": "edge1.q", "in0": "code_d.out", "in1": 3})
    b.add("dir", "MEMORY", {"in": "code.out", "en": "move.out"}, params={"init": 0}, comment="the direction being processed")

    proc_type = "ProcessingMultiScan" if variant == "original" else "Processing"
    b.page("Processing")
    # The re-ordering of values for each direction, and the four processors.
    for i in range(1, 5):
        inputs = {"Command": "move.out"}
        for j in range(1, 5):
            srcs = line_sources(i, j)
            mux = {"k": "dir.q"}
            for n, (r, c) in enumerate(srcs):
                mux[f"in{n}"] = fb(cell_ref(r, c), 0)
            b.add(f"line{i}_{j}", "MUX", mux)
            inputs[f"x{j}"] = f"line{i}_{j}.out"
        b.add(f"proc_{i}", proc_type, inputs)

    if variant == "original":
        # Synchronisation: each Finish latched in a trigger, combined, edge-detected, the triggers
        # reset by feedback.
        for i in range(1, 5):
            b.add(f"fin_{i}", "SR", {"s1": f"proc_{i}.Finish", "r": fb("go.q", False)})
        b.add("all_done", "AND", {f"in{i}": f"fin_{i}.q1" for i in range(1, 5)})
        b.add("go", "R_TRIG", {"clk": "all_done.out"}, comment="all four lines processed")
        go = "go.q"
        b.add("processing", "SR", {"s1": "move.out", "r": go})
    else:
        go = "move.out"

    b.add("worked_any", "OR", {f"in{i}": f"proc_{i}.Worked" for i in range(1, 5)})
    b.add("moved", "AND", {"in1": go, "in2": "worked_any.out"}, comment="a move that changed the board")
    b.add("gain", "ADD", {f"in{i}": f"proc_{i}.Score" for i in range(1, 5)})

    b.page("Re-ordering")
    # The processed value for each cell.
    for r in range(1, 5):
        for c in range(1, 5):
            mux = {"k": "dir.q"}
            for n, (p, pos) in enumerate(cell_sources(r, c)):
                mux[f"in{n}"] = f"proc_{p}.y{pos}"
            b.add(f"post_{r}_{c}", "MUX", mux)

    if variant == "smart":
        b.page("Spawn")
        # The spawn chooses among the empty cells: number them, draw one (uniformly, seeded),
        # and put the tile into the processed values before the cells take them: one scan.
        b.add("spawn1", "OR", {"in1": "moved.out", "in2": "start.out"}, comment="one new tile: after a move that changed something, or the first of a new game")
        prev = None
        for r in range(1, 5):
            for c in range(1, 5):
                b.add(f"base_{r}_{c}", "SEL", {"g": "start.out", "in0": f"post_{r}_{c}.out", "in1": 0})
                b.add(f"e_{r}_{c}", "EQ", {"in1": f"base_{r}_{c}.out", "in2": 0})
                b.add(f"inc_{r}_{c}", "SEL", {"g": f"e_{r}_{c}.out", "in0": 0, "in1": 1})
                if prev is None:
                    b.add(f"num_{r}_{c}", "MOVE", {"in": f"inc_{r}_{c}.out"})
                else:
                    b.add(f"num_{r}_{c}", "ADD", {"in1": prev, "in2": f"inc_{r}_{c}.out"})
                prev = f"num_{r}_{c}.out"
        b.add("count_hi", "MAX", {"in1": prev, "in2": 1}, comment="number of empty cells (at least 1, so the draw is never empty)")
        b.add("pick1", "RANDOM", {"en": "spawn1.out", "lo": 1, "hi": "count_hi.out"}, params={"seed": 1})
        b.add("count_m1", "SUB", {"in1": prev, "in2": 1})
        b.add("count2_hi", "MAX", {"in1": "count_m1.out", "in2": 1})
        b.add("pick2_raw", "RANDOM", {"en": "start.out", "lo": 1, "hi": "count2_hi.out"}, params={"seed": 2})
        b.add("skip", "GE", {"in1": "pick2_raw.n", "in2": "pick1.n"})
        b.add("skip1", "SEL", {"g": "skip.out", "in0": 0, "in1": 1})
        b.add("pick2", "ADD", {"in1": "pick2_raw.n", "in2": "skip1.out"}, comment="the second tile of a new game skips the first one's cell")
        b.add("four1", "LT", {"in1": "pick1.x", "in2": 0.1})
        b.add("tile1", "SEL", {"g": "four1.out", "in0": 2, "in1": 4})
        b.add("rnd_four2", "RANDOM", {"en": "start.out"}, params={"seed": 3})
        b.add("four2", "LT", {"in1": "rnd_four2.x", "in2": 0.1})
        b.add("tile2", "SEL", {"g": "four2.out", "in0": 2, "in1": 4})
        b.add("go_cells", "OR", {"in1": "move.out", "in2": "start.out"})
        for r in range(1, 5):
            for c in range(1, 5):
                b.add(f"eq1_{r}_{c}", "EQ", {"in1": f"num_{r}_{c}.out", "in2": "pick1.n"})
                b.add(f"hit1_{r}_{c}", "AND", {"in1": f"e_{r}_{c}.out", "in2": f"eq1_{r}_{c}.out", "in3": "spawn1.out"})
                b.add(f"eq2_{r}_{c}", "EQ", {"in1": f"num_{r}_{c}.out", "in2": "pick2.out"})
                b.add(f"hit2_{r}_{c}", "AND", {"in1": f"e_{r}_{c}.out", "in2": f"eq2_{r}_{c}.out", "in3": "start.out"})
                b.add(f"in2_{r}_{c}", "SEL", {"g": f"hit2_{r}_{c}.out", "in0": f"base_{r}_{c}.out", "in1": "tile2.out"})
                b.add(f"in_{r}_{c}", "SEL", {"g": f"hit1_{r}_{c}.out", "in0": f"in2_{r}_{c}.out", "in1": "tile1.out"})
        b.page("Board")
        for r in range(1, 5):
            for c in range(1, 5):
                b.add(
                    f"cell_{r}_{c}",
                    "Cell",
                    {"Set": False, "Four": False, "Clear": "reset.out", "Go": "go_cells.out", "Input": f"in_{r}_{c}.out", "Start": False},
                )
        b.page("Lockout")
        b.add("lock", "MOVE", {"in": False}, comment="no lockout needed: a command and its spawn complete in the scan that accepts it")
        busy = "lock.out"
    else:
        b.page("Lockout")
        # Tiles still to place: 2 after start, 1 after a move that changed something, minus one
        # for each cell that took a tile (seen one scan later, through feedback).
        b.add("done_any", "OR", {f"in{4 * (r - 1) + c}": f"cell_{r}_{c}.Done" for r in range(1, 5) for c in range(1, 5)})
        b.add("done_dec", "SEL", {"g": fb("done_any.out", False), "in0": 0, "in1": 1})
        b.add("dec", "SUB", {"in1": "todo.prev", "in2": "done_dec.out"})
        b.add("todo_move", "SEL", {"g": "moved.out", "in0": "dec.out", "in1": 1})
        b.add("todo_start", "SEL", {"g": "start.out", "in0": "todo_move.out", "in1": 2})
        b.add("todo_reset", "SEL", {"g": "reset.out", "in0": "todo_start.out", "in1": 0})
        b.add("todo", "MEMORY", {"in": "todo_reset.out", "en": True}, params={"init": 0}, comment="tiles still to place")
        b.add("pending", "GT", {"in1": "dec.out", "in2": 0})
        b.add("just_done", "NOT", {"in": fb("done_any.out", False)})
        b.add("work", "AND", {"in1": "pending.out", "in2": "just_done.out"}, comment="work: a tile may be placed now")
        b.add("opening", "EQ", {"in1": "dec.out", "in2": 2}, comment="the first tile of a new game")
        b.add("rnd", "Random")
        b.add("inst", "Installation", {"work": "work.out", "row": "rnd.row", "col": "rnd.col"})
        b.page("Board")
        for r in range(1, 5):
            for c in range(1, 5):
                b.add(
                    f"cell_{r}_{c}",
                    "Cell",
                    {
                        "Set": f"inst.set_{r}_{c}",
                        "Four": "rnd.four",
                        "Clear": "clear.out",
                        "Go": go,
                        "Input": f"post_{r}_{c}.out",
                        "Start": "opening.out",
                    },
                )
        b.page("Lockout")
        if variant == "original":
            b.add("lock", "OR", {"in1": "pending.out", "in2": fb("processing.q1", False)}, comment="lockout: a move or its spawn is in progress")
        else:
            b.add("lock", "MOVE", {"in": "pending.out"}, comment="lockout: the spawn of the last move is in progress")
        b.add("busy_now", "GT", {"in1": "todo.q", "in2": 0})
        if variant == "original":
            b.add("busy", "OR", {"in1": "lock.out", "in2": "busy_now.out", "in3": "processing.q1"})
        else:
            b.add("busy", "OR", {"in1": "lock.out", "in2": "busy_now.out"})
        busy = "busy.out"

    b.page("Score")
    # Score and best.
    b.add("add_gain", "SEL", {"g": "moved.out", "in0": 0, "in1": "gain.out"})
    b.add("score_sum", "ADD", {"in1": "score.prev", "in2": "add_gain.out"})
    b.add("score_next", "SEL", {"g": "clear.out", "in0": "score_sum.out", "in1": 0})
    b.add("score", "MEMORY", {"in": "score_next.out", "en": True}, params={"init": 0})
    b.add("best_max", "MAX", {"in1": "best.prev", "in2": "score.q"})
    b.add("best", "MEMORY", {"in": "best_max.out", "en": True}, params={"init": 0})
    # Game over: all occupied and no two equal neighbours. Win: a 2048 tile.
    for r in range(1, 5):
        for c in range(1, 5):
            b.page("Full")
            b.add(f"full_{r}_{c}", "NE", {"in1": cell_ref(r, c), "in2": 0})
            b.page("Win")
            b.add(f"won_{r}_{c}", "GE", {"in1": cell_ref(r, c), "in2": 2048})
    pairs = []
    for r in range(1, 5):
        for c in range(1, 5):
            if c < 4:
                pairs.append(((r, c), (r, c + 1)))
            if r < 4:
                pairs.append(((r, c), (r + 1, c)))
    b.page("Pairs and game over")
    for (a, bb) in pairs:
        b.add(f"same_{a[0]}{a[1]}_{bb[0]}{bb[1]}", "EQ", {"in1": cell_ref(*a), "in2": cell_ref(*bb)})
    b.page("Full")
    b.add("all_full", "AND", {f"in{4 * (r - 1) + c}": f"full_{r}_{c}.out" for r in range(1, 5) for c in range(1, 5)})
    b.page("Pairs and game over")
    b.add("any_pair", "OR", {f"in{k + 1}": f"same_{a[0]}{a[1]}_{bb[0]}{bb[1]}.out" for k, (a, bb) in enumerate(pairs)})
    b.add("no_pair", "NOT", {"in": "any_pair.out"})
    b.add("idle", "NOT", {"in": busy})
    b.add("game_over", "AND", {"in1": "all_full.out", "in2": "no_pair.out", "in3": "idle.out"})
    b.page("Win")
    b.add("win", "OR", {f"in{4 * (r - 1) + c}": f"won_{r}_{c}.out" for r in range(1, 5) for c in range(1, 5)})

    outputs = [out(f"v{r}{c}", "DINT", cell_ref(r, c), kind="display") for r in range(1, 5) for c in range(1, 5)]
    outputs += [
        out("score", "DINT", "score.q", kind="display"),
        out("best", "DINT", "best.q", kind="display"),
        out("game_over", "BOOL", "game_over.out", kind="lamp"),
        out("win", "BOOL", "win.out", kind="lamp"),
        out("busy", "BOOL", busy, kind="lamp", description="lockout: commands are refused"),
    ]
    names = {
        "upd1": ("2048", "The design's final program (UPD.1): single-pass Processing, the time-based Random retrying every scan until it hits an empty cell, the lockout while the spawn is pending."),
        "original": ("2048 (original)", "The design's first version: multi-scan Processing with memories, triggers and feedback, and the synchronisation triggers between the four processors that UPD.1 removed."),
        "smart": ("2048 (smart spawn)", "The design's suggested improvement: the spawn numbers the empty cells and draws among them (seeded RANDOM), so every command completes in the scan that accepts it."),
    }
    name, desc = names[variant]
    return {
        "fbd": 3,
        "name": name,
        "description": desc,
        "cycle_ms": 5,
        "include": ["lib/2048-macros.json"],
        "inputs": [{"name": "command", "type": "LINT", "kind": "selector", "options": CMD_OPTIONS, "description": "1 up, 2 right, 3 down, 4 left, 5 start, 6 reset; acts on the change to a position"}],
        "outputs": outputs,
        "blocks": b.blocks,
        "pages": b.page_list(),
    }


def write(path, doc):
    with open(os.path.join(ROOT, path), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    write("diagrams/lib/2048-macros.json", library())
    write("diagrams/2048.json", program("upd1"))
    write("diagrams/2048-original.json", program("original"))
    write("diagrams/2048-smart-spawn.json", program("smart"))
