#!/usr/bin/env python3
"""Runs a PLCopen XML program the way Beremiz and OpenPLC run it and compares every program
output of every scan with `fbd run` of the same file.

    BEREMIZ=/path/to/beremiz IEC2C=/path/to/iec2c MATIEC_LIB=/path/to/matiec/lib \\
        tools/plcopen/beremiz-check.py FILE.xml [--scans N] [--stimulus FILE] [--ours DIAGRAM]

`--ours DIAGRAM` runs fbd on the diagram FILE was exported from (the export's check);
`tools/plcopen/export-check.sh` does that for every committed diagram, with a recorded game
for the 2048 wirings.

The chain on their side is theirs alone: Beremiz's own generator (PLCGenerator.py, imported
from the checkout in BEREMIZ) turns the file into Structured Text, matiec's iec2c (IEC2C, its
library in MATIEC_LIB) turns that into C, and gcc builds it with a driver that sets
`__CURRENT_TIME` to scan × the task interval, writes every stimulated input before each scan
(its last value: a PLC refreshes its inputs every cycle) and prints
every program output after it. Nothing of Beremiz or matiec is in this repository: whoever runs
this builds matiec and checks Beremiz out from their public sources.

The stimulus is fbd's format (`SCAN NAME=VALUE` per line; an input keeps its value). Exits 0
when every value is equal, 1 on a difference, 2 when either side refuses the program (the
reason is printed: a refusal by fbd is not a wrong value).
"""

import argparse
import csv
import os
import re
import struct
import subprocess
import sys
import tempfile
import types


def stand_ins(xml_path):
    """fbd's stand-in descriptions (crates/fbd-plcopen/stand-ins/*.json, and a `stand-ins.json`
    beside the file): type name → elementary type, block name → (inputs, outputs), in upper case."""
    import glob
    import json
    here = os.path.dirname(os.path.abspath(__file__))
    files = sorted(glob.glob(os.path.join(here, "../../crates/fbd-plcopen/stand-ins/*.json")))
    user = os.path.join(os.path.dirname(os.path.abspath(xml_path)), "stand-ins.json")
    types, blocks = {}, {}
    for f in files + ([user] if os.path.exists(user) else []):
        d = json.load(open(f))
        types.update({k.upper(): v for k, v in d.get("types", {}).items()})
        blocks.update({b["name"].upper(): b for b in d.get("blocks", [])})
    return types, blocks


def stand_in_st(st, types, blocks):
    """What matiec needs of the stand-ins Beremiz's ST uses: each type name as a TYPE of its
    elementary type, each block as a FUNCTION_BLOCK of its interface whose outputs keep their
    defaults (what fbd's stand-in computes), so the rest of the program is compared."""
    used = set(re.findall(r"\b\w+\b", st.upper()))
    out = []
    for name, ty in types.items():
        if name in used:
            out.append(f"TYPE {name} : {ty}; END_TYPE\n")
    declared = set(re.findall(r"^\s*FUNCTION_BLOCK\s+(\w+)", st.upper(), re.M))
    for name, b in blocks.items():
        # (A file of fbd's export declares the stand-in itself, as the macro it imported.)
        if name not in used or name in declared:
            continue
        decl = lambda pins: "".join(f"  {p[0]} : {p[1]}{' := ' + str(p[2]) if len(p) > 2 else ''};\n" for p in pins)
        body = f"  {b['outputs'][0][0]} := {b['outputs'][0][0]};\n" if b["outputs"] else "  ;\n"
        out.append(f"FUNCTION_BLOCK {b['name']}\nVAR_INPUT\n{decl(b['inputs'])}END_VAR\n"
                   + (f"VAR_OUTPUT\n{decl(b['outputs'])}END_VAR\n" if b["outputs"] else "")
                   + f"{body}END_FUNCTION_BLOCK\n\n")
    return "".join(out)


def python2_order(generator):
    """Beremiz's generator sorts a ladder point's paths (contacts as strings, series as lists,
    parallels as tuples) with Python 2's ordering of mixed types, which Python 3 refuses (a
    TypeError for a parallel of a contact and a series). The sort orders the terms of an OR, so
    it changes no value; its key here is Python 2's: by type name, then by value."""
    import inspect
    import textwrap

    def py2_key(v):
        if isinstance(v, (list, tuple)):
            return (type(v).__name__, [py2_key(x) for x in v])
        return (type(v).__name__, v)

    cls = generator.PouProgramGenerator
    original = cls.FactorizePaths
    # The method's own source, recompiled with a keyed sort (the lists it sorts are its own).
    src = textwrap.dedent(inspect.getsource(original)).replace(
        "factorized_paths.sort()", "factorized_paths.sort(key=_py2_key)")
    scope = dict(vars(generator))
    scope["_py2_key"] = py2_key
    exec(src, scope)
    cls.FactorizePaths = scope["FactorizePaths"]


def beremiz_st(xml_path):
    """Structured Text by Beremiz's generator, as its IDE writes `plc.st` before matiec."""
    sys.path.insert(0, os.environ["BEREMIZ"])
    import fake_wx  # noqa: F401  Beremiz's own stand-in for wx: its non-GUI modules import headless
    from plcopen import LoadProject, PLCOpenParser
    from plcopen.structures import StdBlckDct, TypeHierarchy
    import PLCGenerator
    from PLCGenerator import GenerateCurrentProgram
    python2_order(PLCGenerator)
    types, blocks = stand_ins(xml_path)

    class Controller:
        """The look-ups Beremiz's ProgramGenerator asks of the IDE (PLCControler)."""

        def __init__(self, project):
            self.project = project

        def GetBaseType(self, name, debug=False):
            if name in TypeHierarchy:
                return name
            dt = self.project.getdataType(name)
            if dt is None:
                return types.get(name.upper())
            content = dt.baseType.getcontent()
            tag = content.getLocalTag()
            if tag in ("array", "subrangeSigned", "subrangeUnsigned"):
                content = content.baseType.getcontent()
                tag = content.getLocalTag()
            return self.GetBaseType(content.getname() if tag == "derived" else tag.upper()) or name

        def GetConfigurationExtraVariables(self):
            """An extension's globals (a VAR_EXTERNAL no configuration declares), as Beremiz's
            IDE adds those its extensions declare: fbd's stand-in globals."""
            declared = set()
            for conf in self.project.getconfigurations():
                for holder in [conf] + list(conf.getresource()):
                    for vl in holder.getglobalVars():
                        declared |= {v.getname().upper() for v in vl.getvariable()}
            extra, seen = [], set()
            for pou in self.project.getpous():
                for vl in (pou.interface.getcontent() if pou.interface is not None else []):
                    if vl.getLocalTag() != "externalVars":
                        continue
                    for v in vl.getvariable():
                        if v.getname().upper() in declared | seen:
                            continue
                        seen.add(v.getname().upper())
                        var = PLCOpenParser.CreateElement("variable", "globalVars")
                        var.setname(v.getname())
                        var.settype(v.gettype())
                        extra.append(var)
            return extra

        def GetBlockType(self, name, inputs=None, debug=False):
            std = [bt for _, bt in StdBlckDct.get(name, [])]
            if std:
                return std[0]
            pou = self.project.getpou(name)
            if pou is None and name.upper() in blocks:
                b = blocks[name.upper()]
                return {"name": b["name"], "type": "functionBlock", "extensible": False, "comment": "",
                        "inputs": [(p[0], p[1], "none") for p in b["inputs"]],
                        "outputs": [(p[0], p[1], "none") for p in b["outputs"]], "usage": ""}
            return pou.getblockInfos() if pou is not None else None

        def GetDataTypeInfos(self, tagname, debug=False):
            return None

    project, err = LoadProject(xml_path)
    if err:
        # A refusal of the file by Beremiz (exit 2), not a difference.
        print(f"Beremiz could not load {xml_path}: {err}")
        raise SystemExit(2)
    errors, warnings = [], []
    program = GenerateCurrentProgram(Controller(project), project, errors, warnings)
    for w in warnings:
        print(f"Beremiz: {w}", file=sys.stderr)
    st = "".join(text for text, _ in program)
    return stand_in_st(st, types, blocks) + st


C_TYPE = {"REAL": "real", "LREAL": "real", "TIME": "time", "LTIME": "time", "STRING": "string",
          "ULINT": "unsigned", "LWORD": "unsigned"}

# A STRING printed as fbd's trace writes it: its IEC literal, in CSV quotes when it holds a
# comma or a double quote.
PRINT_STRING = r"""
static void print_string(STRING s) {
  char lit[4 * STR_MAX_LEN + 3]; int n = 0, q = 0;
  lit[n++] = '\'';
  for (int i = 0; i < s.len; i++) {
    unsigned char c = s.body[i];
    if (c == '$') { lit[n++] = '$'; lit[n++] = '$'; }
    else if (c == '\'') { lit[n++] = '$'; lit[n++] = '\''; }
    else if (c == '\n') { lit[n++] = '$'; lit[n++] = 'N'; }
    else if (c == '\r') { lit[n++] = '$'; lit[n++] = 'R'; }
    else if (c == '\t') { lit[n++] = '$'; lit[n++] = 'T'; }
    else if (c == 0x0c) { lit[n++] = '$'; lit[n++] = 'P'; }
    else if (c >= 0x20 && c <= 0x7e) { lit[n++] = c; if (c == ',' || c == '"') q = 1; }
    else { n += sprintf(lit + n, "$%02X", c); }
  }
  lit[n++] = '\''; lit[n] = 0;
  if (!q) { printf(",%s", lit); return; }
  printf(",\"");
  for (int i = 0; i < n; i++) { if (lit[i] == '"') putchar('"'); putchar(lit[i]); }
  printf("\"");
}
"""


def string_bytes(literal):
    """An IEC string literal (`'a$Nb'`, as fbd's stimulus takes it, or bare text) → its bytes."""
    t = literal.strip()
    if not (len(t) >= 2 and t[0] == t[-1] == "'"):
        return t.encode()
    out, i, body = bytearray(), 0, t[1:-1]
    esc = {"$": 36, "'": 39, "L": 10, "N": 10, "R": 13, "T": 9, "P": 12}
    while i < len(body):
        c = body[i]
        if c == "$" and body[i + 1].upper() in esc:
            out.append(esc[body[i + 1].upper()])
            i += 2
        elif c == "$":
            out.append(int(body[i + 1:i + 3], 16))
            i += 3
        else:
            out.append(ord(c))
            i += 1
    return bytes(out)

UNIT_NS = {"d": 86_400 * 10**9, "h": 3_600 * 10**9, "m": 60 * 10**9, "s": 10**9, "ms": 10**6, "us": 10**3, "ns": 1}


def duration_ns(text):
    """`T#1s500ms` (as fbd writes a TIME) → nanoseconds; None if the text is no duration."""
    m = re.fullmatch(r"(?i)(?:L?T|L?TIME)#(-?)((?:[\d.]+(?:ms|us|ns|d|h|m|s))+)", text.strip().replace("_", ""))
    if not m:
        return None
    from fractions import Fraction
    total = sum(Fraction(n) * UNIT_NS[u.lower()] for n, u in re.findall(r"([\d.]+)(ms|us|ns|d|h|m|s)", m.group(2), re.I))
    return int(-total if m.group(1) else total)


def renamed_ports(xml_path):
    """The program's ports fbd's export renamed (`a-b` went out as `FBD_a_b`): original → written."""
    import xml.etree.ElementTree as ET
    names = {}
    for el in ET.parse(xml_path).iter():
        if el.tag.endswith("}port") and "pou" not in el.attrib and "original" in el.attrib:
            names[el.attrib["original"]] = el.attrib["name"]
    return names


def program_fields(pous_h, program):
    """Each variable of `program` by its name in upper case: its C type, and whether it is a
    pointer (a located variable and a VAR_EXTERNAL point to the I/O image, to the global)."""
    return dict(
        (m.group(2).upper(), (m.group(1), not m.group(0).startswith("__DECLARE_VAR")))
        for m in re.finditer(r"__DECLARE_(?:LOCATED|VAR|EXTERNAL)\((\w+),(\w+)\)", pous_h.split(f"// PROGRAM {program}")[1].split("} " + program + ";")[0])
    )


# The configuration's and resources' globals in matiec's C (`__DECLARE_GLOBAL(TYPE,RES,NAME)`):
# name in upper case -> (type, C variable), for a global no program instance declares.
GLOBALS = {}


def resolve(pous_h, instances, name):
    """The C instance and field of fbd's `name`: `inst/var` a variable of that program
    instance, else the first instance that has a variable `name` (a global, a located
    variable), else a global no program declares (`(("", C name), name)`); None if none."""
    if "/" in name:
        inst, var = name.split("/", 1)
        hit = instances.get(inst.upper())
        if hit and "/" not in var and var.upper() in program_fields(pous_h, hit[0]):
            return hit, var
        return None
    for hit in instances.values():
        if name.upper() in program_fields(pous_h, hit[0]):
            return hit, name
    # A variable of a later instance whose name an earlier one took: fbd's `inst_var`.
    for inst, hit in instances.items():
        var = name[len(inst) + 1:]
        if name.upper().startswith(inst + "_") and var.upper() in program_fields(pous_h, hit[0]):
            return hit, var
    if name.upper() in GLOBALS:
        return ("", GLOBALS[name.upper()][1]), name
    return None


def driver(pous_h, instances, outputs, inputs, stimulus, scans, tick_ns, renamed=None):
    """A C main that runs the configuration `scans` times and prints a CSV like fbd's trace.
    `instances`: each program instance by its name in upper case, as (program type, C name)."""
    renamed = renamed or {}

    aliases = stand_ins(".")[0]

    def ref(name):
        name = renamed.get(name, name)
        (program, inst), var = resolve(pous_h, instances, name)
        if not program:
            return aliases.get(GLOBALS[var.upper()][0].upper(), GLOBALS[var.upper()][0]), f"{inst}.value"
        ty, located = program_fields(pous_h, program)[var.upper()]
        ty = aliases.get(ty.upper(), ty)
        return ty, (f"(*{inst}.{var.upper()}.value)" if located else f"{inst}.{var.upper()}.value")

    lines = ['#include <stdio.h>', '#include "iec_std_lib.h"', '#include "accessor.h"', '#include "POUS.h"',
             "TIME __CURRENT_TIME; BOOL __DEBUG;",
             "#define __LOCATED_VAR(type, name, ...) type __##name; type *name = &__##name;",
             '#include "LOCATED_VARIABLES.h"', "#undef __LOCATED_VAR",
             *(f"extern {t} {c};" for t, c in instances.values()),
             *(f"extern __IEC_{t}_t {c};" for t, c in GLOBALS.values()),
             "void config_init__(void); void config_run__(unsigned long tick);",
             PRINT_STRING, "static void print(unsigned long k) {", '  printf("%lu", k);']
    for o in outputs:
        ty, r = ref(o)
        kind = C_TYPE.get(ty)
        if kind == "real":
            lines.append(f'  printf(",%.17g", (double){r});')
        elif kind == "time":
            lines.append(f'  printf(",%lld", (long long){r}.tv_sec * 1000000000LL + {r}.tv_nsec);')
        elif kind == "string":
            lines.append(f'  print_string({r});')
        elif kind == "unsigned":
            lines.append(f'  printf(",%llu", (unsigned long long){r});')
        else:
            lines.append(f'  printf(",%lld", (long long){r});')
    lines.append('  printf("\\n"); }')
    lines.append("int main(void) { config_init__();")
    lines.append('  printf("scan,%s\\n");' % ",".join(outputs))
    lines.append(f"  for (unsigned long k = 0; k < {scans}UL; k++) {{")
    lines.append(f"    __CURRENT_TIME.tv_sec = (k * {tick_ns}ULL) / 1000000000ULL; __CURRENT_TIME.tv_nsec = (k * {tick_ns}ULL) % 1000000000ULL;")
    for scan, name, value in stimulus:
        if resolve(pous_h, instances, renamed.get(name, name)) is None:
            raise SystemExit(f"stimulus: `{name}` is no variable of a program instance")
        ty, r = ref(name)
        value = {"true": "1", "false": "0"}.get(value.lower(), value)
        if C_TYPE.get(ty) == "time":
            ns = duration_ns(value)
            if ns is None:
                raise SystemExit(f"stimulus: `{name}` ({r}) is a TIME, and `{value}` no duration")
            sec = abs(ns) // 10**9 * (1 if ns >= 0 else -1)
            value = f"(TIME){{{sec}, {ns - sec * 10**9}}}"
        elif C_TYPE.get(ty) == "string":
            b = string_bytes(value)
            value = "(STRING){%d, {%s}}" % (len(b), ", ".join(str(x) for x in b) or "0")
        # Each input holds its last value and is written before every scan from then on, as a
        # PLC refreshes its input image every cycle: a program that writes a located %I
        # variable sees the device's value again at the next scan (OpenPLC's runtime copies
        # its input buffers each cycle), as fbd's inputs do.
        lines.append(f"    if (k >= {scan}UL) {r} = {value};")
    lines.append("    config_run__(k); print(k); }")
    lines.append("  return 0; }")
    reals = {o for o in outputs if ref(o)[0] == "REAL"}
    return "\n".join(lines) + "\n", reals


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file")
    ap.add_argument("--scans", type=int, default=1000)
    ap.add_argument("--stimulus")
    ap.add_argument("--show", type=int, default=5, help="differences printed")
    ap.add_argument("--ours", help="the file fbd runs (default FILE): a diagram whose export FILE is")
    args = ap.parse_args()
    for var in ("BEREMIZ", "IEC2C", "MATIEC_LIB"):
        if not os.environ.get(var):
            raise SystemExit(f"set {var} (see the top of {sys.argv[0]})")
    fbd = os.environ.get("FBD", "target/release/fbd")
    stimulus = []
    if args.stimulus:
        for line in open(args.stimulus):
            # A comment begins the line or follows a space, as fbd reads it: the `#` of a
            # literal (`T#5s`, `16#FF`) follows its type.
            line = re.sub(r"(^|\s)#.*", "", line).split()
            for item in line[1:]:
                name, value = item.split("=", 1)
                stimulus.append((int(line[0]), name, value))
    with tempfile.TemporaryDirectory() as w:
        theirs = os.path.join(w, "plc.st")
        try:
            open(theirs, "w").write(beremiz_st(args.file))
        except Exception as e:  # noqa: BLE001  Beremiz's generator refusing the file is a refusal
            print(f"Beremiz's generator refuses {args.file}: {type(e).__name__}: {e}")
            return 2
        r = subprocess.run([os.environ["IEC2C"], "-I", os.environ["MATIEC_LIB"], "plc.st"], cwd=w, capture_output=True, text=True)
        if r.returncode != 0:
            print(f"matiec refuses Beremiz's ST of {args.file}:\n{r.stdout}{r.stderr}")
            return 2
        # This matiec writes the names of non-located globals into LOCATED_VARIABLES.h among
        # its entries (a bare `COUNT`, or `KICK` glued before an entry), which no C compiler
        # takes: only the entries are kept.
        located = os.path.join(w, "LOCATED_VARIABLES.h")
        if os.path.exists(located):
            entries = re.findall(r"__LOCATED_VAR\([^)]*\)", open(located).read())
            open(located, "w").write("".join(e + "\n" for e in entries))
        pous_h = open(os.path.join(w, "POUS.h")).read()
        programs = re.findall(r"^// PROGRAM (\w+)", pous_h, re.M)
        csrc = "".join(open(os.path.join(w, f)).read() for f in sorted(os.listdir(w)) if f.endswith(".c") and f != "POUS.c")
        # The program instances of the resource: `TYPE RES__INST;` followed by `#define INST RES__INST`.
        instances = {m.group(3).upper(): (m.group(1), m.group(2)) for m in re.finditer(r"^(\w+) (\w+__\w+);\n#define (\w+) \2$", csrc, re.M)}
        if not instances:
            print(f"no program instance in matiec's C for {args.file}")
            return 2
        GLOBALS.update({m.group(3).upper(): (m.group(1), f"{m.group(2)}__{m.group(3)}") for m in re.finditer(r"__DECLARE_GLOBAL\((\w+),(\w+),(\w+)\)", csrc)})
        ticks = re.search(r"common_ticktime__ = (\d+)ULL", "".join(open(os.path.join(w, f)).read() for f in os.listdir(w) if f.endswith(".c")))
        tick_ns = int(ticks.group(1)) if ticks else 20_000_000
        ours = os.path.join(w, "fbd.csv")
        cmd = [fbd, "run", args.ours or args.file, "--scans", str(args.scans), "--trace", ours]
        # Every program output, and every variable of the program by its IEC name (fbd's
        # connectors that matiec's program declares): compared too.
        sig = subprocess.run([fbd, "check", "--signals", args.ours or args.file], capture_output=True, text=True)
        # With one instance its variables are fbd's top level; with several, `inst/var`.
        several = len(instances) > 1
        watch = []
        for line in sig.stdout.splitlines():
            parts = line.split()
            if len(parts) < 3 or parts[2] not in ("ProgramOutput", "Connector"):
                continue
            name = parts[0]
            if parts[2] == "Connector" and "/" in name and not several:
                continue
            if resolve(pous_h, instances, renamed_ports(args.file).get(name, name)) is not None:
                watch.append(name)
            elif parts[2] == "ProgramOutput":
                print(f"{name}: no variable of that name in matiec's program instances; not compared")
        for name in watch:
            cmd += ["--watch", name]
        if args.stimulus:
            cmd += ["--stimulus", args.stimulus]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            print(f"fbd refuses {args.file}:\n{r.stderr.strip()}")
            return 2
        ours_rows = list(csv.DictReader(open(ours)))
        outputs = [k for k in ours_rows[0] if k and k not in ("scan", "time_ms")] if ours_rows else []
        src, reals = driver(pous_h, instances, outputs, [], stimulus, args.scans, tick_ns, renamed_ports(args.file))
        open(os.path.join(w, "driver.c"), "w").write(src)
        inc = os.path.join(os.environ["MATIEC_LIB"], "C")
        cfiles = [f for f in os.listdir(w) if f.endswith(".c") and f not in ("POUS.c", "driver.c")]
        r = subprocess.run(["gcc", "-w", "-O1", f"-I{inc}", "-o", "plc", "driver.c", *cfiles, "-lm"], cwd=w, capture_output=True, text=True)
        if r.returncode != 0:
            print(f"gcc: {r.stderr[:2000]}")
            return 2
        run = subprocess.run([os.path.join(w, "plc")], capture_output=True, text=True, check=True)
        their_rows = list(csv.DictReader(run.stdout.splitlines()))
    diffs = []
    for a, b in zip(their_rows, ours_rows):
        for k in outputs:
            x, y = a[k], b[k]
            # A TIME: the driver prints nanoseconds, fbd the IEC literal.
            if duration_ns(y) is not None:
                y = str(duration_ns(y))
            if x != y and not (x in ("0", "1") and y.lower() in ("false", "true") and (x == "1") == (y.lower() == "true")):
                # Integers exactly: as floats, 2^63 - 1 and 2^63 are one value.
                if re.fullmatch(r"-?\d+", x) and re.fullmatch(r"-?\d+", y):
                    diffs.append((a["scan"], k, x, y))
                    continue
                try:
                    fx, fy = float(x), float(y)
                    # A REAL is an f32: fbd writes its shortest form, C prints the double of it.
                    if k in reals:
                        fx, fy = (struct.unpack("f", struct.pack("f", v))[0] if v == v and abs(v) < 3.5e38 else v for v in (fx, fy))
                    # C prints a NaN `nan` or `-nan`, Rust `NaN`: a NaN both sides is the same value.
                    if fx == fy or (fx != fx and fy != fy):
                        continue
                except ValueError:
                    pass
                diffs.append((a["scan"], k, x, y))
    n = len(outputs) * min(len(their_rows), len(ours_rows))
    for d in diffs[: args.show]:
        print("scan %s %s: Beremiz+matiec %s, fbd %s" % d)
    print(f"{args.file}: {n} values over {min(len(their_rows), len(ours_rows))} scans, {len(diffs)} differences")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
