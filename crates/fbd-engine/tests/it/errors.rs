//! The error catalogue: malformed diagrams, each rejected with a message that names the place
//! (file, line, column; block and pin where they apply). None may panic.

use fbd_engine::{CompileOptions, Diagnostic, MemProvider, compile_str};

struct Case {
    name: &'static str,
    /// Files: the first is the program.
    files: &'static [(&'static str, &'static str)],
    /// The diagnostic must contain each of these.
    says: &'static [&'static str],
    /// File and a text whose line the diagnostic must point at.
    at: (&'static str, &'static str),
    block: Option<&'static str>,
    pin: Option<&'static str>,
}

const CASES: &[Case] = &[
    Case {
        name: "bad JSON: missing comma",
        files: &[("main.json", "{\"fbd\": 1,\n \"blocks\": [\n  {\"id\": \"a\" \"type\": \"NOT\"}\n ]}")],
        says: &["expected"],
        at: ("main.json", "\"type\": \"NOT\""),
        block: None,
        pin: None,
    },
    Case {
        name: "bad JSON: truncated",
        files: &[("main.json", "{\"fbd\": 1,\n \"blocks\": [\n  {\"id\": \"a\",")],
        says: &["EOF"],
        at: ("main.json", "{\"id\": \"a\","),
        block: None,
        pin: None,
    },
    Case {
        name: "unsupported version",
        files: &[("main.json", "{\n \"fbd\": 8\n}")],
        says: &["unsupported format version 8"],
        at: ("main.json", "\"fbd\": 8"),
        block: None,
        pin: None,
    },
    Case {
        name: "unknown top-level field",
        files: &[("main.json", "{\"fbd\": 1,\n \"blokcs\": []\n}")],
        says: &["unknown field `blokcs`", "expected one of"],
        at: ("main.json", "\"blokcs\""),
        block: None,
        pin: None,
    },
    Case {
        name: "unknown type name",
        files: &[("main.json", "{\"fbd\": 1,\n \"inputs\": [\n  {\"name\": \"a\", \"type\": \"INTEGER\"}\n ]}")],
        says: &["unknown type `INTEGER`"],
        at: ("main.json", "\"INTEGER\""),
        block: None,
        pin: None,
    },
    Case {
        name: "unknown block type, with a suggestion",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"blocks\": [\n  {\"id\": \"t\", \"type\": \"TOON\", \"inputs\": {\"in\": true, \"pt\": 5}}\n]}",
        )],
        says: &["unknown block type `TOON`", "did you mean `TON`"],
        at: ("main.json", "\"TOON\""),
        block: Some("t"),
        pin: None,
    },
    Case {
        name: "unknown input pin",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"blocks\": [\n  {\"id\": \"t\", \"type\": \"TON\", \"inputs\": {\"in\": true, \"pt\": 5, \"preset\": 3}}\n]}",
        )],
        says: &["TON has no input `preset`", "its inputs are: in, pt"],
        at: ("main.json", "\"preset\""),
        block: Some("t"),
        pin: Some("preset"),
    },
    Case {
        name: "unknown output pin in a reference",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"blocks\": [\n  {\"id\": \"t\", \"type\": \"TON\", \"inputs\": {\"in\": true, \"pt\": 5}},\n  {\"id\": \"n\", \"type\": \"NOT\", \"inputs\": {\"in\": \"t.done\"}}\n]}",
        )],
        says: &["block `t` (TON) has no output `done`", "its outputs are: q, et"],
        at: ("main.json", "\"t.done\""),
        block: Some("n"),
        pin: Some("in"),
    },
    Case {
        name: "unknown block in a reference, with a suggestion",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"blocks\": [\n  {\"id\": \"timer\", \"type\": \"TON\", \"inputs\": {\"in\": true, \"pt\": 5}},\n  {\"id\": \"n\", \"type\": \"NOT\", \"inputs\": {\"in\": \"timr.q\"}}\n]}",
        )],
        says: &["unknown block `timr`", "did you mean `timer.q`"],
        at: ("main.json", "\"timr.q\""),
        block: Some("n"),
        pin: Some("in"),
    },
    Case {
        name: "unknown program input",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"inputs\": [{\"name\": \"start\", \"type\": \"BOOL\"}], \"blocks\": [\n  {\"id\": \"n\", \"type\": \"NOT\", \"inputs\": {\"in\": \"strat\"}}\n]}",
        )],
        says: &["unknown program input `strat`", "did you mean `start`"],
        at: ("main.json", "\"strat\""),
        block: Some("n"),
        pin: Some("in"),
    },
    Case {
        name: "type mismatch: INT into a BOOL pin",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"inputs\": [{\"name\": \"k\", \"type\": \"INT\"}], \"blocks\": [\n  {\"id\": \"n\", \"type\": \"NOT\", \"inputs\": {\"in\": \"k\"}}\n]}",
        )],
        says: &["type mismatch", "expects BOOL", "input `k` is LINT"],
        at: ("main.json", "\"in\": \"k\""),
        block: Some("n"),
        pin: Some("in"),
    },
    Case {
        name: "type mismatch: REAL constant into an INT pin",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"blocks\": [\n  {\"id\": \"t\", \"type\": \"SHL\", \"inputs\": {\"in\": 2, \"n\": 2.5}, \"data_type\": \"WORD\"}\n]}",
        )],
        says: &["type mismatch", "expects LINT", "constant 2.5 is LREAL", "LREAL_TO_LINT"],
        at: ("main.json", "\"n\": 2.5"),
        block: Some("t"),
        pin: Some("n"),
    },
    Case {
        name: "type mismatch between generic inputs",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"inputs\": [{\"name\": \"k\", \"type\": \"INT\"}, {\"name\": \"x\", \"type\": \"REAL\"}], \"blocks\": [\n  {\"id\": \"s\", \"type\": \"ADD\", \"inputs\": {\"in1\": \"k\", \"in2\": \"x\"}}\n]}",
        )],
        says: &["type mismatch", "expects LINT", "input `x` is LREAL", "LREAL_TO_LINT"],
        at: ("main.json", "\"ADD\""),
        block: Some("s"),
        pin: Some("in2"),
    },
    Case {
        name: "duplicate block id",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"blocks\": [\n  {\"id\": \"a\", \"type\": \"NOW\"},\n  {\"id\": \"a\", \"type\": \"NOW\", \"comment\": \"second\"}\n]}",
        )],
        says: &["duplicate block id `a`"],
        at: ("main.json", "\"second\""),
        block: Some("a"),
        pin: None,
    },
    Case {
        name: "two drivers for one input",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"blocks\": [\n  {\"id\": \"n\", \"type\": \"NOT\", \"inputs\": {\"in\": true,\n   \"in\": false}}\n]}",
        )],
        says: &["pin `in` is driven twice"],
        at: ("main.json", "\"in\": false"),
        block: None,
        pin: None,
    },
    Case {
        name: "unconnected required input",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"blocks\": [\n  {\"id\": \"t\", \"type\": \"TON\", \"inputs\": {\"in\": true}}\n]}",
        )],
        says: &["required input `pt` of TON is not connected"],
        at: ("main.json", "\"TON\""),
        block: Some("t"),
        pin: Some("pt"),
    },
    Case {
        name: "missing include",
        files: &[("dir/main.json", "{\"fbd\": 1,\n \"include\": [\"lib/missing.json\"]}")],
        says: &["cannot read included file `dir/lib/missing.json`", "relative to the including file"],
        at: ("dir/main.json", "\"lib/missing.json\""),
        block: None,
        pin: None,
    },
    Case {
        name: "include cycle",
        files: &[
            ("main.json", "{\"fbd\": 1, \"include\": [\"a.json\"]}"),
            ("a.json", "{\"fbd\": 1,\n \"include\": [\"b.json\"]}"),
            ("b.json", "{\"fbd\": 1,\n \"include\": [\"a.json\"]}"),
        ],
        says: &["include cycle: a.json -> b.json -> a.json"],
        at: ("b.json", "\"a.json\""),
        block: None,
        pin: None,
    },
    Case {
        name: "syntax error inside an included file",
        files: &[
            ("main.json", "{\"fbd\": 1, \"include\": [\"lib.json\"]}"),
            ("lib.json", "{\"fbd\": 1,\n \"macros\": [\n  {\"name\": \"M\", \"blocks\": [}\n ]}"),
        ],
        says: &["lib.json"],
        at: ("lib.json", "[}"),
        block: None,
        pin: None,
    },
    Case {
        name: "recursive macro",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"macros\": [\n  {\"name\": \"Loop\", \"blocks\": [\n    {\"id\": \"inner\", \"type\": \"Loop\"}]}\n ],\n \"blocks\": [{\"id\": \"l\", \"type\": \"Loop\"}]}",
        )],
        says: &["recursive macro: Loop -> Loop"],
        at: ("main.json", "\"type\": \"Loop\"}]}"),
        block: Some("Loop/inner"),
        pin: None,
    },
    Case {
        name: "mutually recursive macros across files",
        files: &[
            ("main.json", "{\"fbd\": 1, \"include\": [\"lib.json\"], \"blocks\": [{\"id\": \"x\", \"type\": \"A\"}]}"),
            (
                "lib.json",
                "{\"fbd\": 1, \"macros\": [\n  {\"name\": \"A\", \"blocks\": [{\"id\": \"b\", \"type\": \"B\"}]},\n  {\"name\": \"B\", \"blocks\": [{\"id\": \"a\", \"type\": \"A\"}]}\n]}",
            ),
        ],
        says: &["recursive macro: A -> B -> A"],
        at: ("lib.json", "{\"id\": \"a\", \"type\": \"A\"}"),
        block: Some("B/a"),
        pin: None,
    },
    Case {
        name: "expansion bomb",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"macros\": [\n  {\"name\": \"L0\", \"blocks\": [{\"id\": \"n\", \"type\": \"NOW\"}]},\n  {\"name\": \"L1\", \"blocks\": [{\"id\": \"a\", \"type\": \"L0\"}, {\"id\": \"b\", \"type\": \"L0\"}, {\"id\": \"c\", \"type\": \"L0\"}, {\"id\": \"d\", \"type\": \"L0\"}, {\"id\": \"e\", \"type\": \"L0\"}, {\"id\": \"f\", \"type\": \"L0\"}, {\"id\": \"g\", \"type\": \"L0\"}, {\"id\": \"h\", \"type\": \"L0\"}, {\"id\": \"i\", \"type\": \"L0\"}, {\"id\": \"j\", \"type\": \"L0\"}]},\n  {\"name\": \"L2\", \"blocks\": [{\"id\": \"a\", \"type\": \"L1\"}, {\"id\": \"b\", \"type\": \"L1\"}, {\"id\": \"c\", \"type\": \"L1\"}, {\"id\": \"d\", \"type\": \"L1\"}, {\"id\": \"e\", \"type\": \"L1\"}, {\"id\": \"f\", \"type\": \"L1\"}, {\"id\": \"g\", \"type\": \"L1\"}, {\"id\": \"h\", \"type\": \"L1\"}, {\"id\": \"i\", \"type\": \"L1\"}, {\"id\": \"j\", \"type\": \"L1\"}]},\n  {\"name\": \"L3\", \"blocks\": [{\"id\": \"a\", \"type\": \"L2\"}, {\"id\": \"b\", \"type\": \"L2\"}, {\"id\": \"c\", \"type\": \"L2\"}, {\"id\": \"d\", \"type\": \"L2\"}, {\"id\": \"e\", \"type\": \"L2\"}, {\"id\": \"f\", \"type\": \"L2\"}, {\"id\": \"g\", \"type\": \"L2\"}, {\"id\": \"h\", \"type\": \"L2\"}, {\"id\": \"i\", \"type\": \"L2\"}, {\"id\": \"j\", \"type\": \"L2\"}]},\n  {\"name\": \"L4\", \"blocks\": [{\"id\": \"a\", \"type\": \"L3\"}, {\"id\": \"b\", \"type\": \"L3\"}, {\"id\": \"c\", \"type\": \"L3\"}, {\"id\": \"d\", \"type\": \"L3\"}, {\"id\": \"e\", \"type\": \"L3\"}, {\"id\": \"f\", \"type\": \"L3\"}, {\"id\": \"g\", \"type\": \"L3\"}, {\"id\": \"h\", \"type\": \"L3\"}, {\"id\": \"i\", \"type\": \"L3\"}, {\"id\": \"j\", \"type\": \"L3\"}]},\n  {\"name\": \"L5\", \"blocks\": [{\"id\": \"a\", \"type\": \"L4\"}, {\"id\": \"b\", \"type\": \"L4\"}, {\"id\": \"c\", \"type\": \"L4\"}, {\"id\": \"d\", \"type\": \"L4\"}, {\"id\": \"e\", \"type\": \"L4\"}, {\"id\": \"f\", \"type\": \"L4\"}, {\"id\": \"g\", \"type\": \"L4\"}, {\"id\": \"h\", \"type\": \"L4\"}, {\"id\": \"i\", \"type\": \"L4\"}, {\"id\": \"j\", \"type\": \"L4\"}]},\n  {\"name\": \"L6\", \"blocks\": [{\"id\": \"a\", \"type\": \"L5\"}, {\"id\": \"b\", \"type\": \"L5\"}, {\"id\": \"c\", \"type\": \"L5\"}, {\"id\": \"d\", \"type\": \"L5\"}, {\"id\": \"e\", \"type\": \"L5\"}, {\"id\": \"f\", \"type\": \"L5\"}, {\"id\": \"g\", \"type\": \"L5\"}, {\"id\": \"h\", \"type\": \"L5\"}, {\"id\": \"i\", \"type\": \"L5\"}, {\"id\": \"j\", \"type\": \"L5\"}]},\n  {\"name\": \"L7\", \"blocks\": [{\"id\": \"a\", \"type\": \"L6\"}, {\"id\": \"b\", \"type\": \"L6\"}, {\"id\": \"c\", \"type\": \"L6\"}, {\"id\": \"d\", \"type\": \"L6\"}, {\"id\": \"e\", \"type\": \"L6\"}, {\"id\": \"f\", \"type\": \"L6\"}, {\"id\": \"g\", \"type\": \"L6\"}, {\"id\": \"h\", \"type\": \"L6\"}, {\"id\": \"i\", \"type\": \"L6\"}, {\"id\": \"j\", \"type\": \"L6\"}]}\n ],\n \"blocks\": [\n  {\"id\": \"boom\", \"type\": \"L7\"}\n ]}",
        )],
        says: &["would expand to 21111111 blocks and macro instances", "instance `boom` of `L7`", "expansion bomb"],
        at: ("main.json", "{\"id\": \"boom\""),
        block: Some("boom"),
        pin: None,
    },
    Case {
        name: "loop without a feedback point names every block",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"blocks\": [\n  {\"id\": \"a\", \"type\": \"NOT\", \"inputs\": {\"in\": \"c.out\"}},\n  {\"id\": \"b\", \"type\": \"NOT\", \"inputs\": {\"in\": \"a.out\"}},\n  {\"id\": \"c\", \"type\": \"AND\", \"inputs\": {\"in1\": \"b.out\", \"in2\": true}},\n  {\"id\": \"ok\", \"type\": \"NOT\", \"inputs\": {\"in\": \"c.out\"}}\n]}",
        )],
        says: &["loop without a feedback point: a -> b -> c -> a", "feedback"],
        at: ("main.json", "{\"id\": \"a\""),
        block: Some("a"),
        pin: None,
    },
    Case {
        name: "self loop",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"blocks\": [\n  {\"id\": \"s\", \"type\": \"OR\", \"inputs\": {\"in1\": \"s.out\", \"in2\": true}}\n]}",
        )],
        says: &["loop without a feedback point: s -> s"],
        at: ("main.json", "{\"id\": \"s\""),
        block: Some("s"),
        pin: None,
    },
    Case {
        name: "loop through a macro instance",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"macros\": [{\"name\": \"Inv\", \"inputs\": [{\"name\": \"x\", \"type\": \"BOOL\"}], \"outputs\": [{\"name\": \"y\", \"type\": \"BOOL\", \"from\": \"n.out\"}],\n  \"blocks\": [{\"id\": \"n\", \"type\": \"NOT\", \"inputs\": {\"in\": \"x\"}}]}],\n \"blocks\": [\n  {\"id\": \"m\", \"type\": \"Inv\", \"inputs\": {\"x\": \"m.y\"}}\n]}",
        )],
        says: &["loop without a feedback point: m/n -> m/n"],
        at: ("main.json", "\"blocks\": [{\"id\": \"n\""),
        block: Some("m/n"),
        pin: None,
    },
    Case {
        name: "macro name clashes with a library block",
        files: &[("main.json", "{\"fbd\": 1, \"macros\": [\n  {\"name\": \"TON\", \"blocks\": []}\n]}")],
        says: &["macro `TON` has the name of a library block"],
        at: ("main.json", "\"TON\""),
        block: None,
        pin: None,
    },
    Case {
        name: "macro defined in two files",
        files: &[
            (
                "main.json",
                "{\"fbd\": 1, \"include\": [\"lib.json\"], \"macros\": [\n  {\"name\": \"Cell\", \"blocks\": []}\n]}",
            ),
            ("lib.json", "{\"fbd\": 1, \"macros\": [\n  {\"name\": \"Cell\", \"blocks\": []}\n]}"),
        ],
        says: &["macro `Cell` is defined twice"],
        at: ("lib.json", "\"Cell\""),
        block: None,
        pin: None,
    },
    Case {
        name: "gap in variadic inputs",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"blocks\": [\n  {\"id\": \"g\", \"type\": \"AND\", \"inputs\": {\"in1\": true, \"in3\": true}}\n]}",
        )],
        says: &["input `in2` is missing before `in3`"],
        at: ("main.json", "\"inputs\""),
        block: Some("g"),
        pin: Some("in2"),
    },
    Case {
        name: "too few variadic inputs",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"blocks\": [\n  {\"id\": \"g\", \"type\": \"OR\", \"inputs\": {\"in1\": true}}\n]}",
        )],
        says: &["OR needs at least 2 `in` inputs, 1 connected"],
        at: ("main.json", "\"inputs\""),
        block: Some("g"),
        pin: Some("in2"),
    },
    Case {
        name: "SELECTOR without n",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"blocks\": [\n  {\"id\": \"s\", \"type\": \"SELECTOR\", \"inputs\": {\"sel\": 1}}\n]}",
        )],
        says: &["SELECTOR needs params.n"],
        at: ("main.json", "\"SELECTOR\""),
        block: Some("s"),
        pin: None,
    },
    Case {
        name: "parameter a block does not take",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"blocks\": [\n  {\"id\": \"g\", \"type\": \"NOT\", \"inputs\": {\"in\": true}, \"params\": {\"init\": true}}\n]}",
        )],
        says: &["NOT takes no parameter `init`"],
        at: ("main.json", "\"init\": true"),
        block: Some("g"),
        pin: None,
    },
    Case {
        name: "unknown parameter",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"blocks\": [\n  {\"id\": \"m\", \"type\": \"MEMORY\", \"inputs\": {\"in\": 1, \"en\": true}, \"params\": {\"initial\": 3}}\n]}",
        )],
        says: &["unknown field `initial`"],
        at: ("main.json", "\"initial\""),
        block: None,
        pin: None,
    },
    Case {
        name: "data_type on a non-generic block",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"blocks\": [\n  {\"id\": \"g\", \"type\": \"R_TRIG\", \"inputs\": {\"clk\": true}, \"data_type\": \"INT\"}\n]}",
        )],
        says: &["R_TRIG is not generic"],
        at: ("main.json", "\"data_type\": \"INT\""),
        block: Some("g"),
        pin: None,
    },
    Case {
        name: "arithmetic on BOOL",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"blocks\": [\n  {\"id\": \"s\", \"type\": \"ADD\", \"inputs\": {\"in1\": true, \"in2\": false}}\n]}",
        )],
        says: &["ADD works on numbers and durations, but `s` is BOOL"],
        at: ("main.json", "{\"id\": \"s\""),
        block: Some("s"),
        pin: None,
    },
    Case {
        name: "type that cannot be inferred",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"blocks\": [\n  {\"id\": \"a\", \"type\": \"MOVE\", \"inputs\": {\"in\": {\"from\": \"b.out\", \"feedback\": true}}},\n  {\"id\": \"b\", \"type\": \"MOVE\", \"inputs\": {\"in\": \"a.out\"}}\n]}",
        )],
        says: &["cannot infer the data type", "data_type"],
        at: ("main.json", "{\"id\": \"a\""),
        block: Some("a"),
        pin: None,
    },
    Case {
        name: "macro instance with an unknown pin",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"macros\": [{\"name\": \"M\", \"inputs\": [{\"name\": \"x\", \"type\": \"BOOL\", \"default\": false}], \"blocks\": []}],\n \"blocks\": [\n  {\"id\": \"m\", \"type\": \"M\", \"inputs\": {\"y\": true}}\n]}",
        )],
        says: &["macro `M` has no input `y`", "its inputs are: x"],
        at: ("main.json", "\"y\": true"),
        block: Some("m"),
        pin: Some("y"),
    },
    Case {
        name: "macro input not connected",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"macros\": [{\"name\": \"M\", \"inputs\": [{\"name\": \"x\", \"type\": \"BOOL\"}], \"blocks\": []}],\n \"blocks\": [\n  {\"id\": \"m\", \"type\": \"M\"}\n]}",
        )],
        says: &["required input `x` of macro `M` is not connected"],
        at: ("main.json", "{\"id\": \"m\""),
        block: Some("m"),
        pin: Some("x"),
    },
    Case {
        name: "macro output of the wrong type",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"macros\": [{\"name\": \"M\", \"outputs\": [\n  {\"name\": \"y\", \"type\": \"INT\", \"from\": \"n.out\"}],\n  \"blocks\": [{\"id\": \"n\", \"type\": \"NOT\", \"inputs\": {\"in\": true}}]}],\n \"blocks\": [{\"id\": \"m\", \"type\": \"M\"}]}",
        )],
        says: &["output `y` of macro `M` expects LINT", "`m/n.out` is BOOL"],
        at: ("main.json", "\"from\": \"n.out\""),
        block: None,
        pin: None,
    },
    Case {
        name: "macro input bound to the wrong type",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"inputs\": [{\"name\": \"k\", \"type\": \"INT\"}], \"macros\": [{\"name\": \"M\", \"inputs\": [{\"name\": \"x\", \"type\": \"BOOL\"}],\n  \"blocks\": [{\"id\": \"n\", \"type\": \"NOT\", \"inputs\": {\"in\": \"x\"}}]}],\n \"blocks\": [\n  {\"id\": \"m\", \"type\": \"M\", \"inputs\": {\"x\": \"k\"}}\n]}",
        )],
        says: &["type mismatch", "expects BOOL", "input `k` is LINT"],
        at: ("main.json", "\"x\": \"k\""),
        block: None,
        pin: None,
    },
    Case {
        name: "feedback of a constant",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"blocks\": [\n  {\"id\": \"n\", \"type\": \"NOT\", \"inputs\": {\"in\": {\"from\": \"true\", \"feedback\": true}}}\n]}",
        )],
        says: &["unknown program input `true`"],
        at: ("main.json", "{\"from\""),
        block: Some("n"),
        pin: Some("in"),
    },
    Case {
        name: "init on a plain wire",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"blocks\": [\n  {\"id\": \"n\", \"type\": \"NOT\", \"inputs\": {\"in\": {\"from\": \"x.q\", \"init\": true}}}\n]}",
        )],
        says: &["`init` is only meaningful on a feedback wire"],
        at: ("main.json", "\"init\": true"),
        block: None,
        pin: None,
    },
    Case {
        name: "block id with a path separator",
        files: &[("main.json", "{\"fbd\": 1, \"blocks\": [\n  {\"id\": \"a/b\", \"type\": \"NOW\"}\n]}")],
        says: &["invalid block id `a/b`"],
        at: ("main.json", "\"a/b\""),
        block: None,
        pin: None,
    },
    Case {
        name: "blocks in an included library",
        files: &[
            ("main.json", "{\"fbd\": 1, \"include\": [\"lib.json\"]}"),
            ("lib.json", "{\"fbd\": 1,\n \"blocks\": [{\"id\": \"n\", \"type\": \"NOW\"}]}"),
        ],
        says: &["an included file may only define macros"],
        at: ("lib.json", "\"blocks\""),
        block: None,
        pin: None,
    },
    Case {
        name: "program port declared twice",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"inputs\": [{\"name\": \"a\", \"type\": \"BOOL\"}],\n \"outputs\": [{\"name\": \"a\", \"type\": \"BOOL\", \"from\": \"a\"}]}",
        )],
        says: &["program port `a` is declared twice"],
        at: ("main.json", "\"outputs\""),
        block: None,
        pin: None,
    },
    Case {
        name: "integer constant out of range",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"blocks\": [\n  {\"id\": \"t\", \"type\": \"MOD\", \"inputs\": {\"in1\": 18446744073709551615, \"in2\": 3}}\n]}",
        )],
        says: &["18446744073709551615 is out of the LINT range"],
        at: ("main.json", "18446744073709551615"),
        block: Some("t"),
        pin: Some("in1"),
    },
    Case {
        name: "an integer too big for INT is an error, not a REAL",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"blocks\": [\n  {\"id\": \"t\", \"type\": \"TON\", \"inputs\": {\"in\": true,\n   \"pt\": 99999999999999999999}}\n]}",
        )],
        says: &["integer 99999999999999999999 is out of the LINT and ULINT ranges", "1e20"],
        at: ("main.json", "\"pt\": 9999"),
        block: None,
        pin: None,
    },
    Case {
        name: "a REAL literal out of range",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"blocks\": [\n  {\"id\": \"m\", \"type\": \"MOVE\",\n   \"inputs\": {\"in\": 1e999}}\n]}",
        )],
        says: &["out of the REAL range"],
        at: ("main.json", "1e999"),
        block: None,
        pin: None,
    },
    Case {
        name: "a document that is an array",
        files: &[("main.json", "\n  [1]")],
        says: &["a diagram is a JSON object", "starts with `[`"],
        at: ("main.json", "[1]"),
        block: None,
        pin: None,
    },
    Case {
        name: "cycle_ms of zero",
        files: &[("main.json", "{\"fbd\": 1,\n \"cycle_ms\": 0}")],
        says: &["cycle_ms 0 is outside 0.05..=60000 ms"],
        at: ("main.json", "\"cycle_ms\": 0"),
        block: None,
        pin: None,
    },
    Case {
        name: "cycle_ms so long the clock would wrap",
        files: &[("main.json", "{\"fbd\": 1,\n \"cycle_ms\": 1e14}")],
        says: &["cycle_ms 100000000000000 is outside"],
        at: ("main.json", "\"cycle_ms\": 1e14"),
        block: None,
        pin: None,
    },
    Case {
        name: "negative cycle_ms",
        files: &[("main.json", "{\"fbd\": 1,\n \"cycle_ms\": -5}")],
        says: &["cycle_ms -5 is outside"],
        at: ("main.json", "\"cycle_ms\": -5"),
        block: None,
        pin: None,
    },
    Case {
        name: "pos with three numbers",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"blocks\": [\n  {\"id\": \"n\", \"type\": \"NOW\", \"pos\": [1, 2, 3]}\n]}",
        )],
        says: &["pos is [x, y], two numbers; this one has 3"],
        at: ("main.json", "\"pos\""),
        block: None,
        pin: None,
    },
    Case {
        name: "a push button on an INT input",
        files: &[(
            "main.json",
            "{\"fbd\": 1,\n \"inputs\": [{\"name\": \"go\", \"type\": \"INT\", \"kind\": \"button\"}]}",
        )],
        says: &["input `go` is LINT, but a button input is BOOL"],
        at: ("main.json", "\"button\""),
        block: None,
        pin: None,
    },
    Case {
        name: "options on an input that is no selector",
        files: &[(
            "main.json",
            "{\"fbd\": 1,\n \"inputs\": [{\"name\": \"m\", \"type\": \"INT\", \"options\": [\"a\", \"b\"]}]}",
        )],
        says: &["input `m` has options, which label a selector's positions, but its kind is number"],
        at: ("main.json", "[\"a\""),
        block: None,
        pin: None,
    },
    Case {
        name: "pos outside the drawing",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"blocks\": [\n  {\"id\": \"n\", \"type\": \"NOW\", \"pos\": [1e300, 20]}\n]}",
        )],
        says: &["block `n`: pos [1e300, 20.0] is outside the drawing (each coordinate within -1000000..=1000000)"],
        at: ("main.json", "[1e300"),
        block: Some("n"),
        pin: None,
    },
    Case {
        name: "MEMORY init of the wrong type points at params.init",
        files: &[(
            "main.json",
            "{\"fbd\": 1, \"inputs\": [{\"name\": \"k\", \"type\": \"INT\"}], \"blocks\": [\n  {\"id\": \"m\", \"type\": \"MEMORY\", \"inputs\": {\"in\": \"k\", \"en\": true},\n   \"params\": {\"init\": true}}\n]}",
        )],
        says: &["params.init does not fit MEMORY block `m` of type LINT: TRUE is not a LINT"],
        at: ("main.json", "\"init\": true"),
        block: Some("m"),
        pin: None,
    },
];

fn compile_case(c: &Case) -> Result<fbd_engine::ScanPlan, fbd_engine::Diagnostics> {
    let mut p = MemProvider::new();
    for (path, text) in c.files {
        p = p.with(path, *text);
    }
    let (root, text) = c.files[0];
    compile_str(&p, root, text, &CompileOptions { max_blocks: 1_000_000, ..CompileOptions::default() })
}

fn line_of(text: &str, needle: &str) -> usize {
    let at = text.find(needle).unwrap_or_else(|| panic!("anchor `{needle}` not in the case text"));
    text[..at].matches('\n').count() + 1
}

fn check(c: &Case, d: &Diagnostic) -> Result<(), String> {
    let shown = d.to_string();
    for s in c.says {
        if !shown.contains(s) {
            return Err(format!("message lacks `{s}`"));
        }
    }
    let (file, anchor) = c.at;
    if d.file != std::path::Path::new(file) {
        return Err(format!("file is {}, expected {file}", d.file.display()));
    }
    let text = c.files.iter().find(|f| f.0 == file).map(|f| f.1).unwrap_or_default();
    let want = line_of(text, anchor);
    if d.line != Some(want) || d.col.is_none() {
        return Err(format!("place is {:?}:{:?}, expected line {want}", d.line, d.col));
    }
    if let Some(b) = c.block
        && d.block.as_deref() != Some(b)
    {
        return Err(format!("block is {:?}, expected {b}", d.block));
    }
    if let Some(p) = c.pin
        && d.pin.as_deref() != Some(p)
    {
        return Err(format!("pin is {:?}, expected {p}", d.pin));
    }
    Ok(())
}

#[test]
fn every_catalogue_case_is_rejected_with_its_place() {
    assert!(CASES.len() >= 25, "the catalogue has {} cases", CASES.len());
    let mut failures = Vec::new();
    for c in CASES {
        match compile_case(c) {
            Ok(_) => failures.push(format!("{}: accepted", c.name)),
            Err(e) => {
                if let Err(why) = check(c, e.first()) {
                    failures.push(format!("{}: {why}\n    got: {}", c.name, e.first()));
                }
                // Every diagnostic renders as file:line:col.
                for d in &e.0 {
                    if d.line.is_none() {
                        failures.push(format!("{}: a diagnostic without a place: {d}", c.name));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), CASES.len(), failures.join("\n"));
}

#[test]
fn all_errors_of_a_file_are_reported_not_just_the_first() {
    let text = "{\"fbd\": 1, \"blocks\": [\n  {\"id\": \"a\", \"type\": \"NOT\", \"inputs\": {\"in\": \"x.q\"}},\n  {\"id\": \"b\", \"type\": \"NOT\", \"inputs\": {\"in\": \"y.q\"}}\n]}";
    let e = fbd_engine::compile(text).expect_err("two unknown blocks");
    assert_eq!(e.0.len(), 2, "{e}");
    assert_eq!(e.0[0].line, Some(2));
    assert_eq!(e.0[1].line, Some(3));
}

#[test]
fn the_rendered_form_is_file_line_col_message() {
    let e = fbd_engine::compile(
        "{\"fbd\": 1, \"blocks\": [\n  {\"id\": \"t\", \"type\": \"TON\", \"inputs\": {\"in\": true}}\n]}",
    )
    .expect_err("missing pt");
    let s = e.to_string();
    assert!(
        s.starts_with("error: <memory>:2:40: required input `pt` of TON is not connected (block `t`, pin `pt`)"),
        "{s}"
    );
}

#[test]
fn located_addresses_are_checked_where_they_are_written() {
    let e = fbd_engine::compile(
        r#"{"fbd": 3,
  "inputs": [{"name": "a", "type": "BOOL", "address": "%QX0.0"}, {"name": "b", "type": "INT", "address": "%MW1"},
             {"name": "c", "type": "DINT", "address": "%MD0"}, {"name": "d", "type": "BOOL", "address": "%IX100.0"},
             {"name": "e", "type": "BOOL", "address": "%%"}, {"name": "f", "type": "INT", "address": "%IW0.0.2.8192.0"},
             {"name": "g", "type": "BOOL", "address": "%I*"}, {"name": "h", "type": "INT", "address": "%IW0.0.2.8192.0"}],
  "outputs": [{"name": "q", "type": "BOOL", "from": "a", "address": "%IX0.0"}, {"name": "r", "type": "INT", "from": "b", "address": "%MW0"}]}"#,
    )
    .expect_err("refused")
    .to_string();
    // An input at %Q is memory the program reads and something outside sets; %IX100.0 is a
    // slave device's input in OpenPLC; a hierarchical address is Beremiz's (CANopen).
    assert!(!e.contains("input `a`") && !e.contains("input `d`") && !e.contains("input `f`"), "{e}");
    assert!(e.contains("`e`: `%%` is no located address"), "{e}");
    assert!(e.contains("`g` at %I*: a program's port needs a full address"), "{e}");
    assert!(e.contains("`h` at %IW0.0.2.8192.0 overlaps `f`"), "{e}");
    assert!(e.contains("output `q` at %IX0.0: a program output is located at %Q or %M"), "{e}");
    assert!(!e.contains("`c`"), "%MD0 is holding registers 2048-2049, no overlap with %MW1 (1025): {e}");
    assert!(e.contains("<memory>:4:"), "{e}");
}
