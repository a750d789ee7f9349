"""Runs last (file name): every function the test suite compiled so far in this process
prints, parses back and prints identically, before and after optimization."""

import gc

import kernels
import script
from script.compiler import Specialization
from script.ir.parser import parse_module
from script.ir.printer import format_module


def test_every_compiled_function_round_trips():
    keep = [script.script(kernels.collatz), script.script(kernels.fib)]
    keep[1](10)
    specs = [o for o in gc.get_objects() if isinstance(o, Specialization)]
    checked = 0
    for spec in specs:
        for text in (spec.ssa_text, format_module(spec.module)):
            if not text:
                continue
            again = format_module(parse_module(text))
            assert again == text, f"round trip differs for {spec.entry.name}:\n{text}\n---\n{again}"
            checked += 1
    # Run alone this file sees the two compiled above; in the whole suite, hundreds.
    assert checked >= 4, checked
