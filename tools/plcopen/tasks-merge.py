#!/usr/bin/env python3
"""Merges PLCopen projects of one program each (fbd's exports) into one project whose
configuration runs each program as an instance of its own task, at the intervals given, for
tools/plcopen/tasks-check.sh: several programs in several tasks, run by Beremiz's generator +
matiec and by fbd's import.

    tools/plcopen/tasks-merge.py OUT.xml --intervals 10,30 IN1.xml IN2.xml

Each input's POUs are renamed with a prefix of their own (`p1_M0`: two exports both have a
macro `M0`), references to them included; the function blocks the export writes for this
library's own blocks (`FBD_…`) are the same in every file and kept once.
"""

import argparse
import copy
import sys

from lxml import etree

NS = "http://www.plcopen.org/xml/tc6_0201"


def q(tag):
    return f"{{{NS}}}{tag}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("--intervals", required=True, help="ms per input, comma-separated")
    args = ap.parse_args()
    intervals = [int(x) for x in args.intervals.split(",")]
    if len(intervals) != len(args.inputs):
        sys.exit("one interval per input")
    base = etree.parse(args.inputs[0])
    root = base.getroot()
    pous = root.find(f"{q('types')}/{q('pous')}")
    for p in list(pous):
        pous.remove(p)
    kept = set()
    programs = []
    for k, path in enumerate(args.inputs):
        tree = etree.parse(path)
        own = {p.get("name") for p in tree.iter(q("pou")) if not p.get("name").startswith("FBD_")}
        rename = {n: f"p{k}_{n}" for n in own}
        for el in tree.iter(q("pou"), q("block"), q("derived")):
            attr = "typeName" if el.tag == q("block") else "name"
            if el.get(attr) in rename:
                el.set(attr, rename[el.get(attr)])
        for p in tree.iter(q("pou")):
            name = p.get("name")
            if name.startswith("FBD_"):
                if name in kept:
                    continue
                kept.add(name)
            elif p.get("pouType") == "program":
                programs.append(name)
            pous.append(copy.deepcopy(p))
    res = root.find(f".//{q('resource')}")
    for t in list(res.findall(q("task"))):
        res.remove(t)
    for k, (prog, ms) in enumerate(zip(programs, intervals)):
        t = etree.SubElement(res, q("task"), name=f"task{k}", interval=f"T#{ms}ms", priority=str(k))
        etree.SubElement(t, q("pouInstance"), name=f"inst{k}", typeName=prog)
    base.write(args.out, xml_declaration=True, encoding="utf-8")


if __name__ == "__main__":
    main()
