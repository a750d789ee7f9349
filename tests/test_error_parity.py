"""Runtime errors of compiled code against CPython's: each function of error_parity_kernels
run by CPython and compiled (opt=0 and the default level) on inputs that raise, the class,
str, repr and args of the exceptions compared; then the forms of handling them (try /
except / else / finally, re-raise, raise ... from, calls between compiled functions, the
class hierarchy), and the differences docs/exceptions.md documents."""

import math
import resource

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import error_parity_kernels as K
from difftest import compiled, same_value

A = np.arange(3.0)

# (function, argument tuples that raise in CPython, or not)
CASES = [
    (K.aug_item, [("abc", 0, 1), ("abc", 5, 1), ((1, 2), 1, 1), ("abc", 1, "x"), ((1, 2), 0, "x"), (b"ab", 0, 1)]),
    (K.aug_name, [("a", 1), (5, 1), ([1], [1])]),
    (K.int_floordiv, [(1, 0), (-3, 0), (7, 2)]), (K.int_mod, [(1, 0)]), (K.int_truediv, [(1, 0)]),
    (K.float_div, [(1.0, 0.0), (0.0, -0.0)]), (K.float_floordiv, [(1.0, 0.0)]), (K.float_mod, [(1.0, 0.0)]),
    (K.int_divmod, [(1, 0)]), (K.float_divmod, [(1.0, 0.0)]),
    (K.float_pow, [(0.0, -1.0), (10.0, 400.0), (-10.0, 401.0)]), (K.zero_pow_negative, [(-2.0,)]),
    (K.sqrt_of, [(-1.0,)]), (K.log_of, [(0.0,), (-1.0,)]), (K.log10_of, [(0.0,)]), (K.log2_of, [(-1.0,)]),
    (K.acos_of, [(2.0,)]), (K.asin_of, [(-2.0,)]), (K.exp_of, [(1000.0,)]), (K.cosh_of, [(1000.0,)]),
    (K.pow_of, [(0.0, -1.0), (-1.0, 0.5), (10.0, 400.0)]), (K.fmod_of, [(1.0, 0.0), (math.inf, 1.0)]),
    (K.factorial_of, [(-1,)]), (K.isqrt_of, [(-1,)]),
    (K.int_of_float, [(math.inf,), (-math.inf,), (math.nan,)]), (K.floor_of, [(math.inf,), (math.nan,)]),
    (K.ceil_of, [(-math.inf,)]), (K.round_of, [(math.nan,), (math.inf,)]),
    (K.int_of_str, [("x",), ("",), ("1.5",), (" 12 ",)]), (K.float_of_str, [("y",), ("",), ("1e5",)]),
    (K.int_of_str_base, [("z", 10), ("12", 2), ("ff", 16)]), (K.chr_of, [(-1,), (0x110000,)]),
    (K.ord_of, [("ab",), ("",)]),
    (K.list_index, [(3, 3), (3, -4), (0, 0)]), (K.list_store, [(3, 5), (2, -3)]), (K.list_pop, [(0,)]),
    (K.list_pop_at, [(3, 5), (0, 0)]), (K.list_find, [(3, 4), (3, 3)]), (K.list_remove, [(3, 4)]),
    (K.list_del, [(2, 5)]), (K.min_of_list, [(0,)]), (K.max_of_list, [(0,)]), (K.str_index, [("abc", 5)]),
    (K.str_find, [("abc", "z")]), (K.tuple_index, [(1, 3)]), (K.unpack_list, [(3,), (1,)]),
    (K.tuple_constant_index, [(3, 0), (3, 1), (3, 2)]), (K.first_of, [((),), ((4, 5),)]),
    (K.list_by_other_index, [(1.5, 0), (1.0, 1), ("a", 1), (None, 1), (1, 1)]),
    (K.sieve_of, [(22.2,), (3,), (-1,)]),
    (K.segments_of, [(22.2,), (27,), (12.5,), (-1,)]),
    (K.constant_shapes, [(0,), (1,), (2,)]),
    (K.mixed_table, [(0,), (1,), (-2,), (39,)]),
    (K.discarded_results, [(5,), (0,)]),
    (K.bools_and_numbers, [(5,), (0,), (2,)]),
    (K.bool_or_int_values, [(n, m) for n in (0, 1, 4, 7, 13) for m in (0, 1, 2, 3, 6)]),
    (K.table_items, [(5, 3), (-1, -40), (1000, 0), (-1001, 0), (7, 40), (7, -41), (2.0, 1), (3, 1.5), (3, None)]),
    (K.minmax_of_other_types, [(1, None, 0), (None, 1, 0), (1, None, 1), ("a", 2, 1), (1.5, 2, 1), (3, 2, 0)]),
    (K.range_step, [(5, 0)]),
    (K.undefined_call, [(3,), (300,)]), (K.undefined_reads, [(n,) for n in range(8)]),
    (K.undefined_handler, [(0,), (2,)]),
    (K.dict_int_key, [(3, 5), (3, -1)]), (K.dict_str_key, [("z",), ("'",)]),
    (K.dict_float_key, [(2.5,), (math.inf,), (-0.0,)]), (K.dict_tuple_key, [(5, 6)]), (K.dict_del, [(3, 7)]),
    (K.dict_pop, [(3, 7)]), (K.dict_popitem, [(0,)]), (K.set_remove, [(3, 9)]), (K.set_pop, [(0,)]),
    (K.array_index, [(A, 3), (A, -4)]), (K.array_store, [(A.copy(), 7)]),
    (K.array_index_2d, [(np.zeros((2, 3)), 2, 0), (np.zeros((2, 3)), 0, 3)]),
    (K.array_min, [(np.zeros(0),)]), (K.array_argmax, [(np.zeros(0),)]),
    (K.raise_int, [(3,), (-3,)]), (K.raise_float, [(2.5,), (math.inf,), (-0.0,)]), (K.raise_bool, [(1,), (0,)]),
    (K.raise_tuple, [(1, 0.5)]), (K.raise_two, [(3,)]), (K.raise_str_key, [("k",)]),
    (K.raise_const, [(1,), (-1,), (0,)]), (K.raise_class, [(1,), (0,)]), (K.assert_fails, [(0,)]),
    (K.assert_message, [(0,)]),
    # handling forms
    (K.catch_parse, [("12",), ("x",), ("",)]), (K.catch_parse_text, [("1.5",), ("y",)]),
    (K.parse_not_caught, [("x",), ("3",)]), (K.parse_through_calls, [("1", "2"), ("1", "z"), ("q", "2")]),
    (K.parse_reraise, [("x",), ("7",)]), (K.parse_raise_from, [("x",)]), (K.raise_from_none, [(0,), (3,)]),
    (K.trace, [(7, 2), (7, 0)]), (K.finally_around_return, [("x",), ("4",)]),
    (K.loop_break_continue, [([1, -2, 3, 4], 2), ([1, -2, 8, 4], 0), ([4, 5, 6, 3], 0), ([], 1)]),
    (K.hierarchy, [(0, 1, "5"), (5, 2, "x"), (1, 1, "-3"), (7, 9, "")]),
    (K.exception_catches_all, [(n, x, s) for n in range(6) for x, s in ((-1.0, "x"), (2.0, "12"))]),
    (K.reraise_inner, [(0,), (2,)]), (K.tuple_as, [(1, "3"), (0, "x"), (0, "4")]),
    (K.drop_text, [("ab", 3)]), (K.keep_text, [("ab",), ("12",)]),
    # more library errors
    (K.deque_popleft, [(2,), (1,)]), (K.shift, [(1, -1), (5, 2)]), (K.reshape, [(2,)]), (K.empty_of, [(-1,)]),
    (K.log_base, [(8.0, 1.0), (-1.0, 2.0), (8.0, 0.0)]), (K.split_by, [("ab", ""), ("a b", " ")]),
    (K.pow_mod, [(2, 3, 0), (2, 3, 5)]), (K.dot_of, [(4,)]), (K.nested_index, [(1, 1), (2, 0)]),
    (K.gamma_of, [(0.0,), (-1.0,), (200.0,)]),
    # CPython's errors with finally, loops and nesting
    (K.return_in_finally, [("x",), ("1",)]),
    (K.parse_else, [("1", "2"), ("x", "2"), ("1", "y"), ("x", "y")]),
    (K.finally_in_loop, [("12",), ("1x2",)]), (K.while_continue_finally, [("x",), ("1",)]),
    (K.handler_raises, [(0, "x"), (0, "7"), (2, "x")]), (K.bad_spec, [(".2f",), ("zz",)]),
    (K.raise_user, [(3, "1"), (7, "1"), (-2, "1"), (0, "12"), (0, "x")]),
    (K.raise_complex, [(x, y) for x in (6.0, 1.0, -6.0, -0.0, 0.0) for y in (0.0, -0.0, 2.5, math.inf, math.nan)]),
]


def outcome(fn, args):
    try:
        return ("ok", fn(*args))
    except Exception as e:  # noqa: BLE001 - every exception is part of the behaviour
        return ("raise", type(e), str(e), repr(e), e.args)


def check(fn, args, **options):
    want = outcome(fn, [a.copy() if isinstance(a, np.ndarray) else a for a in args])
    got = outcome(compiled(fn, **options), args)
    if want[0] == "ok" and got[0] == "ok":
        assert same_value(want[1], got[1]), f"{fn.__name__}{args}: CPython {want[1]!r}, compiled {got[1]!r}"
    else:
        assert want[:4] == got[:4] and same_value(want[4], got[4]), \
            f"{fn.__name__}{args}: CPython {want}, compiled {got}"


@pytest.mark.parametrize("fn, arg_list", CASES, ids=[fn.__name__ for fn, _ in CASES])
def test_errors_match_cpython(fn, arg_list):
    for args in arg_list:
        check(fn, args, opt=0)
        check(fn, args)


@settings(max_examples=40, deadline=None)
@given(st.integers(-5, 5), st.integers(-3, 3), st.floats(-3.0, 3.0) | st.sampled_from([0.0, -0.0, math.inf]))
def test_arithmetic_and_lookups(a, b, x):
    for fn, args in ((K.int_floordiv, (a, b)), (K.int_mod, (a, b)), (K.float_div, (x, float(b))),
                     (K.float_mod, (x, float(b))), (K.log_of, (x,)), (K.list_index, (3, a)),
                     (K.list_pop_at, (abs(b), a)), (K.dict_int_key, (3, a)), (K.dict_tuple_key, (a % 2, b)),
                     (K.raise_int, (a,)), (K.raise_tuple, (a, x)), (K.hierarchy, (a, b, str(a))),
                     (K.loop_break_continue, ([a, b, 3, -a], b))):
        check(fn, args)


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="0123456789 -+._xé", max_size=6))
def test_strs_cpython_parses(s):
    """int(s) / float(s) go to CPython; its ValueError reaches the handlers."""
    for fn in (K.int_of_str, K.float_of_str, K.catch_parse, K.catch_parse_text, K.parse_not_caught):
        check(fn, (s,))
    check(K.parse_through_calls, (s, "1"))
    check(K.exception_catches_all, (2, 1.0, s))


def test_documented_differences():
    """Ints are 64 bits (OverflowError where CPython's grow, with int_overflow="raise"; by
    default CPython runs such a call again); a negative float to a fractional power is not
    complex (ValueError)."""
    with pytest.raises(OverflowError):
        compiled(K.int_of_float, int_overflow="raise")(1e30)
    with pytest.raises(OverflowError):
        compiled(K.int_of_str, int_overflow="raise")("99999999999999999999999")
    assert compiled(K.int_of_float)(1e30) == K.int_of_float(1e30)
    assert compiled(K.int_of_str)("99999999999999999999999") == K.int_of_str("99999999999999999999999")
    with pytest.raises(ValueError, match="complex"):
        compiled(K.float_pow)(-8.0, 1 / 3)


def test_bad_exception_arguments_are_compile_errors(tmp_path):
    import importlib.util
    import script
    from script.errors import CompileError
    src = tmp_path / "bad_args.py"
    src.write_text("import numpy as np\n"
                   "def arr(a: int) -> int:\n    raise ValueError(np.zeros(a))\n"
                   "def kw(a: int) -> int:\n    raise ValueError(a, x=1)\n"
                   "def cause(a: int) -> int:\n    raise ValueError(a) from KeyError(a)\n")
    spec = importlib.util.spec_from_file_location("bad_args", src)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for name, match in (("arr", "cannot be an exception's argument"), ("kw", "no keyword arguments"),
                        ("cause", "takes None or the name")):
        with pytest.raises(CompileError, match=match) as info:
            script.script(getattr(mod, name))(1)
        assert "bad_args.py" in str(info.value)


@pytest.mark.parametrize("opt", [0, 2])
def test_many_caught_exceptions_in_one_call(opt):
    """Each exception caught in a loop reuses the same stack memory (300,000 records of 112
    bytes would overflow an 8 MB stack)."""
    assert compiled(K.catch_in_loop, opt=opt)("x", 300_000) == -300_000
    assert compiled(K.catch_in_loop, opt=opt)("2", 1000) == 2000
    assert compiled(K.drop_text, opt=opt)("ab", 300_000) == 300_000


def _rss_kb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def test_caught_exceptions_are_released():
    """An exception caught and dropped releases what it holds: the strs of its message, the
    exception object CPython made (int(s)); 2000 rounds of 100 KB would be 200 MB."""
    big = "7" * 100_000 + "x"
    f, g, h, k = (compiled(fn) for fn in (K.catch_parse, K.parse_through_calls, K.drop_text, K.keep_text))
    assert h(big, 10) == 10 and k(big) == "7x!"
    before = _rss_kb()
    assert h(big, 2000) == 2000
    for _ in range(2000):
        assert f("x") == -1
        assert g("1", "y") < 0
    for _ in range(50):
        assert k(big) == "7x!"
    assert _rss_kb() - before < 40_000


SAVED_CALLS = [("catch_parse", ("x",)), ("catch_parse", ("12",)), ("parse_through_calls", ("1", "z")),
               ("drop_text", ("ab", 50)), ("keep_text", ("ab",)), ("raise_tuple", (3, 0.5)),
               ("raise_two", (4,)), ("parse_reraise", ("q",)), ("deque_popleft", (2,))]

_SAVED = r'''
import sys, json
sys.path.insert(0, sys.argv[3])
import script
CALLS = eval(sys.argv[4])

def outcomes(fns):
    out = []
    for name, args in CALLS:
        try:
            out.append(["ok", repr(fns[name](*args))])
        except Exception as e:
            out.append(["raise", repr(e)])
    return out

if sys.argv[1] == "save":
    import error_parity_kernels as K
    fns = {name: script.script(getattr(K, name)) for name, _ in CALLS}
    out = outcomes(fns)
    script.save(fns, sys.argv[2])
else:
    m = script.load(sys.argv[2])
    out = outcomes({n: getattr(m, n) for n in m.__all__})
print(json.dumps(out))
'''


def test_saved_modules_keep_the_errors(tmp_path):
    """Saved and loaded in fresh processes, without the source: the same exceptions, caught
    or raised, as CPython's."""
    import json
    import os
    import subprocess
    import sys
    here = os.path.dirname(os.path.abspath(__file__))
    path = tmp_path / "errs.smod"

    def run(mode):
        r = subprocess.run([sys.executable, "-c", _SAVED, mode, str(path), here if mode == "save" else str(tmp_path),
                            repr(SAVED_CALLS)], capture_output=True, text=True, cwd=tmp_path, timeout=300)
        assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
        return json.loads(r.stdout.splitlines()[-1])
    saved, loaded = run("save"), run("load")
    want = []
    for name, args in SAVED_CALLS:
        try:
            want.append(["ok", repr(getattr(K, name)(*args))])
        except Exception as e:  # noqa: BLE001
            want.append(["raise", repr(e)])
    assert saved == want
    assert loaded == want


def test_the_ir_of_caught_str_py_round_trips():
    """`raised` after a `str_py` prints, parses back and verifies."""
    from script.ir.parser import parse_module
    from script.ir.printer import format_module
    from script.ir.verifier import verify_module
    for fn, args in ((K.catch_parse, ("x",)), (K.parse_else, ("x", "2")), (K.finally_in_loop, ("1x",))):
        for opt in (0, 2):
            f = compiled(fn, opt=opt)
            f(*args)
            for stage in ("ssa", "opt"):
                text = f.ir(stage)
                assert "str_py.int" in text and "raised" in text, text
                module = parse_module(text)
                verify_module(module)
                assert format_module(module) == text


@pytest.mark.parametrize("opt", [0, 2])
def test_a_call_that_raised_in_cpython_ends_the_caller(opt, capsys):
    f = compiled(K.print_after_call, opt=opt)
    assert f("1.5") == 3.0
    with pytest.raises(ValueError, match="could not convert string to float: 'x'"):
        f("x")
    assert capsys.readouterr().out == "after 1.5\n"


def test_gpu_launcher_raises_the_arguments():
    """The GPU launcher reads a thread's record back on the host (cuda/launch.py): arguments
    written as their repr become the exception's arguments there too (no GPU needed: a
    stand-in driver hands the record over)."""
    import struct
    from types import SimpleNamespace
    from script.backend.llvm.abi import encode_message
    from script.cuda.launch import _raise_recorded
    from script.ir.ops import EXCEPTIONS
    enc = encode_message("\x01*(%lld, %R, 'k')", 2)
    bits = struct.unpack("<q", struct.pack("<d", 2.5))[0]
    words = [1, enc.exc_word(EXCEPTIONS.index("KeyError")), 0, -3, bits] + [0] * 10

    class Driver:
        def copy_to_host(self, record, _address, _size):
            record[:] = words

        def copy_to_device(self, *_):
            pass

    loaded = SimpleNamespace(error_words=len(words), error_record=0, messages=[enc.data()])
    with pytest.raises(KeyError) as info:
        _raise_recorded(Driver(), loaded)
    assert info.value.args == (-3, 2.5, "k")
