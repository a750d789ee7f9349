"""Dispatch on NumPy scalars of narrow types (i8 … u64 but int64, f32): each call of an
unannotated function runs the specialization of its own arguments' types — a Python int is
int64, ``numpy.int32(3)`` is i32 — whatever was compiled before; an annotated parameter
converts Python ints and NumPy scalars. Also after saving and loading, and from the cache."""

import itertools
import os
import subprocess
import sys

import numpy as np
import pytest

import script
from script.ir import types as T
from tests import scalar_dispatch_kernels as kernels

# type name -> (a NumPy scalar whose `twice` wraps in that type, its result, a Python value
# whose `twice` that type would get wrong, its result)
SAMPLES = {
    "i8": (np.int8(100), -56, 100, 200),
    "i16": (np.int16(20000), -25536, 20000, 40000),
    "i32": (np.int32(2**30 + 5), -2**31 + 10, 2**30 + 5, 2**31 + 10),
    "u8": (np.uint8(200), 144, 200, 400),
    "u16": (np.uint16(40000), 14464, 40000, 80000),
    "u32": (np.uint32(3 * 10**9), 6 * 10**9 - 2**32, 3 * 10**9, 6 * 10**9),
    "u64": (np.uint64(2**63 + 1), 2, -1, -2),
    "f32": (np.float32(0.1), float(np.float32(0.1) + np.float32(0.1)), 0.1, 0.2),
}
BIG = {"f32": (1e300, 2e300)}           # beyond f32; the ints: beyond every narrow int type
PYTHON_TYPE = {"f32": "float"}


def calls(name):
    """The three calls of the example, each `(argument, expected result, signature)`."""
    narrow, narrow_result, small, small_result = SAMPLES[name]
    big, big_result = BIG.get(name, (2**40, 2**41))
    python = PYTHON_TYPE.get(name, "int")
    return {"numpy": (narrow, narrow_result, name), "big": (big, big_result, python),
            "small": (small, small_result, python)}


@pytest.mark.parametrize("name", list(SAMPLES))
@pytest.mark.parametrize("order", list(itertools.permutations(("numpy", "big", "small"))))
def test_unannotated_dispatches_on_each_arguments_type(name, order):
    f = script.script(kernels.twice)
    example = calls(name)
    for which in order + order:         # and again, with both specializations compiled
        arg, expected, _ = example[which]
        got = f(arg)
        assert got == expected and type(got) is type(expected), (which, arg)
    signatures = [example[w][2] for w in order]
    signatures = sorted(set(signatures), key=signatures.index)
    assert [s.split(" ->")[0] for s in f.signatures] == [f"({s})" for s in signatures]


@pytest.mark.parametrize("order", list(itertools.permutations(("numpy", "big", "small"))))
def test_the_reported_example(order):
    f = script.script(kernels.times_1000)
    example = {"numpy": (np.int32(3), 3000), "big": (2**40, 1099511627776000),
               "small": (5, 5000)}
    for which in order:
        arg, expected = example[which]
        assert f(arg) == expected
    assert sorted(f.signatures) == ["(i32) -> i32", "(int) -> int"]


def test_numpy_scalar_specialization_takes_both_kinds_of_u64():
    f = script.script(kernels.twice)
    assert f(np.uint64(5)) == 10 and f(np.ulonglong(7)) == 14
    assert f.signatures == ["(u64) -> u64"]


@pytest.mark.parametrize("order", [("numpy", "python"), ("python", "numpy")])
def test_bool_and_numpy_bool_are_one_type(order):
    f = script.script(kernels.negate)
    values = {"numpy": [np.bool_(True), np.bool_(False)], "python": [True, False]}
    for which in order:
        assert [f(v) for v in values[which]] == [False, True]
    assert f.signatures == ["(bool) -> bool"]


def test_tuple_items_follow_the_rule():
    f = script.script(kernels.pair_sum)
    assert f((np.int8(100), np.int8(1))) == -55           # i8 arithmetic wraps
    assert f((100, 1)) == 201
    assert f((np.int8(100), 1)) == -55                    # (i8, int): i8 + i8, then int64
    assert sorted(f.signatures) == ["(tuple[i8, i8]) -> i8", "(tuple[i8, int]) -> int",
                                    "(tuple[int, int]) -> int"]


def test_annotated_parameters_convert_python_ints_and_numpy_scalars():
    f = script.script(kernels.add_i32)
    assert f(2, 3) == 5
    assert f(np.int32(2), np.int32(3)) == 5
    assert f(np.int16(2), 3) == 5 and f(np.int64(2), np.uint8(3)) == 5
    assert f(2**31 - 1, 1) == -2**31                     # i32 arithmetic wraps
    with pytest.raises(OverflowError, match="Python int too large to convert to i32"):
        f(2**40, 1)
    with pytest.raises(OverflowError):
        f(np.int64(2**40), 1)
    with pytest.raises(TypeError, match=r"it accepts \(i32, i32\)"):
        f(np.float32(1.5), 1)
    assert f.signatures == ["(i32, i32) -> i32"]


def test_annotated_f32_converts_floats_and_numpy_scalars():
    f = script.script(kernels.half_f32)
    assert f(3.0) == 1.5 and f(np.float32(3.0)) == 1.5 and f(3) == 1.5
    assert f(np.float64(0.1)) == float(np.float32(0.1) / 2)
    assert f.signatures == ["(f32) -> f32"]


def test_mixed_annotated_and_unannotated_parameters():
    f = script.script(kernels.mixed)
    assert f(np.int8(100), 1) == 101                     # i8 + i32 is i32
    assert f(100, np.int32(1)) == 101
    assert f(np.int8(100), np.int16(1)) == 101
    assert sorted(f.signatures) == ["(i8, i32) -> i32", "(int, i32) -> int"]


def test_a_call_that_matches_nothing_lists_the_signatures(tmp_path):
    f = script.script(kernels.twice)
    assert f(np.int32(4)) == 8
    path = tmp_path / "m.smod"
    script.save(f, path)
    g = script.load(path).twice
    assert g(np.int32(5)) == 10
    with pytest.raises(TypeError, match=r"got arguments of types \(int\); it accepts \(i32\)"):
        g(5)
    with pytest.raises(TypeError, match=r"it accepts \(i32\)"):
        g(np.int16(5))


@pytest.mark.parametrize("order", [("numpy", "small"), ("small", "numpy")])
def test_saved_and_loaded_functions_keep_the_rule(tmp_path, order):
    f = script.script(kernels.twice)
    example = calls("i16")
    for which in order:
        f(example[which][0])
    path = tmp_path / "m.smod"
    script.save(f, path)
    g = script.load(path).twice
    for which in order + tuple(reversed(order)):
        arg, expected, _ = example[which]
        assert g(arg) == expected
    assert sorted(g.signatures) == sorted(f.signatures)
    rules = {k: s.native.numpy_scalars for k, s in g._specializations.items()}
    assert rules == {(T.I16,): (0,), (T.I64,): ()}


def test_a_saved_module_keeps_the_rule_in_another_process(tmp_path):
    f = script.script(kernels.twice)
    assert (f(np.int16(20000)), f(20000)) == (-25536, 40000)
    path = tmp_path / "m.smod"
    script.save(f, path)
    code = ("import sys, numpy as np, script\n"
            "g = script.load(sys.argv[1]).twice\n"
            "print(g(20000), g(np.int16(20000)), g(2**40), 'llvmlite' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                         text=True, timeout=120, cwd=os.path.dirname(os.path.dirname(__file__)))
    assert out.returncode == 0, out.stderr
    values = out.stdout.split()
    assert values[:3] == ["40000", "-25536", str(2**41)]


def test_a_saved_function_recompiled_from_its_ir_keeps_the_rule(tmp_path, monkeypatch):
    from script import saved_manifest
    f = script.script(kernels.twice)
    f(np.uint8(200))
    path = tmp_path / "m.smod"
    script.save(f, path)
    monkeypatch.setattr(saved_manifest, "object_code_mismatch", lambda manifest: "another CPU")
    g = script.load(path).twice
    assert g(np.uint8(200)) == 144
    with pytest.raises(TypeError, match=r"it accepts \(u8\)"):
        g(200)


CACHED = '''
import script

@script.script(cache=True)
def twice(x):
    return x + x
'''


def test_cached_functions_keep_the_rule(tmp_path, monkeypatch):
    from tests.test_cache import fresh_import, hit, write
    monkeypatch.setenv("SCRIPT_CACHE_DIR", str(tmp_path / "cache"))
    src = tmp_path / "src"
    src.mkdir()
    write(src / "main.py", CACHED)
    first = fresh_import(src)
    assert first.twice(np.int8(100)) == -56
    again = fresh_import(src)
    assert again.twice(np.int8(100)) == -56 and hit(again.twice)
    assert again.twice(100) == 200 and again.twice(np.int8(100)) == -56
    assert again.twice.signatures == ["(i8) -> i8", "(int) -> int"]
    third = fresh_import(src)
    assert third.twice(100) == 200 and third.twice(np.int8(100)) == -56
    assert all(hit(third.twice, k) for k in third.twice._specializations)


def test_entry_points_of_the_two_rules_are_stored_apart():
    from script.loadpath import entry_point_path
    converting = entry_point_path([T.I32], T.I32)
    assert entry_point_path([T.I32], T.I32, (0,)) != converting
    assert os.path.basename(entry_point_path([T.I64], T.I64)) != os.path.basename(converting)
