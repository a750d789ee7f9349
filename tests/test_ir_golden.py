"""Golden IR tests: every `tests/ir/<dir>/<case>.ir` file.

A case file is::

    // RUN: sccp,dce                 passes to run, in order (or O0..O3 for a level's
                                     pipeline, "parse" for none, "parse-error" to expect
                                     an IRParseError)
    // One line saying what the case shows.
    func @f(...) ... { ... }         input IR, as the printer writes it
    // CHECK: ...                    FileCheck lines over the printed output
    // ERROR: 5:12: unknown value    (parse-error cases) text the error message contains

Lines starting with ``//`` are blanked (not removed) before parsing, so the line numbers of
parse errors are the file's. Every function is run through the passes with the verifier
after each one, and both the input and the output must survive print -> parse -> print.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from filecheck import filecheck, parse_checks
from script.ir.parser import IRParseError, parse_module
from script.ir.passes import PASSES, run_pipeline
from script.ir.printer import format_module

IR_DIR = Path(__file__).parent / "ir"
CASES = sorted(IR_DIR.rglob("*.ir"))
_RUN = re.compile(r"^// RUN: *(?P<spec>.*)$")


def blank_comments(text: str) -> str:
    return "\n".join("" if line.lstrip().startswith("//") else line
                     for line in text.split("\n"))


def read_case(path: Path):
    lines = path.read_text().split("\n")
    m = _RUN.match(lines[0])
    assert m, f"{path}: first line must be '// RUN: passes'"
    assert len(lines) > 1 and lines[1].startswith("// ") and "CHECK" not in lines[1], (
        f"{path}: second line must be a one-line title comment")
    spec = [s.strip() for s in m.group("spec").split(",") if s.strip()]
    return spec, "\n".join(lines)


def run_spec(module, spec) -> None:
    for step in spec:
        for func in module.functions.values():
            if re.fullmatch(r"O[0-3]", step):
                run_pipeline(func, int(step[1]), verify=True)
            else:
                run_pipeline(func, passes=[step], verify=True)


def assert_round_trip(text: str) -> None:
    again = format_module(parse_module(text))
    assert again == text, f"print(parse(print(f))) differs:\n{text}\n---\n{again}"


@pytest.mark.parametrize("path", CASES, ids=[str(p.relative_to(IR_DIR)) for p in CASES])
def test_golden(path: Path):
    spec, text = read_case(path)
    source = blank_comments(text)
    if spec == ["parse-error"]:
        expected = [line.split("ERROR:", 1)[1].strip() for line in text.split("\n")
                    if line.startswith("// ERROR:")]
        assert expected, f"{path}: a parse-error case needs // ERROR: lines"
        with pytest.raises(IRParseError) as info:
            parse_module(source, filename=path.name)
        for e in expected:
            assert e in str(info.value), f"expected {e!r} in:\n{info.value}"
        return
    if spec == ["parse"]:
        spec = []
    for step in spec:
        assert step in PASSES or re.fullmatch(r"O[0-3]", step), f"{path}: unknown pass {step}"
    module = parse_module(source, filename=path.name)
    assert_round_trip(format_module(module))
    run_spec(module, spec)
    output = format_module(module)
    assert_round_trip(output)
    filecheck(output, parse_checks(text))


def test_every_pass_has_golden_cases():
    for name in PASSES:
        cases = list((IR_DIR / name).glob("*.ir"))
        assert len(cases) >= 4, f"tests/ir/{name}/ has {len(cases)} cases, want at least 4"
