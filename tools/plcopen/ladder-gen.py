#!/usr/bin/env python3
"""Writes random ladder (LD) programs as PLCopen TC6 XML, for tools/plcopen/ladder-check.sh.

    tools/plcopen/ladder-gen.py SEED OUT.xml [RUNGS]

Each program has BOOL inputs i0..i3, BOOL locals m0..m3, BOOL outputs q0..q3 and an INT
output n, and 3 to 8 rungs. A rung is a random nest of series and parallel connections of
contacts (normally open, negated, rising and falling edge) on any of the BOOL variables, with
at times a timer (TON, TOF, TP), a counter (CTU) or an ADD with EN/ENO in series, ending in one
to three coils in parallel or in series (normal, negated, set, reset, rising and falling edge)
on the locals and outputs: several rungs write one variable, a contact reads a variable that
an earlier or a later coil writes, one contact feeds several coils. Every connection carries
the positions Beremiz's generator reads. The same SEED writes the same file.
"""

import random
import sys

INPUTS = [f"i{k}" for k in range(4)]
LOCALS = [f"m{k}" for k in range(4)]
OUTPUTS = [f"q{k}" for k in range(4)]


class Body:
    def __init__(self, rng):
        self.rng = rng
        self.next_id = 1
        self.elems = []
        self.instances = []

    def id(self):
        self.next_id += 1
        return self.next_id

    def connections(self, srcs, x, y):
        """A connectionPointIn from `srcs`: (localId, formalParameter or None, (x, y) of the source's output)."""
        out = [f'<connectionPointIn><relPosition x="0" y="10"/>']
        for ref, formal, (sx, sy) in srcs:
            f = f' formalParameter="{formal}"' if formal else ""
            out.append(f'<connection refLocalId="{ref}"{f}><position x="{x}" y="{y}"/><position x="{sx}" y="{sy}"/></connection>')
        out.append("</connectionPointIn>")
        return "".join(out)

    def element(self, tag, variables, kinds, srcs, x, y):
        """A contact or coil (`tag`) on one of `variables`, modified by one of `kinds`, fed by `srcs`."""
        rng = self.rng
        var = rng.choice(variables)
        kind = rng.choice(kinds)
        neg = "" if "negated" in kind else 'negated="false" '
        i = self.id()
        self.elems.append(
            f'<{tag} localId="{i}" height="20" width="20" {neg}{kind}><position x="{x}" y="{y}"/>'
            f"{self.connections(srcs, x, y + 10)}"
            f'<connectionPointOut><relPosition x="20" y="10"/></connectionPointOut><variable>{var}</variable></{tag}>'
        )
        return [(i, None, (x + 20, y + 10))]

    def contact(self, srcs, x, y):
        kinds = ["", "", "", 'negated="true"', 'edge="rising"', 'edge="falling"']
        return self.element("contact", INPUTS + LOCALS + OUTPUTS, kinds, srcs, x, y)

    def block(self, srcs, x, y):
        """A timer, a counter or an ADD in series: power into IN/CU/EN, on out of Q/ENO."""
        rng = self.rng
        i = self.id()
        kind = rng.choice(["TON", "TOF", "TP", "CTU", "ADD"])
        ins = []
        if kind in ("TON", "TOF", "TP"):
            pt = self.constant(f"T#{rng.choice([20, 40, 60, 100, 200])}ms", x - 60, y + 40)
            ins = [("IN", srcs), ("PT", pt)]
            outs, on = ["Q", "ET"], "Q"
        elif kind == "CTU":
            reset = self.variable(rng.choice(INPUTS + LOCALS), x - 60, y + 40)
            pv = self.constant(str(rng.choice([2, 3, 5])), x - 60, y + 60)
            ins = [("CU", srcs), ("R", reset), ("PV", pv)]
            outs, on = ["Q", "CV"], "Q"
        else:
            n = self.variable("n", x - 60, y + 40)
            one = self.constant(str(rng.choice([1, 2, 3])), x - 60, y + 60)
            ins = [("EN", srcs), ("IN1", n), ("IN2", one)]
            outs, on = ["ENO", "OUT"], "ENO"
        inst = f' instanceName="{kind}{i}"' if kind != "ADD" else ""
        if inst:
            self.instances.append((f"{kind}{i}", kind))
        parts = [f'<block localId="{i}" typeName="{kind}"{inst} height="80" width="60"><position x="{x}" y="{y}"/><inputVariables>']
        for k, (formal, src) in enumerate(ins):
            parts.append(f'<variable formalParameter="{formal}">{self.connections(src, x, y + 10 + 20 * k)}</variable>')
        parts.append("</inputVariables><inOutVariables/><outputVariables>")
        for k, o in enumerate(outs):
            parts.append(f'<variable formalParameter="{o}"><connectionPointOut><relPosition x="60" y="{10 + 20 * k}"/></connectionPointOut></variable>')
        parts.append("</outputVariables></block>")
        self.elems.append("".join(parts))
        if kind == "ADD":
            # The sum written back to n only while EN is on (Beremiz guards it by ENO).
            self.out_variable("n", [(i, "OUT", (x + 60, y + 30))], x + 100, y + 60)
        k = outs.index(on)
        return [(i, on, (x + 60, y + 10 + 20 * k))]

    def constant(self, text, x, y):
        return self.variable(text, x, y)

    def variable(self, name, x, y):
        i = self.id()
        self.elems.append(
            f'<inVariable localId="{i}" height="20" width="40"><position x="{x}" y="{y}"/>'
            f'<connectionPointOut><relPosition x="40" y="10"/></connectionPointOut><expression>{name}</expression></inVariable>'
        )
        return [(i, None, (x + 40, y + 10))]

    def out_variable(self, name, srcs, x, y):
        i = self.id()
        self.elems.append(
            f'<outVariable localId="{i}" height="20" width="40"><position x="{x}" y="{y}"/>'
            f"{self.connections(srcs, x, y + 10)}<expression>{name}</expression></outVariable>"
        )

    def network(self, srcs, x, y, depth):
        """A random nest of series and parallel connections fed by `srcs`; its outputs."""
        rng = self.rng
        r = rng.random()
        if depth >= 3 or r < 0.4:
            return self.contact(srcs, x, y)
        if r < 0.7:
            first = self.network(srcs, x, y, depth + 1)
            return self.network(first, x + 40, y, depth + 1)
        if r < 0.85:
            # Parallel branches joined at one point: an OR.
            a = self.network(srcs, x, y, depth + 1)
            b = self.network(srcs, x, y + 30, depth + 1)
            return a + b
        return self.block(srcs, x, y)

    def coil(self, srcs, x, y):
        kinds = ["", "", 'negated="true"', 'storage="set"', 'storage="reset"', 'edge="rising"', 'edge="falling"']
        return self.element("coil", LOCALS + OUTPUTS, kinds, srcs, x, y)

def program(seed, rungs=None):
    rng = random.Random(seed)
    body = Body(rng)
    rail = 1
    rungs = rungs or rng.randint(3, 8)
    body.elems.append(
        f'<leftPowerRail localId="{rail}" height="{100 * rungs}" width="10"><position x="0" y="0"/>'
        + "".join(f'<connectionPointOut formalParameter=""><relPosition x="10" y="{100 * r + 10}"/></connectionPointOut>' for r in range(rungs))
        + "</leftPowerRail>"
    )
    for r in range(rungs):
        y = 100 * r
        power = body.network([(rail, None, (10, y + 10))], 40, y, 0)
        # One to three coils: in parallel on the rung's end, or in series (power passes through).
        for _ in range(rng.randint(1, 3)):
            out = body.coil(power, 400, y)
            if rng.random() < 0.3:
                power = out
            y += 30
    b = "\n".join(body.elems)
    bools = lambda names: "".join(f'<variable name="{n}"><type><BOOL/></type></variable>' for n in names)
    fbs = "".join(f'<variable name="{n}"><type><derived name="{t}"/></type></variable>' for n, t in body.instances)
    return f"""<?xml version="1.0" encoding="utf-8"?>
<project xmlns="http://www.plcopen.org/xml/tc6_0201">
  <fileHeader companyName="fbd2048" productName="ladder-gen" productVersion="1" creationDateTime="2026-01-01T00:00:00"/>
  <contentHeader name="ladder{seed}"><coordinateInfo><fbd><scaling x="1" y="1"/></fbd><ld><scaling x="1" y="1"/></ld><sfc><scaling x="1" y="1"/></sfc></coordinateInfo></contentHeader>
  <types><dataTypes/><pous>
    <pou name="ladder{seed}" pouType="program">
      <interface>
        <inputVars>{bools(INPUTS)}</inputVars>
        <outputVars>{bools(OUTPUTS)}<variable name="n"><type><INT/></type></variable></outputVars>
        <localVars>{bools(LOCALS)}{fbs}</localVars>
      </interface>
      <body><LD>
{b}
      </LD></body>
    </pou>
  </pous></types>
  <instances><configurations><configuration name="config"><resource name="resource1">
    <task name="task0" interval="T#20ms" priority="0"><pouInstance name="instance0" typeName="ladder{seed}"/></task>
  </resource></configuration></configurations></instances>
</project>
"""


if __name__ == "__main__":
    # RUNGS (a bench's program: `fbd bench` of 2,000 rungs) instead of 3 to 8.
    open(sys.argv[2], "w").write(program(int(sys.argv[1]), int(sys.argv[3]) if len(sys.argv) > 3 else None))
