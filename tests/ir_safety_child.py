"""Runs IR cases for test_ir_safety.py in a child process, so that a crash fails the test
instead of killing pytest.

    python tests/ir_safety_child.py CASES.json

CASES is a list of ``[ir_text, args]``; each ``args`` item is a number, or ``["array",
dtype, shape]`` (NumPy's ``arange`` of that dtype and shape). Every case is parsed, made
memory-safe (script.ir.safety), compiled and called once. One JSON line per case is printed
(flushed before the next case runs, so a crash names the case that caused it): ``["ok",
repr]``, ``["raise", class name, message]`` from the call, or ``["load", message]`` for a
LoadError before it.
"""

import json
import sys

import numpy as np

from script.loadpath import compile_callable
from script.errors import LoadError
from script.ir.parser import parse_module
from script.ir.safety import make_memory_safe


def argument(a):
    if isinstance(a, list) and a and a[0] == "array":
        _, dtype, shape = a
        return np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)
    return a


def run(text: str, args: list) -> list:
    try:
        module = make_memory_safe(parse_module(text))
    except LoadError as e:
        return ["load", str(e).splitlines()[0]]
    name = next(iter(module.functions))
    f = compile_callable(module, name)
    try:
        return ["ok", repr(f(*[argument(a) for a in args]))]
    except Exception as e:  # noqa: BLE001 - the outcome is what the test compares
        return ["raise", type(e).__name__, str(e)]


for text, args in json.load(open(sys.argv[1])):
    print(json.dumps(run(text, args)), flush=True)
