"""Runs last (file name): the functions the test suite compiled so far in this process print,
parse back and print identically, before and after optimization.

The suite compiles megabytes of IR (NumPy library callees are large), and lark parses it at
a few microseconds a character; so the CI share checks every module up to a budget of text,
smallest first, and beyond it each module that has an instruction kind no checked module had
(every op the suite makes is parsed at least once). The whole suite with the slow tests,
`pytest -m 'slow or not slow'`, checks all of them."""

import gc
import re

import pytest

import kernels
import script
from script.compiler import Specialization
from script.ir.parser import parse_module
from script.ir.printer import format_module

BUDGET = 1_500_000          # characters of IR text the CI share parses at least
_OP = re.compile(r"^\s+(?:%\d+ = )?([a-z_]+)", re.M)


def _compiled_texts() -> list[str]:
    keep = [script.script(kernels.collatz), script.script(kernels.fib)]
    keep[1](10)
    texts = set()
    for spec in (o for o in gc.get_objects() if isinstance(o, Specialization)):
        for text in (spec.ssa_text, format_module(spec.module)):
            if text:
                texts.add(text)
    return sorted(texts, key=len)


def _round_trip(text: str) -> None:
    again = format_module(parse_module(text))
    assert again == text, f"round trip differs:\n{text}\n---\n{again}"


def test_compiled_functions_round_trip():
    texts = _compiled_texts()
    seen_ops: set = set()
    parsed = checked = 0
    for text in texts:
        ops = set(_OP.findall(text))
        if parsed + len(text) > BUDGET and ops <= seen_ops:
            continue
        _round_trip(text)
        seen_ops |= ops
        parsed += len(text)
        checked += 1
    # Run alone this file sees the two compiled above; in the whole suite, hundreds.
    assert checked >= 4, checked


@pytest.mark.slow
def test_every_compiled_function_round_trips():
    for text in _compiled_texts():
        _round_trip(text)
