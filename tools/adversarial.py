#!/usr/bin/env python3
"""Times `fbd check` on the adversarial inputs of the first robustness trial (issue "1 of 7"):
thousands of errors and loops, huge blocks and interfaces, long names, deep nesting, and the
synthetic 100k/1M-block programs, printing wall time and peak memory (`/usr/bin/time -v`).

    cargo build --release -p fbd-cli && python3 tools/adversarial.py [--big]

`--big` adds the 1,000,000-block program (about 10 s and 2 GB). Nothing here is a pass/fail
test: the tests assert the errors; this prints the figures quoted in the README.
"""
import json, os, re, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FBD = os.path.join(ROOT, "target", "release", "fbd")


def cases(big):
    yield "40k errors (unknown inputs)", {"fbd": 1, "blocks": [
        {"id": f"n{i}", "type": "NOT", "inputs": {"in": f"nosuch{i}"}} for i in range(40000)]}
    loops = []
    for i in range(40000):
        loops.append({"id": f"a{i}", "type": "NOT", "inputs": {"in": f"b{i}.out"}})
        loops.append({"id": f"b{i}", "type": "NOT", "inputs": {"in": f"a{i}.out"}})
    yield "40k separate loops", {"fbd": 1, "blocks": loops}
    yield "AND with 150k inputs", {"fbd": 1, "blocks": [
        {"id": "a", "type": "AND", "inputs": {f"in{k + 1}": True for k in range(150000)}}]}
    ins = [{"name": f"x{i}", "type": "BOOL"} for i in range(100000)]
    yield "100k program inputs, all read", {"fbd": 1, "inputs": ins, "blocks": [
        {"id": f"o{i}", "type": "OR", "inputs": {"in1": f"x{2 * i}", "in2": f"x{2 * i + 1}"}} for i in range(50000)]}
    yield "macro with 50k ports", {"fbd": 1, "macros": [{"name": "Big", "inputs": [
        {"name": f"p{i}", "type": "BOOL"} for i in range(50000)], "blocks": []}],
        "blocks": [{"id": "b", "type": "Big", "inputs": {f"p{i}": True for i in range(50000)}}]}
    long = "a" * 20000
    yield "did-you-mean over 20 kB names", {"fbd": 1, "macros": [{"name": long + str(i), "blocks": []} for i in range(20)],
                                            "blocks": [{"id": "b", "type": long + "x"}]}
    macros = [{"name": "M0", "inputs": [{"name": "x", "type": "BOOL"}], "outputs": [{"name": "y", "type": "BOOL", "from": "x"}], "blocks": []}]
    for k in range(1, 10000):
        macros.append({"name": f"M{k}", "inputs": [{"name": "x", "type": "BOOL"}], "outputs": [{"name": "y", "type": "BOOL", "from": "i.y"}],
                       "blocks": [{"id": "i", "type": f"M{k - 1}", "inputs": {"x": "x"}}]})
    yield "10,000 nested pass-through macros", {"fbd": 1, "inputs": [{"name": "a", "type": "BOOL"}], "macros": macros,
                                                 "blocks": [{"id": "top", "type": "M9999", "inputs": {"x": "a"}}]}
    long = lambda k: "x" * 1000 + str(k)
    inst = lambda n, ty: [{"id": long(j), "type": ty} for j in range(n)]
    yield "1.8 M blocks named by three 1,000-character ids", {"fbd": 1, "macros": [
        {"name": "M0", "blocks": [{"id": long(0), "type": "NOT", "inputs": {"in": True}}]},
        {"name": "M1", "blocks": inst(1000, "M0")},
        {"name": "M2", "blocks": inst(900, "M1")}], "blocks": [{"id": "top", "type": "M2"}]}
    # PLCopen XML, as CODESYS or Beremiz would hand it over, on one line: 40k unknown block types.
    xml_blocks = "".join(f'<block localId="{i + 1}" typeName="NO_SUCH_{i % 7}"><position x="0" y="{i}"/>'
                         '<inputVariables/><inOutVariables/><outputVariables/></block>' for i in range(40000))
    yield "PLCopen XML, 40k errors (unknown block types), one line", ("xml", (
        '<?xml version="1.0" encoding="utf-8"?><project xmlns="http://www.plcopen.org/xml/tc6_0201">'
        '<fileHeader companyName="x" productName="x" productVersion="1" creationDateTime="1970-01-01T00:00:00"/>'
        '<contentHeader name="big"><coordinateInfo><fbd><scaling x="1" y="1"/></fbd><ld><scaling x="1" y="1"/></ld>'
        '<sfc><scaling x="1" y="1"/></sfc></coordinateInfo></contentHeader><types><dataTypes/><pous>'
        f'<pou name="main" pouType="program"><interface/><body><FBD>{xml_blocks}</FBD></body></pou></pous></types>'
        '</project>'))
    # One element with 200,000 attributes, and one with 100,000 namespace declarations (the XML
    # reader compares each with the others: refused at the element, in one pass).
    head = '<?xml version="1.0"?><project xmlns="http://www.plcopen.org/xml/tc6_0201">'
    yield "PLCopen XML, 200k attributes on one element", ("xml", head + "<types" + "".join(
        f' a{i}="x"' for i in range(200000)) + "/></project>")
    yield "PLCopen XML, 100k xmlns declarations", ("xml", head + "<types" + "".join(
        f' xmlns:n{i}="urn:x{i}"' for i in range(100000)) + "/></project>")
    sizes = [100000, 1000000] if big else [100000]
    for n in sizes:
        text = subprocess.run(["cargo", "run", "-q", "--release", "-p", "fbd-engine", "--example", "synth", str(n)],
                              cwd=ROOT, capture_output=True, text=True, check=True).stdout
        yield f"synthetic {n:,} blocks (valid)", text


def main():
    big = "--big" in sys.argv
    print("| input | file | result | wall | peak RSS |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as d:
        for name, doc in cases(big):
            ext, doc = doc if isinstance(doc, tuple) else ("json", doc)
            p = os.path.join(d, "case." + ext)
            with open(p, "w") as f:
                f.write(doc if isinstance(doc, str) else json.dumps(doc))
            size = os.path.getsize(p)
            r = subprocess.run(["/usr/bin/time", "-v", FBD, "check", p], capture_output=True, text=True)
            wall = re.search(r"Elapsed \(wall clock\) time.*: (\S+)", r.stderr).group(1)
            rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", r.stderr).group(1))
            found = re.search(r"(\d+) errors? found", r.stderr)
            result = "ok" if r.returncode == 0 else f"{found.group(1) if found else '?'} error(s)"
            print(f"| {name} | {size / 1e6:.1f} MB | {result} | {wall} | {rss / 1024:.0f} MB |")


if __name__ == "__main__":
    main()
