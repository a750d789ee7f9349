"""IR from outside this process is memory-safe (script/ir/safety.py): out-of-bounds indices,
slices, shapes, divisors and NULL lists raise or are refused, never crash. Every case runs
in a child process (tests/ir_safety_child.py), so a crash fails the test, not pytest."""

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import script
from script.errors import LoadError
from script.ir.ops import OPS
from script.ir.parser import parse_module
from script.ir.safety import RULES, make_memory_safe

import archive_tools as A

CHILD = Path(__file__).with_name("ir_safety_child.py")
ARRAY = 'func @f(%0: i64[::1], %1: i64) -> i64 "x.py":1 {\nbb0:\n'
SCALAR = 'func @f(%0: i64) -> i64 "x.py":1 {\nbb0:\n'
A10 = ["array", "int64", [10]]


def run_cases(cases: list, tmp_path) -> list:
    """The outcome of each (ir_text, args) case, run in one child process."""
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(cases))
    r = subprocess.run([sys.executable, str(CHILD), str(path)], capture_output=True, text=True, timeout=600)
    outcomes = [json.loads(line) for line in r.stdout.splitlines()]
    assert r.returncode == 0, (f"the child died (rc {r.returncode}) on case {len(outcomes)}: "
                               f"{cases[len(outcomes)][0]}\n{r.stderr[-3000:]}")
    return outcomes


CASES = {
    "constant index far out": (ARRAY + "  %2 = load %0, 1000000000000:i64 : i64\n  ret %2\n}\n", [A10, 0],
                               ["raise", "IndexError", "array index out of range"]),
    "store below the start": (ARRAY + "  store %0, 7:i64, %1\n  ret 0:i64\n}\n", [A10, -2],
                              ["raise", "IndexError", "array index out of range"]),
    "store in bounds": (ARRAY + "  store %0, 7:i64, %1\n  %2 = load %0, %1 : i64\n  ret %2\n}\n", [A10, 9],
                        ["ok", "7"]),
    "slice past the end": (ARRAY + "  %2 = view.s %0, 2:i64, %1, 3:i64 : i64[:]\n  %3 = load %2, 0:i64 : i64\n"
                           "  ret %3\n}\n", [A10, 4], ["raise", "IndexError", "slice out of range"]),
    "slice in bounds": (ARRAY + "  %2 = view.s %0, 2:i64, %1, 3:i64 : i64[:]\n  %3 = load %2, 2:i64 : i64\n"
                        "  ret %3\n}\n", [A10, 3], ["ok", "8"]),
    "view index": (ARRAY.replace("i64[::1]", "i64[:,::1]") + "  %2 = view.is %0, %1, 0:i64, 2:i64, 1:i64 : i64[:]\n"
                   "  ret 0:i64\n}\n", [["array", "int64", [2, 2]], 2], ["raise", "IndexError", "array index out of range"]),
    "reshape to more elements": (ARRAY + "  %2 = reshape %0, %1, 2:i64 : i64[:,::1]\n  %3 = load %2, 5:i64, 1:i64 : i64\n"
                                 "  ret %3\n}\n", [A10, 6], ["raise", "ValueError", "reshape to a different size"]),
    "reshape whose product wraps": (ARRAY + "  %2 = reshape %0, 4294967296:i64, 4294967296:i64, %1 : i64[:,:,::1]\n"
                                    "  ret 0:i64\n}\n", [A10, 10], ["raise", "ValueError", "reshape to a different size"]),
    "reshape of a strided view": (ARRAY + "  %2 = view.s %0, 0:i64, 5:i64, 2:i64 : i64[:]\n"
                                  "  %3 = reshape %2, %1 : i64[::1]\n  ret 0:i64\n}\n", [A10, 5],
                                  ["raise", "ValueError", "reshape of an array that is not C-contiguous"]),
    "strided reshape past the end": (ARRAY + "  %2 = reshape %0, 2:i64, %1, 40:i64, 8:i64 : i64[:,:]\n"
                                     "  ret 0:i64\n}\n", [A10, 6],
                                     ["raise", "ValueError", "reshape to strides outside the array"]),
    "strided reshape whose span wraps": (ARRAY + "  %2 = reshape %0, %1, 2:i64, 4611686018427387904:i64, 8:i64"
                                         " : i64[:,:]\n  ret 0:i64\n}\n", [A10, 5],
                                         ["raise", "ValueError", "reshape to strides outside the array"]),
    "strided reshape backwards": (ARRAY + "  %2 = reshape %0, %1, -8:i64 : i64[:]\n  ret 0:i64\n}\n", [A10, 2],
                                  ["raise", "ValueError", "reshape to strides outside the array"]),
    "strided reshape in bounds": (ARRAY + "  %2 = reshape %0, %1, 2:i64, 32:i64, 8:i64 : i64[:,:]\n"
                                  "  %3 = load %2, 1:i64, 1:i64 : i64\n  ret %3\n}\n", [A10, 2], ["ok", "5"]),
    "reshape in bounds": (ARRAY + "  %2 = reshape %0, %1, 2:i64 : i64[:,::1]\n  %3 = load %2, 4:i64, 1:i64 : i64\n"
                          "  ret %3\n}\n", [A10, 5], ["ok", "9"]),
    "negative alloc": (ARRAY + "  %2 = alloc %1 : f64[::1]\n  ret 0:i64\n}\n", [A10, -5],
                       ["raise", "ValueError", "array dimensions out of range"]),
    "alloc whose size wraps": (ARRAY + "  %2 = alloc %1, %1 : f64[:,::1]\n  ret 0:i64\n}\n", [A10, 1 << 31],
                               ["raise", "ValueError", "array dimensions out of range"]),
    "division by zero": (ARRAY + "  %2 = floordiv 5:i64, %1 : i64\n  ret %2\n}\n", [A10, 0],
                         ["raise", "ZeroDivisionError", "integer division or modulo by zero"]),
    "modulo by zero": (ARRAY + "  %2 = mod 5:u8, 0:u8 : u8\n  ret 0:i64\n}\n", [A10, 0],
                       ["raise", "ZeroDivisionError", "integer division or modulo by zero"]),
    "NULL list": (SCALAR + "  %1 = list_null : list[i64]\n  %2 = list_len %1 : i64\n  ret %2\n}\n", [0],
                  ["raise", "AttributeError", "NULL list in IR loaded from outside"]),
    "slot never written": (SCALAR + "  %1 = list_new : list[str]\n  %2 = list_resize %1, 3:i64 : bool\n"
                           "  %3 = list_get %1, %0 : str\n  %4 = str_len %3 : i64\n  ret %4\n}\n", [1],
                           ["raise", "AttributeError", "NULL str in IR loaded from outside"]),
    "slot never written, returned": ('func @f(%0: i64) -> list[str] "x.py":1 {\nbb0:\n  %1 = list_new : list[str]\n'
                                     "  %2 = list_resize %1, 3:i64 : bool\n  ret %1\n}\n", [0],
                                     ["raise", "ValueError", "a list slot that was never written"]),
    "list index": (SCALAR + "  %1 = list_new : list[i64]\n  %2 = list_resize %1, 3:i64 : bool\n"
                   "  list_set %1, 5:i64, %0\n  ret 0:i64\n}\n", [3], ["raise", "IndexError", "list index out of range"]),
    "negative list length": (SCALAR + "  %1 = list_new : list[i64]\n  %2 = list_resize %1, %0 : bool\n  ret 0:i64\n}\n",
                             [-1], ["raise", "ValueError", "negative list length"]),
    "str index": (SCALAR + '  %1 = str_const "abc" : str\n  %2 = str_get %1, %0 : i64\n  ret %2\n}\n', [-3],
                  ["raise", "IndexError", "string index out of range"]),
    "code point": ('func @f(%0: i64) -> str "x.py":1 {\nbb0:\n  %1 = str_char %0 : str\n  ret %1\n}\n', [-1],
                   ["raise", "ValueError", "chr() arg not in range(0x110000)"]),
    "str_set into a new str": ('func @f(%0: i64) -> str "x.py":1 {\nbb0:\n  %1 = str_new 2:i64 : str\n'
                               "  str_set %1, 65:i64, 0:i64\n  str_set %1, 66:i64, %0\n  ret %1\n}\n", [1],
                               ["ok", "'AB'"]),
    "str_set past a new str": ('func @f(%0: i64) -> str "x.py":1 {\nbb0:\n  %1 = str_new 2:i64 : str\n'
                               "  str_set %1, 65:i64, %0\n  ret %1\n}\n", [2],
                               ["raise", "IndexError", "string index out of range"]),
    "str_set into a constant": (SCALAR + '  %1 = str_const "abc" : str\n  str_set %1, 65:i64, 0:i64\n'
                                "  ret 0:i64\n}\n", [0], ["load", "str_set of a string not made by str_new in @f: "
                                                          "IR from outside may write only strings it is making"]),
    "matmul shapes": ('func @f(%0: f64[:,::1], %1: i64) -> i64 "x.py":1 {\nbb0:\n  %2 = alloc 2:i64, 9:i64 : f64[:,::1]\n'
                      "  %3 = gemm %2, %0, %0 : bool\n  ret 0:i64\n}\n", [["array", "float64", [2, 3]], 0],
                      ["raise", "ValueError", "matmul of arrays whose shapes do not match"]),
}


def test_every_op_has_a_rule():
    assert set(RULES) == set(OPS)


def test_out_of_bounds_ir_raises_or_is_refused(tmp_path):
    names = list(CASES)
    outcomes = run_cases([CASES[n][:2] for n in names], tmp_path)
    assert {n: o for n, o in zip(names, outcomes)} == {n: CASES[n][2] for n in names}


def test_lapack_is_refused():
    text = ('func @f(%0: f64[:,::1], %1: f64[::1], %2: f64[::1], %3: i64[::1]) -> i64 "x.py":1 {\nbb0:\n'
            "  %4 = lapack.dsyevd 86:i64, 76:i64, 1000:i64, %0, 1000:i64, %1, %2, 1000:i64, %3, 1000:i64 : i64\n"
            "  ret %4\n}\n")
    with pytest.raises(LoadError, match="lapack in @f"):
        make_memory_safe(parse_module(text))


# ---- a fuzz of generated indices ------------------------------------------------------------

AWKWARD = (0, 1, -1, 2, 3, 5, 9, 10, 11, -10, -11, 2**31, 2**62, 2**63 - 1, -2**63)


def _index(rng, k: int):
    """(IR operand text, function of the argument giving its value) for an index: a constant,
    the argument %1, or the argument plus or times a constant (wrapping as i64 does)."""
    c = rng.choice(AWKWARD) if rng.random() < 0.3 else rng.randrange(-2, 4)
    kind = rng.randrange(4)
    wrap = lambda v: (v + 2**63) % 2**64 - 2**63      # noqa: E731
    if kind == 0:
        return [], f"{c}:i64", lambda x: c
    if kind == 1:
        return [], "%1", lambda x: x
    op = rng.choice(("add", "mul"))
    line = f"  %i{k} = {op} %1, {c}:i64 : i64\n"
    return [line], f"%i{k}", (lambda x: wrap(x + c)) if op == "add" else (lambda x: wrap(x * c))


def _array_case(rng):
    """A load (after a store of 77 at the same place, half the time) from a 1-d or 2-d array,
    directly or through a slice view, at generated indices; the expected outcome follows
    NumPy's indexing of the same array, or IndexError."""
    import numpy as np
    shape = [rng.choice((0, 1, 3, 5, 8)) for _ in range(rng.choice((1, 2)))]
    a = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)
    x = rng.choice(AWKWARD) if rng.random() < 0.3 else rng.randrange(-2, 6)
    t = "i64[::1]" if len(shape) == 1 else "i64[:,::1]"
    lines, target, model = [], "%0", a
    bad = False
    if len(shape) == 1 and rng.random() < 0.4:
        pre, start, fs = _index(rng, 90)
        start_v, length, step = fs(x), rng.randrange(-1, 7), rng.choice((1, 2, -1, 3, 0, 2**62))
        lines += pre + [f"  %v = view.s %0, {start}, {length}:i64, {step}:i64 : i64[:]\n"]
        target = "%v"
        n = shape[0]
        ok = length == 0 or (length > 0 and 0 <= start_v < n and 0 <= start_v + (length - 1) * step < n)
        bad = length < 0 or not ok
        model = np.array([a[start_v + j * step] for j in range(length)] if ok and length > 0 else [], dtype=np.int64)
    idx_texts, values = [], []
    for k in range(model.ndim):
        pre, text, f = _index(rng, k)
        lines += pre
        idx_texts.append(text)
        values.append(f(x))
    store = rng.random() < 0.5
    if store:
        lines.append(f"  store {target}, 77:i64, {', '.join(idx_texts)}\n")
    lines.append(f"  %r = load {target}, {', '.join(idx_texts)} : i64\n  ret %r\n")
    body = "".join(lines)
    # number the named values densely, as the parser wants
    names = sorted({w for w in body.replace(",", " ").split() if w.startswith("%") and not w[1:].isdigit()},
                   key=body.index)
    for k, name in enumerate(names, start=2):
        body = body.replace(name + " ", f"%{k} ").replace(name + ",", f"%{k},").replace(name + "\n", f"%{k}\n")
    text = f'func @f(%0: {t}, %1: i64) -> i64 "x.py":1 {{\nbb0:\n{body}}}\n'
    in_bounds = all(0 <= v < n for v, n in zip(values, model.shape))
    if bad:
        want = ["raise", "IndexError", "slice out of range"]
    elif not in_bounds:
        want = ["raise", "IndexError", "array index out of range"]
    else:
        want = ["ok", "77" if store else repr(int(model[tuple(values)]))]
    return text, [["array", "int64", shape], x], want


def test_generated_indices_never_crash(tmp_path):
    """Loads and stores at generated indices (awkward constants, the argument, sums and
    products that wrap) of arrays and slice views: NumPy's element or IndexError. 150 cases
    in CI, SCRIPT_IR_FUZZ=N for more."""
    import os
    rng = random.Random(int(os.environ.get("SCRIPT_IR_FUZZ_SEED", "22")))
    cases = [_array_case(rng) for _ in range(int(os.environ.get("SCRIPT_IR_FUZZ", "150")))]
    outcomes = run_cases([c[:2] for c in cases], tmp_path)
    wrong = [(c[0], c[1], o, c[2]) for c, o in zip(cases, outcomes) if o != c[2]]
    assert not wrong, wrong[:3]


# ---- through the loader ---------------------------------------------------------------------

def test_forged_ir_of_an_archive_raises_index_error(tmp_path):
    """An archive whose IR loads at 10**12 (hashes fixed, the CPU changed so that the IR is
    compiled) gives IndexError at the call, in a child process."""
    np = pytest.importorskip("numpy")
    import saved_kernels as K
    f = script.script(K.array_total)
    f(np.arange(4.0))
    path, forged = tmp_path / "a.smod", tmp_path / "forged.smod"
    script.save(f, path)

    def edit(manifest, members):
        A.other_cpu(manifest, members)
        name = next(n for n in members if n.endswith(".ir") and not n.endswith(".ssa.ir"))
        text = members[name].decode()
        import re
        load = re.search(r"= load (%\d+), (%\d+)", text)
        assert load, text
        text = text.replace(load.group(0), f"= load {load.group(1)}, 1000000000000:i64", 1)
        A.set_member(manifest, members, name, text.encode())

    A.rewrite(path, forged, edit)
    code = (f"import script, numpy as np\nm = script.load({str(forged)!r})\n"
            "try:\n    m.array_total(np.arange(4.0))\nexcept IndexError as e:\n    print('IndexError', e)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                       cwd=Path(__file__).parent)
    assert r.returncode == 0 and r.stdout.startswith("IndexError"), (r.returncode, r.stdout, r.stderr[-2000:])
