"""Complex numbers through the textual IR (print, parse, print), saved modules (object code
and the recompile-from-IR path, in a fresh process) and the on-disk cache."""

import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest

import archive_tools as A
import complex_kernels as K
import script
from difftest import same_value
from script.ir.parser import parse_module
from script.ir.printer import format_module

HERE = os.path.dirname(os.path.abspath(__file__))


def outcomes(fns):
    out = []
    for name, args in K.calls():
        try:
            out.append(("ok", fns[name](*args)))
        except Exception as e:  # noqa: BLE001
            out.append(("raise", type(e).__name__, str(e)))
    return out


def same_outcomes(a, b) -> bool:
    return len(a) == len(b) and all(x[0] == y[0] and (same_value(x[1], y[1]) if x[0] == "ok" else x == y)
                                    for x, y in zip(a, b))


@pytest.fixture(scope="module")
def compiled():
    fns = K.compiled()
    outcomes(fns)           # one specialization per signature called
    return fns


def test_results_match_python(compiled):
    assert same_outcomes(outcomes(compiled), outcomes({n: getattr(K, n) for n in K.NAMES}))


def test_ir_round_trips(compiled):
    for fn in compiled.values():
        for spec in fn._specializations.values():
            for text in (spec.ssa_text, format_module(spec.module)):
                assert format_module(parse_module(text)) == text


@pytest.mark.parametrize("value", [1.5 - 2j, complex(-0.0, 0.0), complex(math.inf, -math.nan),
                                   complex(-math.inf, 1e-320), complex(0.1, -1e300)])
def test_constants_print_and_parse_exactly(value):
    text = f"""func @f(%0: c128) -> c128 "x.py":1 {{
bb0:
  %1 = add %0, {format_const(value)}:c128 : c128
  ret %1
}}
"""
    module = parse_module(text)
    assert format_module(module) == text
    (instr, _) = module.functions["f"].blocks[0].instrs
    got = instr.operands[1].value
    for x, y in ((got.real, value.real), (got.imag, value.imag)):
        assert (math.isnan(x) and math.isnan(y)) or (x == y and math.copysign(1, x) == math.copysign(1, y))


def format_const(value: complex) -> str:
    from script.ir.core import Const
    from script.ir.printer import format_const as fc
    from script.ir import types as T
    return fc(Const(value, T.C128)).rsplit(":", 1)[0]


def test_bad_complex_constants_are_rejected():
    from script.ir.parser import IRParseError
    bad = """func @f(%0: f64) -> f64 "x.py":1 {
bb0:
  %1 = add %0, 1.0+2.0j:f64 : f64
  ret %1
}
"""
    with pytest.raises(IRParseError):
        parse_module(bad)


RUNNER = r'''
import json, sys
import numpy as np
import script
sys.path.insert(0, sys.argv[2])
m = script.load(sys.argv[1])
import complex_kernels as K    # for the arguments only: the module's code is the archive's
out = []
for name, args in K.calls():
    try:
        r = getattr(m, name)(*args)
        out.append(["ok", repr(r)])
    except Exception as e:
        out.append(["raise", type(e).__name__, str(e)])
print(json.dumps({"outcomes": out, "recompiled": m.__recompiled__}))
'''


def run_loaded(path) -> dict:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    r = subprocess.run([sys.executable, "-c", RUNNER, str(path), HERE], capture_output=True, text=True,
                       env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def expected_reprs(compiled):
    return [["ok", repr(o[1])] if o[0] == "ok" else list(o) for o in outcomes(compiled)]


def test_saved_module_in_a_fresh_process(compiled, tmp_path):
    path = tmp_path / "c.smod"
    script.save(compiled, path)
    manifest = A.read_members(path)["manifest.json"].decode()
    assert '"c128"' in manifest and '"complex"' in manifest      # types, a default (w=1j)
    got = run_loaded(path)
    assert got["recompiled"] is None
    assert got["outcomes"] == expected_reprs(compiled)


def test_saved_module_recompiled_from_ir(compiled, tmp_path):
    path, other = tmp_path / "c.smod", tmp_path / "other.smod"
    script.save(compiled, path)
    A.rewrite(path, other, A.other_cpu)
    got = run_loaded(other)
    assert "some-other-cpu" in got["recompiled"]
    assert got["outcomes"] == expected_reprs(compiled)


CACHED = """
import script

W = 0.5 + 2j

@script.script(cache=True)
def f(z: complex, n: int, scale=1 - 1j):
    for _ in range(n):
        z = z * W + scale
    return z
"""


def test_cache_hits_and_global_complex_values(tmp_path, monkeypatch):
    monkeypatch.setenv("SCRIPT_CACHE_DIR", str(tmp_path / "cache"))
    src = tmp_path / "src"
    src.mkdir()
    code = """
import json, sys
sys.path.insert(0, sys.argv[1])
import mod
from script.saved import LoadedSpecialization
r = mod.f(1 + 1j, 5)
spec = next(iter(mod.f._specializations.values()))
print(json.dumps([repr(r), isinstance(spec, LoadedSpecialization)]))
"""
    # (no .pyc: mod.py is rewritten below by an edit of the same size, likely within the same
    # second, and Python's bytecode cache would then give the old module)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p), PYTHONDONTWRITEBYTECODE="1")

    def run():
        r = subprocess.run([sys.executable, "-c", code, str(src)], capture_output=True, text=True,
                           env=env, timeout=300)
        assert r.returncode == 0, r.stderr
        return json.loads(r.stdout)

    (src / "mod.py").write_text(CACHED)
    want = 1 + 1j
    for _ in range(5):
        want = want * (0.5 + 2j) + (1 - 1j)
    assert run() == [repr(want), False]
    assert run() == [repr(want), True]           # a hit in a new process
    (src / "mod.py").write_text(CACHED.replace("0.5 + 2j", "0.5 - 2j"))
    again = 1 + 1j
    for _ in range(5):
        again = again * (0.5 - 2j) + (1 - 1j)
    assert run() == [repr(again), False]         # the global's value is in the key
