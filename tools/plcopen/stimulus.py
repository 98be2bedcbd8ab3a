#!/usr/bin/env python3
"""A stimulus (fbd's format: one `SCAN NAME=VALUE` per line) that drives every program input of
a diagram: a BOOL toggles at a period of its own, so no two inputs move in step; a number steps
through a few values of its type, its extremes among them, so that what wraps does.

    tools/plcopen/stimulus.py DIAGRAM.json SCANS > stimulus.txt

tools/plcopen/corpus-check.sh runs each imported public project with one. A STRING input is
left at its default.
"""
import json
import sys

# Values of each type: a small one, a far one of the other sign where the type has one, an
# extreme (a sum of two wraps).
VALUES = {
    "SINT": [5, -100, 127], "INT": [300, -20000, 32767], "DINT": [70000, -5, 2147483000],
    "LINT": [9, -9, 123456789], "USINT": [200, 3, 255], "UINT": [60000, 1, 7],
    "UDINT": [4000000000, 2, 9], "ULINT": [5, 18000000000000000000, 0], "BYTE": [255, 1, 16],
    "WORD": [65535, 2, 256], "DWORD": [1, 4294967295, 77], "LWORD": [3, 1, 0],
    "REAL": ["1.5", "-2.25", "1000.0"], "LREAL": ["0.1", "-3.5", "1e10"], "TIME": ["T#100ms", "T#2s", "T#0s"],
}


def main():
    doc = json.load(open(sys.argv[1]))
    scans = int(sys.argv[2])
    lines = []
    for k, port in enumerate(doc.get("inputs", [])):
        ty = port["type"].upper()
        period = 3 + 2 * k
        for scan in range(1, scans, period):
            n = scan // period
            if ty == "BOOL":
                value = "TRUE" if n % 2 else "FALSE"
            elif ty in VALUES:
                value = VALUES[ty][n % len(VALUES[ty])]
            else:
                continue
            lines.append((scan, k, f"{port['name']}={value}"))
    for scan, _, item in sorted(lines):
        print(scan, item)


if __name__ == "__main__":
    main()
