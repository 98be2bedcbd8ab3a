#!/usr/bin/env python3
"""A stimulus that toggles every program input of an imported diagram: BOOLs flip at their own
period, numbers step through a few values (wrapping ones included). Usage: stimulus.py DIAGRAM.json SCANS"""
import json, sys
doc = json.load(open(sys.argv[1])); scans = int(sys.argv[2])
lines = {}
vals = {"SINT": [5, -100, 127], "INT": [300, -20000, 32767], "DINT": [70000, -5, 2147483000], "LINT": [9, -9, 123456789],
        "USINT": [200, 3, 255], "UINT": [60000, 1, 7], "UDINT": [4000000000, 2, 9], "ULINT": [5, 18000000000000000000, 0],
        "BYTE": [255, 1, 16], "WORD": [65535, 2, 256], "DWORD": [1, 4294967295, 77], "LWORD": [3, 1, 0],
        "REAL": ["1.5", "-2.25", "1000.0"], "LREAL": ["0.1", "-3.5", "1e10"], "TIME": ["T#100ms", "T#2s", "T#0s"]}
for k, p in enumerate(doc.get("inputs", [])):
    ty = p["type"].upper(); period = 3 + 2 * k
    for s in range(1, scans, period):
        n = s // period
        if ty == "BOOL": v = "TRUE" if n % 2 else "FALSE"
        elif ty in vals: v = vals[ty][n % len(vals[ty])]
        else: continue
        lines.setdefault(s, []).append(f"{p['name']}={v}")
for s in sorted(lines):
    for item in lines[s]:
        print(s, item)
