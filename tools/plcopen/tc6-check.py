#!/usr/bin/env python3
"""Reads PLCopen XML files as a strict TC6 v2.01 consumer does: the PyPI package `plcopen`
(xsdata bindings generated from the official schema), with every unknown element or attribute
an error. Prints each file's verdict; exits 1 if any file is refused.

    pip install plcopen==1.0.1
    tools/plcopen/tc6-check.py FILE.xml...
"""

import sys

from plcopen import Project
from xsdata.exceptions import ParserError
from xsdata.formats.dataclass.parsers import XmlParser
from xsdata.formats.dataclass.parsers.config import ParserConfig

parser = XmlParser(config=ParserConfig(fail_on_unknown_properties=True, fail_on_unknown_attributes=True, fail_on_converter_warnings=True))
bad = 0
for path in sys.argv[1:]:
    try:
        project = parser.parse(path, Project)
        pous = len(project.types.pous.pou) if project.types and project.types.pous else 0
        print(f"{path}: TC6 v2.01, {pous} POUs")
    except (ParserError, Warning, ValueError) as e:
        bad += 1
        print(f"{path}: refused by a strict TC6 reader: {e}")
sys.exit(1 if bad else 0)
