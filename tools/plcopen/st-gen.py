#!/usr/bin/env python3
"""Writes random Structured Text programs as PLCopen TC6 XML, for tools/plcopen/st-check.sh.

    tools/plcopen/st-gen.py SEED OUT.xml

Each program has BOOL inputs i0..i2, INT inputs a0 and a1, outputs of BOOL, INT, DINT and REAL,
locals, and instances of TON, CTU and R_TRIG; its body is 4 to 12 random statements:
assignments of nested expressions (every operator with IEC precedence, parentheses, typed and
untyped literals, standard functions and conversions, an instance's outputs read before or
after its call, a FUNCTION written in ST with a FOR and an EXIT), IF/ELSIF/ELSE and CASE (lists, ranges, ELSE)
nested two deep, WHILE, REPEAT and FOR (BY, negative steps, bounds that change in the loop)
nested two deep with EXIT, each counted by a variable of its own so that it ends, calls of
instances (formal arguments, `=>` outputs; not in a loop; one called again after its first
call now and then), in a branch or not, and
RETURN, in a branch or a loop or not; an instance may be called in each branch of an IF or a
CASE (branches exclude each other: one call a scan), giving different inputs; two enumerations
(`Mode`, `Lamp`, a value name in both written `Mode#hold`) assigned, compared and a CASE's
selector with their values as labels; three arrays (`ARRAY[0..4] OF INT` with initial elements,
`ARRAY[1..2, 0..2] OF DINT`, `ARRAY[-1..1] OF BOOL`) read and written at constant indices and
at computed ones kept in bounds (`LIMIT`: matiec's C does not check them). Divisors are non-zero
literals (matiec's C traps on an integer division by zero). The same SEED writes the same file.
"""

import random
import sys

BOOLS_IN = ["i0", "i1", "i2"]
INTS_IN = ["a0", "a1"]
BOOL_VARS = ["q0", "q1", "b0"]
INT_VARS = ["n0", "n1", "m0"]
DINT_VARS = ["d0"]
REAL_VARS = ["r0"]
FBS = [("t0", "TON"), ("c0", "CTU"), ("e0", "R_TRIG")]
FB_OUT = {"t0": [("Q", "BOOL"), ("ET", "TIME")], "c0": [("Q", "BOOL"), ("CV", "INT")], "e0": [("Q", "BOOL")]}


class Gen:
    def __init__(self, rng):
        self.rng = rng
        self.called = set()
        self.loops = 0

    def int_expr(self, d=0):
        r = self.rng
        k = r.randint(0, 12 if d < 3 else 2)
        if k == 0 and r.random() < 0.3:
            if r.random() < 0.7:
                return f"arr[{self.index(d, 0, 4)}]"
            return f"DINT_TO_INT(grid[{self.index(d, 1, 2)}, {self.index(d, 0, 2)}])"
        if k == 0:
            return r.choice(INTS_IN + INT_VARS + ["k0"])
        if k == 1:
            return str(r.choice([0, 1, 2, 3, 7, 100, 1000, -5]))
        if k == 2:
            return "c0.PV" if r.random() < 0.2 else "c0.CV"
        if k in (3, 4, 5):
            op = r.choice(["+", "-", "*"])
            return f"{self.int_expr(d + 1)} {op} {self.int_expr(d + 1)}"
        if k == 6:
            return f"({self.int_expr(d + 1)})"
        if k == 7:
            op = r.choice(["/", "MOD"])
            return f"({self.int_expr(d + 1)}) {op} {r.choice([2, 3, 7, 10, -4])}"
        if k == 8:
            return f"{r.choice(['MIN', 'MAX'])}({self.int_expr(d + 1)}, {self.int_expr(d + 1)})"
        if k == 9:
            return f"LIMIT({r.choice([-100, 0, 5])}, {self.int_expr(d + 1)}, {r.choice([10, 200, 3000])})"
        if k == 10:
            return f"SEL({self.bool_expr(d + 1)}, {self.int_expr(d + 1)}, {self.int_expr(d + 1)})"
        if k == 11:
            if r.random() < 0.5:
                return f"fsum({self.int_expr(d + 1)}, {self.int_expr(d + 1)})"
            return f"ABS({self.int_expr(d + 1)})"
        return f"-{r.choice(INTS_IN + INT_VARS)}"

    def index(self, d, lo, hi):
        r = self.rng
        k = r.randint(0, 4)
        if k <= 1:
            return str(r.randint(lo, hi))
        if k == 2 and self.loops > 0:
            return f"LIMIT({lo}, k{self.loops - 1}, {hi})"
        if k == 3 and d < 3:
            return f"LIMIT({lo}, {self.int_expr(d + 1)}, {hi})"
        return f"LIMIT({lo}, {r.choice(INTS_IN + INT_VARS)}, {hi})"

    def mode(self):
        return self.rng.choice(["idle", "run", "Mode#hold", "done", "Mode#idle", "s0"])

    def bool_expr(self, d=0):
        r = self.rng
        k = r.randint(0, 8 if d < 3 else 1)
        if k == 1 and r.random() < 0.3:
            return f"flags[{self.index(d, -1, 1)}]"
        if k == 2 and r.random() < 0.3:
            op = r.choice(["=", "<>"])
            return r.choice([f"s0 {op} {self.mode()}", f"{self.mode()} {op} s0", f"s1 {op} {r.choice(['off', 'Lamp#hold'])}"])
        if k == 0:
            return r.choice(BOOLS_IN + BOOL_VARS)
        if k == 1:
            return r.choice(["t0.Q", "c0.Q", "e0.Q", "TRUE", "FALSE"])
        if k in (2, 3):
            op = r.choice(["=", "<>", "<", ">", "<=", ">="])
            return f"{self.int_expr(d + 1)} {op} {self.int_expr(d + 1)}"
        if k in (4, 5):
            op = r.choice(["AND", "OR", "XOR", "&"])
            return f"{self.bool_expr(d + 1)} {op} {self.bool_expr(d + 1)}"
        if k == 6:
            return f"NOT ({self.bool_expr(d + 1)})"
        if k == 7:
            return f"({self.bool_expr(d + 1)})"
        return f"{self.real_expr(d + 1)} > {r.choice(['0.0', '10.5', '-3.0'])}"

    def real_expr(self, d=0):
        r = self.rng
        k = r.randint(0, 4 if d < 3 else 1)
        if k == 0:
            return "r0"
        if k == 1:
            return f"INT_TO_REAL({self.int_expr(d + 1)})"
        if k == 2:
            return f"{self.real_expr(d + 1)} * {r.choice(['0.5', '1.25', '-2.0'])}"
        if k == 3:
            return f"{self.real_expr(d + 1)} + {self.real_expr(d + 1)}"
        return f"{self.real_expr(d + 1)} / 4.0"

    def call(self, ind):
        # An instance called already is called again now and then (its state shared).
        free = [f for f in FBS if f[0] not in self.called or self.rng.random() < 0.3]
        if not free:
            return None
        name, ty = self.rng.choice(free)
        self.called.add(name)
        r = self.rng
        if ty == "TON":
            args = f"IN := {self.bool_expr(1)}, PT := T#{r.choice([20, 60, 100])}ms"
        elif ty == "CTU":
            # PV given, or kept from `c0.PV := ..` (a member the instance keeps); CU likewise.
            cu = f"CU := {self.bool_expr(1)}, " if r.random() < 0.7 else ""
            pv = f", PV := {r.choice([3, 5, 100])}" if r.random() < 0.5 else ""
            args = f"{cu}R := {self.bool_expr(2)}{pv}"
        else:
            args = f"CLK := {self.bool_expr(1)}"
        if r.random() < 0.3:
            args += f", Q => {r.choice(BOOL_VARS)}"
        return f"{ind}{name}({args});"

    def loop(self, ind, depth):
        """A WHILE, REPEAT or FOR counted by its own variable (k0, k1), which no other
        statement writes: it ends after a few iterations, or at an EXIT or a RETURN."""
        r = self.rng
        k = f"k{self.loops}"
        inner = ind + "  "
        self.loops += 1
        kind = r.randint(0, 2)
        if kind == 0:
            lim = r.choice(["3", "5", "a0 MOD 4"])
            out = [f"{ind}{k} := 0;", f"{ind}WHILE {k} < {lim} AND ({self.bool_expr(1)}) DO"]
            out += self.block(inner, depth + 1)
            out += [f"{inner}{k} := {k} + 1;", f"{ind}END_WHILE;"]
        elif kind == 1:
            lim = r.choice(["2", "4", "a1 MOD 3"])
            out = [f"{ind}{k} := 0;", f"{ind}REPEAT"]
            out += self.block(inner, depth + 1)
            out += [f"{inner}{k} := {k} + 1;", f"{ind}UNTIL {k} >= {lim} OR ({self.bool_expr(1)}) END_REPEAT;"]
        else:
            by = r.choice(["", "1", "2", "3", "-1", "-2"])
            if by.startswith("-"):
                lo, hi = r.choice(["5", "10", "a0 MOD 8"]), r.choice(["0", "-3", "n1 MOD 4"])
            else:
                lo, hi = r.choice(["0", "1", "-2", "a0 MOD 5"]), r.choice(["3", "5", "10", "a1 MOD 8", "n1 MOD 6"])
            step = f" BY {by}" if by else ""
            out = [f"{ind}FOR {k} := {lo} TO {hi}{step} DO"]
            out += self.block(inner, depth + 1)
            out.append(f"{ind}END_FOR;")
        self.loops -= 1
        return "\n".join(out)

    def statement(self, ind, depth):
        r = self.rng
        if r.random() < 0.04:
            return f"{ind}IF {self.bool_expr()} THEN RETURN; END_IF;" if r.random() < 0.8 else f"{ind}RETURN;"
        if self.loops > 0 and r.random() < 0.1:
            return f"{ind}IF {self.bool_expr(1)} THEN EXIT; END_IF;"
        if self.loops < 2 and depth < 3 and r.random() < 0.15:
            return self.loop(ind, depth)
        k = r.randint(0, 9 if depth < 2 else 5)
        if k in (0, 1):
            return f"{ind}{r.choice(INT_VARS)} := {self.int_expr()};"
        if k == 2:
            if r.random() < 0.2:
                return f"{ind}c0.CU := {self.bool_expr()};"
            return f"{ind}{r.choice(BOOL_VARS)} := {self.bool_expr()};"
        if k == 3 and r.random() < 0.3:
            w = r.randint(0, 3)
            if w <= 1:
                return f"{ind}arr[{self.index(0, 0, 4)}] := {self.int_expr()};"
            if w == 2:
                return f"{ind}flags[{self.index(0, -1, 1)}] := {self.bool_expr()};"
            return f"{ind}grid[{self.index(0, 1, 2)}, {self.index(0, 0, 2)}] := grid[1, 2] + INT_TO_DINT({self.int_expr()});"
        if k == 3 and r.random() < 0.4:
            if r.random() < 0.7:
                return f"{ind}s0 := {self.mode()};"
            return f"{ind}s1 := {r.choice(['off', 'Lamp#hold', 's1'])};"
        if k == 3:
            return f"{ind}d0 := INT_TO_DINT({self.int_expr()}) * {r.choice(['1000', '70000', 'DINT#-3'])} + d0 / 2;"
        if k == 4:
            return f"{ind}r0 := {self.real_expr()};"
        if k == 5:
            call = self.call(ind) if self.loops == 0 else None
            return call or f"{ind}{r.choice(INT_VARS)} := {self.int_expr()};"
        if k in (6, 7):
            # Branches exclude each other: an instance may be called in each (one call runs).
            before, called = set(self.called), set(self.called)
            out = [f"{ind}IF {self.bool_expr()} THEN"]
            out += self.arm(ind + "  ", depth + 1, before, called)
            for _ in range(r.randint(0, 2)):
                out.append(f"{ind}ELSIF {self.bool_expr()} THEN")
                out += self.arm(ind + "  ", depth + 1, before, called)
            if r.random() < 0.6:
                out.append(f"{ind}ELSE")
                out += self.arm(ind + "  ", depth + 1, before, called)
            out.append(f"{ind}END_IF;")
            self.called = called
            return "\n".join(out)
        before, called = set(self.called), set(self.called)
        if r.random() < 0.25:
            # A CASE on the enumeration, its values as labels.
            out = [f"{ind}CASE s0 OF"]
            labels = ["idle", "run", "Mode#hold", "done"]
            for _ in range(r.randint(1, 3)):
                label = labels.pop(r.randrange(len(labels)))
                if labels and r.random() < 0.3:
                    label += ", " + labels.pop(0)
                out.append(f"{ind}  {label}:")
                out += self.arm(ind + "    ", depth + 1, before, called)
                if not labels:
                    break
            if r.random() < 0.5:
                out.append(f"{ind}ELSE")
                out += self.arm(ind + "    ", depth + 1, before, called)
            out.append(f"{ind}END_CASE;")
            self.called = called
            return "\n".join(out)
        out = [f"{ind}CASE {r.choice(INTS_IN + INT_VARS + ['c0.CV'])} OF"]
        used = set()
        for _ in range(r.randint(1, 4)):
            labels = []
            for _ in range(r.randint(1, 3)):
                if r.random() < 0.3:
                    lo = r.randint(-5, 20)
                    labels.append(f"{lo}..{lo + r.randint(0, 10)}")
                else:
                    v = r.choice([0, 1, 2, 3, 5, 300, -20000, 32767])
                    if v in used:
                        continue
                    used.add(v)
                    labels.append(str(v))
            if not labels:
                continue
            out.append(f"{ind}  {', '.join(labels)}:")
            out += self.arm(ind + "    ", depth + 1, before, called)
        if r.random() < 0.5:
            out.append(f"{ind}ELSE")
            out += self.arm(ind + "    ", depth + 1, before, called)
        out.append(f"{ind}END_CASE;")
        self.called = called
        return "\n".join(out)

    def arm(self, ind, depth, before, called):
        """A branch's statements, its calls counted from `before` (the branches before it
        called in branches that exclude it); what it called added to `called`."""
        self.called = set(before)
        out = self.block(ind, depth)
        called |= self.called
        return out

    def block(self, ind, depth):
        return [self.statement(ind, depth) for _ in range(self.rng.randint(1, 3))]


def program(seed):
    rng = random.Random(seed)
    g = Gen(rng)
    # The counter's preset: a member a statement sets, read back as `c0.PV`.
    body = f"c0.PV := {rng.choice([3, 5, 7])};\n" + "\n".join(g.statement("", 0) for _ in range(rng.randint(4, 12)))
    var = lambda n, t: f'<variable name="{n}"><type><{t}/></type></variable>'
    fb = lambda n, t: f'<variable name="{n}"><type><derived name="{t}"/></type></variable>'
    ins = "".join(var(n, "BOOL") for n in BOOLS_IN) + "".join(var(n, "INT") for n in INTS_IN)
    outs = var("q0", "BOOL") + var("q1", "BOOL") + var("n0", "INT") + var("n1", "INT") + var("d0", "DINT") + var("r0", "REAL")
    locals_ = fb("s0", "Mode") + '<variable name="s1"><type><derived name="Lamp"/></type><initialValue><simpleValue value="Lamp#hold"/></initialValue></variable>'
    locals_ += '<variable name="arr"><type><array><dimension lower="0" upper="4"/><baseType><INT/></baseType></array></type><initialValue><arrayValue><value><simpleValue value="1"/></value><value><simpleValue value="2"/></value><value><simpleValue value="3"/></value></arrayValue></initialValue></variable>'
    locals_ += '<variable name="grid"><type><array><dimension lower="1" upper="2"/><dimension lower="0" upper="2"/><baseType><DINT/></baseType></array></type></variable>'
    locals_ += '<variable name="flags"><type><array><dimension lower="-1" upper="1"/><baseType><BOOL/></baseType></array></type><initialValue><arrayValue><value><simpleValue value="TRUE"/></value></arrayValue></initialValue></variable>'
    locals_ += var("b0", "BOOL") + var("m0", "INT") + var("k0", "INT") + var("k1", "INT") + "".join(fb(n, t) for n, t in FBS)
    return f"""<?xml version="1.0" encoding="utf-8"?>
<project xmlns="http://www.plcopen.org/xml/tc6_0201" xmlns:xhtml="http://www.w3.org/1999/xhtml">
  <fileHeader companyName="fbd2048" productName="st-gen" productVersion="1" creationDateTime="2026-01-01T00:00:00"/>
  <contentHeader name="st{seed}"><coordinateInfo><fbd><scaling x="1" y="1"/></fbd><ld><scaling x="1" y="1"/></ld><sfc><scaling x="1" y="1"/></sfc></coordinateInfo></contentHeader>
  <types><dataTypes>
    <dataType name="Mode"><baseType><enum><values><value name="idle"/><value name="run"/><value name="hold"/><value name="done"/></values></enum></baseType></dataType>
    <dataType name="Lamp"><baseType><enum><values><value name="off"/><value name="hold"/></values></enum></baseType></dataType>
  </dataTypes><pous>
    <pou name="fsum" pouType="function">
      <interface>
        <returnType><INT/></returnType>
        <inputVars>{var("x", "INT")}{var("y", "INT")}</inputVars>
        <localVars><variable name="acc"><type><INT/></type><initialValue><simpleValue value="3"/></initialValue></variable>{var("j", "INT")}</localVars>
      </interface>
      <body><ST><xhtml:p><![CDATA[acc := acc + x;
FOR j := 1 TO 3 DO
  IF y > acc * j THEN EXIT; END_IF;
  acc := acc + 1;
END_FOR;
IF y > acc THEN
  fsum := y - acc;
  RETURN;
END_IF;
fsum := acc * 2;]]></xhtml:p></ST></body>
    </pou>
    <pou name="st{seed}" pouType="program">
      <interface>
        <inputVars>{ins}</inputVars>
        <outputVars>{outs}</outputVars>
        <localVars>{locals_}</localVars>
      </interface>
      <body><ST><xhtml:p><![CDATA[{body}
]]></xhtml:p></ST></body>
    </pou>
  </pous></types>
  <instances><configurations><configuration name="config"><resource name="resource1">
    <task name="task0" interval="T#20ms" priority="0"><pouInstance name="instance0" typeName="st{seed}"/></task>
  </resource></configuration></configurations></instances>
</project>
"""


if __name__ == "__main__":
    open(sys.argv[2], "w").write(program(int(sys.argv[1])))
