"""Generated functions whose local holds None, an int, a float, a str or a bool on different
paths, then goes through operations that take it apart (`is None`, `==`, `+`, `str`, `repr`,
`type(v).__name__`, `isinstance`, truth, `abs`, displays): compiled, each gives CPython's
value and TypeError message for every input, or is a CompileError (a bool beside a number,
which no compiled value holds: docs/differences.md). Found: `isinstance(v, int)` of an
optional int that is None raised TypeError; `type(v).__name__` of an int|float or None said
'tuple'; `abs(None)`'s message; a None beside an int|float built no union."""

from __future__ import annotations

import importlib.util
import random

import pytest

import script

VALUES = ["None", "0", "1", "-2", "2.5", "0.0", "'a'", "''", "n", "n * 0.5", "str(n)", "n > 2"]
OPS = ["v is None", "v is not None", "v == 1", "str(v)", "repr(v)", "type(v).__name__", "bool(v)",
       "v + 1", "v * 2", "v < 2", "isinstance(v, int)", "isinstance(v, str)", "[v, v]", "(v, 1)",
       "v if v else 7", "{1: v}", "abs(v)", "-v", "v or 3", "v and 3"]


def program(rng: random.Random, k: int) -> str:
    lines = [f"def f{k}(n):", f"    v = {rng.choice(VALUES)}"]
    for _ in range(rng.randint(1, 3)):
        lines += [f"    if n % {rng.randint(2, 4)} == {rng.randint(0, 1)}:", f"        v = {rng.choice(VALUES)}"]
        if rng.random() < 0.5:
            lines += [f"    elif n > {rng.randint(0, 5)}:", f"        v = {rng.choice(VALUES)}"]
    lines.append("    out = []")
    for op in rng.sample(OPS, 4):
        lines += ["    try:", f"        out.append(repr({op}))", "    except TypeError as e:",
                  "        out.append(str(e))"]
    lines.append("    return out, repr(v)")
    return "\n".join(lines) + "\n"


def outcome(fn, n):
    try:
        return ("ok", fn(n))
    except Exception as e:  # noqa: BLE001 - every exception is part of the behaviour
        return ("raise", type(e).__name__, str(e))


@pytest.mark.parametrize("seed", [1, 4, 9])
def test_generated_functions_of_a_union_local(tmp_path, seed):
    rng = random.Random(seed)
    count = 14
    path = tmp_path / f"union_programs_{seed}.py"
    path.write_text("".join(program(rng, k) for k in range(count)))
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for k in range(count):
        fn = getattr(module, f"f{k}")
        compiled = script.script(fn)
        for n in range(7):
            want = outcome(fn, n)
            try:
                got = outcome(compiled, n)
            except script.CompileError:
                break               # refused where it is written: a bool beside a number
            if got[:2] == ("raise", "CompileError"):
                break
            assert want == got, f"f{k}({n}) of seed {seed}:\n{path.read_text()}"
