"""Values that are an int on some paths and a float on others keep CPython's type (issue 20
point 3; frontend/mixed_numbers.py): variables, returns, conditional expressions, `max` of an
int and a float, a helper returning either; every operation on such a value (operators,
truth, `str`, `print`, `int()`/`float()`, `isinstance`, calls) gives CPython's value *and
type*; ints and floats compare exactly; generated programs that mix them agree with CPython;
what cannot be split is a CompileError, never a float where CPython has an int.
"""

from __future__ import annotations

import math

import numpy as np

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import mixed_numbers_kernels as K
import script
from difftest import check as check_args, compiled, outcome, same_typed as same, same_value
from script.errors import CompileError

NUMBERS = st.one_of(st.integers(-10, 10), st.floats(-10, 10, allow_nan=False), st.sampled_from([0, 0.0, -0.0, 1, 1.0]))



def check(fn, *args, opt=0):
    """CPython's outcome, value and type, at level `opt` (None: the default level)."""
    want = outcome(fn, args)
    got = outcome(compiled(fn, opt=opt) if opt is not None else compiled(fn), args)
    if want[0] == "ok" and got[0] == "ok":
        assert same(want[1], got[1]), f"{fn.__name__}{args}: CPython {want[1]!r}, compiled {got[1]!r}"
    else:
        assert want == got, f"{fn.__name__}{args}: CPython {want}, compiled {got}"


CASES = [(K.pick, (True, 1, 2.5)), (K.pick, (False, 1, 2.5)), (K.accumulate, ([],)), (K.accumulate, ([1.5, 2.5],)),
         (K.power, (2, 3)), (K.power, (2, -2)), (K.uses, (True, 3, -2.5)), (K.uses, (False, 3, -2.5)),
         (K.uses, (True, 0, 0.0)), (K.printed, (True,)), (K.printed, (False,)), (K.calls, (5,)), (K.calls, (0,)),
         (K.best_of, ([1, 2],)), (K.best_of, ([],)), (K.best_of, ([0.5, 2.0],)), (K.bisect_root, (4, 1e-6)),
         (K.bisect_root, (0, 1e-6)), (K.median, ([3, 1, 2],)), (K.median, ([3, 1, 2, 4],)), (K.median, ([],)),
         (K.counts, (5, 0.5)), (K.counts, (0, 0.5)), (K.tuple_swap, (True,)), (K.tuple_swap, (False,)),
         (K.hoisted, ([1, 2], [3, 4])), (K.hoisted, ([], [])), (K.optional_median, ([3, 2, 2, 9, 9],)),
         (K.optional_median, ([2, 2, 9, 9, 9, 3],)), (K.optional_median, ([],)),
         (K.tuple_at, (0, 4)), (K.tuple_at, (1, 4)), (K.tuple_at, (-1, 4)), (K.tuple_at, (3, 4)),
         (K.over_tuple, (3,)), (K.over_tuple, (-7,)),
         (K.list_display, (3,)), (K.list_display, (-4,)), (K.list_appends, (0,)), (K.list_appends, (5,)),
         (K.list_store, (0,)), (K.list_store, (2,)), (K.nested_lists, (4,)), (K.star_rest, (1,)),
         (K.keyed, ([],)), (K.keyed, ([3, -1, 2],)), (K.dict_display, (3,)), (K.dict_stores, (0,)),
         (K.dict_stores, (5,)), (K.annotated_series, (4, 2, 2)), (K.annotated_series, (0, 2, 2)),
         (K.annotated_series, (3, 2.5, 2)), (K.coin_change, (11, [2, 5])), (K.coin_change, (3, [2])),
         (K.rod_cut, (4, [1, 5, 8, 9])), (K.rod_cut, (0, [1])), (K.returned_displays, (2,)),
         (K.returned_displays, (1,)), (K.returned_displays, (-3,)), (K.hsv_like, (0, 9)), (K.hsv_like, (3, 9)),
         (K.knapsack_fractions, ([60, 100, 120], [10, 20, 30], 50)), (K.knapsack_fractions, ([1, 2], [1, 1], 5)),
         (K.neville, ([1, 2, 3, 4, 6], [6, 7, 8, 9, 11], 5)), (K.neville, ([1, 2], [3, 4], 0)),
         (K.generated, ([1, 2.5, 3],)), (K.generated, ([2, 1],)), (K.generated, ([0.5, -1],)),
         (K.matmul, ([[1, 2.5], [3, 4]], [[1, 0], [0, 1]])), (K.matmul, ([[1, 2]], [[0.5], [2]])),
         (K.sets_and_keys, ([1, 2.5, 1.0], 3)), (K.sets_and_keys, ([1, 2, 3.5], 1)),
         (K.stores_into_arrays, ([0.5, 2, -1],)), (K.stores_into_arrays, ([],)),
         (K.combination_sum, ([2, 3, 5], 8)), (K.combination_sum, ([2, 0.5], 1)), (K.combination_sum, ([1.5, 1], 3))]


BASES = st.one_of(st.integers(-12, 12), st.sampled_from([0, 1, -1, 2**31, 2**62, -(2**63), 2**63 - 1]))
EXPONENTS = st.one_of(st.integers(-70, 70), st.sampled_from([-(2**62), -(2**63)]))   # (CPython's big ints: not huge)


@settings(max_examples=120, deadline=None)
@given(BASES, EXPONENTS)
def test_int_to_an_int_power(a, b):
    """CPython's int ** int: an int, a float where the exponent is negative, its
    ZeroDivisionError for 0 ** -n, OverflowError (refusal) only where CPython's int grows."""
    for fn in (K.int_power, K.int_pow_call):
        want, got = outcome(fn, (a, b)), outcome(compiled(fn), (a, b))
        if got[:2] == ("raise", OverflowError) and want[0] == "ok":
            assert any(isinstance(v, int) and not -(2**63) <= v < 2**63 for v in
                       (want[1] if isinstance(want[1], tuple) else (want[1],))), (a, b, want, got)
            continue
        assert want[0] == got[0] and (same(want[1], got[1]) if want[0] == "ok" else want == got), (a, b, want, got)


@pytest.mark.parametrize("fn, args", [(K.alternating_series, (9,)), (K.p_series, (5, 2)), (K.p_series, (5, -2)),
                                      (K.geometric_sum, (1, 2, 10)), (K.geometric_sum, (2, 0.5, 4)),
                                      (K.geometric_sum, (3, -2, 0)), (K.powers_table, (2, -3, 4)),
                                      (K.powers_table, (10, 0, 5)), (K.karatsuba, (15463, 23489)),
                                      (K.karatsuba, (3, 9)), (K.last_digits, (10,)), (K.last_digits, (-1,))])
def test_int_powers_in_real_shapes(fn, args):
    check(fn, *args)
    check(fn, *args, opt=None)


def test_int_power_over_a_range_folds_to_ints():
    """Where the exponent is a `range` variable from 0, the passes drop the float side: the
    optimized IR of the series has no float `pow`."""
    f = script.script(K.alternating_series)
    f(3)
    opt = f.ir("opt").split("\n}\n")[0]        # the series itself, not the helpers it calls
    assert "pow" in opt and not any("pow" in line and ": f64" in line for line in opt.splitlines())


@pytest.mark.parametrize("opt", [0, None])
@pytest.mark.parametrize("case", range(len(CASES)))
def test_kernels(case, opt, capsys):
    fn, args = CASES[case]
    check(fn, *args, opt=opt)


def test_list_arguments_of_ints_and_floats():
    """A list argument holding ints and floats is a list of num, on the first call and at
    the entry point of a compiled one (inside tuples too: tests/test_argument_shapes.py); ints
    and floats with None, and with complex numbers, are still refused at the call."""
    f = script.script(K.accumulate)
    assert same(f([1.5, 2]), 3.5)
    assert same(f([1.5, 2.5]), 4.0)
    assert same(f([2, 1]), 3)
    assert same(f([0.5, 1]), 1.5)
    for bad in ([1, 2j], [0.5, None, 1], [(1, 2.5), (2, None), (3, 4)], [True, 2.5]):
        with pytest.raises(TypeError):
            f(bad)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-5, 5), max_size=6))
def test_lists_of_ints_and_floats(xs):
    """Lists made in compiled code of ints and floats keep each element's type (a list of
    `num`): sorting with a key, abs, str, f-strings, appends split per type."""
    check(K.keyed, xs)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.one_of(st.integers(-9, 9), st.floats(-9, 9, allow_nan=False)), min_size=1, max_size=6),
       st.one_of(st.integers(-3, 3), st.floats(-3, 3, allow_nan=False)))
def test_list_arguments_written_in_place(xs, k):
    """The caller's list of ints and floats after a compiled call that writes it."""
    xs = xs + [1, 0.5]              # (both: a list[num]; a list of ints given floats is refused)
    mine, theirs = list(xs), list(xs)
    want = outcome(K.scale_in_place, (mine, k))
    got = outcome(compiled(K.scale_in_place), (theirs, k))
    assert want == got or same(want[1], got[1]), (xs, k, want, got)
    assert same(mine, theirs), (xs, k, mine, theirs)


def test_printed_text(capsys):
    for c in (True, False):
        K.printed(c)
        want = capsys.readouterr().out
        compiled(K.printed)(c)
        assert capsys.readouterr().out == want


@settings(max_examples=60, deadline=None)
@given(st.booleans(), NUMBERS, NUMBERS)
def test_uses_hypothesis(c, a, b):
    check(K.uses, c, a, b)
    check(K.pick, c, a, b)


@settings(max_examples=60, deadline=None)
@given(st.one_of(st.integers(-2**63, 2**63 - 1), st.sampled_from([2**53 + 1, -2**53 - 1, 2**63 - 1, -2**63])),
       st.one_of(st.floats(allow_nan=True), st.sampled_from([2.0**53, 2.0**63, -2.0**63, 0.5, -0.0])))
def test_int_float_compare_exactly(i, f):
    check(K.compares, i, f)
    check(K.compares, f, i)


WIDE_INTS = st.one_of(st.integers(-2**63 + 1, 2**63 - 1), st.integers(-2**20, 2**20),
                      st.sampled_from([2**53 + 1, -2**53 - 1, 2**63 - 1, -2**63 + 1, 2**62 + 3, 0, 1, -1]))


@settings(max_examples=200, deadline=None)
@given(WIDE_INTS, WIDE_INTS)
@example(2**53 + 1, 3).via("float(a) / float(b) gives 3002399751580330.5")
@example(-2**63, -2**63 + 1).via("-2**63 halved")
def test_int_true_division_is_correctly_rounded(a, b):
    """int / int is CPython's exact quotient rounded once, for operands beyond 2**53 too
    (float(a) / float(b) would round three times), and its ZeroDivisionError."""
    check(K.quotients, a, b)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-5, 5), max_size=6), st.integers(-3, 3))
def test_helpers_and_powers(xs, k):
    check(K.median, xs)
    check(K.best_of, xs)
    check(K.power, 3, k)


def test_no_num_where_types_do_not_mix():
    """Code whose ints and floats never meet makes no int|float: nothing to pay."""
    for fn, args in ((K.float_sum, ([1.5, 2.0],)), (K.int_loop, (5,)), (K.compares, (1, 2.5))):
        f = script.script(fn)
        f(*args)
        text = f.ir("opt")
        assert ": num" not in text and "-> num" not in text, text
    f = script.script(K.accumulate)
    f([1.5])
    assert ": num" in f.ir("opt")       # s = 0, then floats: the int 0 is kept for an empty list


def test_saved_and_loaded(tmp_path):
    f = script.script(K.power)
    assert same(f(2, -2), 0.25) and same(f(2, 3), 8)
    path = str(tmp_path / "power.scm")
    script.save(f, path)
    g = script.load(path).power
    assert same(g(2, -2), 0.25) and same(g(2, 3), 8)


def _compile(tmp_path, source: str, name: str = "f"):
    path = tmp_path / "m.py"
    path.write_text(source)
    ns: dict = {}
    exec(compile(source, str(path), "exec"), ns)
    return ns[name], script.script(ns[name])


def test_list_arguments_that_receive_an_int_or_a_float(tmp_path):
    """A `num` that would have to become a float where CPython keeps an int is refused; where
    a list argument can hold both, it does."""
    src = ("def g(n):\n    return n if n > 0 else 0.5\n\n"
           "def f(xs, n):\n    xs.append(g(n))\n    return xs\n")
    py, f = _compile(tmp_path, src)
    for n in (2, -1):               # (a list of num: the dispatcher retries when the build refuses)
        want, got = py([1.5], n), f([1.5], n)
        assert want == got and [type(x) for x in want] == [type(x) for x in got]
    src = "def g(n):\n    return n if n > 0 else 0.5\n\ndef f(xs, n):\n    return max(len(xs), g(n) + 1)\n"
    py, f = _compile(tmp_path, src)
    for n in (2, -1, 0):            # (max compares the int|float whole, in CPython's order)
        assert f([1], n) == py([1], n) and type(f([1], n)) is type(py([1], n))
    src = "def f(xs, n):\n    x = n if n > 0 else 0.5\n    xs[0] -= x\n    return xs\n"
    py, f = _compile(tmp_path, src)
    for xs, n in (([1.5], 2), ([3], 2), ([3], -1), ([2.5], 0)):     # (list[num]: the dispatcher retries)
        want, got = py(list(xs), n), f(list(xs), n)
        assert want == got and [type(x) for x in want] == [type(x) for x in got]


# ---- generated programs ----------------------------------------------------------------------

_OPS = ["+", "-", "*", "/", "//", "%"]


@st.composite
def programs(draw):
    """A function of (c, d, a, b) whose three locals take int and float values on different
    paths, combined by operators, comparisons, max/min, abs, int/float/str and returned."""
    lines = ["def f(c, d, a, b):", "    x = a", "    y = b", "    z = 0"]
    names = ["x", "y", "z", "a", "b"]

    def operand():
        return draw(st.one_of(st.sampled_from(names), st.sampled_from(["1", "2", "0.5", "-3", "2.0"])))

    def expr(depth=0):
        kind = draw(st.integers(0, 5 if depth < 2 else 0))
        if kind == 0:
            return operand()
        if kind in (1, 2):
            return f"({expr(depth + 1)} {draw(st.sampled_from(_OPS))} {expr(depth + 1)})"
        if kind == 3:
            return f"{draw(st.sampled_from(['max', 'min']))}({expr(depth + 1)}, {expr(depth + 1)})"
        if kind == 4:
            return f"({expr(depth + 1)} if {expr(depth + 1)} {draw(st.sampled_from(['<', '==', '>=']))} " \
                   f"{expr(depth + 1)} else {expr(depth + 1)})"
        return f"{draw(st.sampled_from(['abs', 'int', 'float']))}({expr(depth + 1)})"

    for _ in range(draw(st.integers(1, 5))):
        target = draw(st.sampled_from(["x", "y", "z"]))
        guard = draw(st.sampled_from(["c", "d", "not c", None]))
        if guard is None:
            lines.append(f"    {target} = {expr()}")
        else:
            lines.append(f"    if {guard}:")
            lines.append(f"        {target} = {expr()}")
    end = draw(st.sampled_from(["(x, y, z)", "str(x) + ' ' + str(y)", "x < y", "max(x, y, z)", "x"]))
    lines.append(f"    return {end}")
    return "\n".join(lines) + "\n"


_COUNT = [0]


@settings(max_examples=20, deadline=None)
@given(programs(), st.booleans(), st.booleans(), NUMBERS, NUMBERS)
def test_generated_programs(tmp_path_factory, source, c, d, a, b):
    _COUNT[0] += 1
    path = tmp_path_factory.mktemp("p") / f"prog{_COUNT[0]}.py"
    path.write_text(source)
    ns: dict = {}
    exec(compile(source, str(path), "exec"), ns)
    want = outcome(ns["f"], (c, d, a, b))
    try:
        f = script.script(ns["f"])
        got = outcome(f, (c, d, a, b))
    except CompileError:
        return                  # a refusal is allowed; a different answer is not
    if got[0] == "raise" and issubclass(got[1], CompileError):
        return
    if want[0] == "ok" and got[0] == "ok":
        if isinstance(want[1], float) and isinstance(got[1], float) and math.isnan(want[1]):
            assert math.isnan(got[1])
            return
        assert same(want[1], got[1]), f"{source}\n{(c, d, a, b)}: CPython {want[1]!r}, compiled {got[1]!r}"
    elif want[0] == "raise" and got[0] == "raise":
        assert want[1] is got[1], f"{source}\n{(c, d, a, b)}: CPython {want}, compiled {got}"
    else:
        # a refusal of int64 overflow (OverflowError) is allowed where CPython has a big int
        assert got[0] == "raise" and got[1] is OverflowError, f"{source}\n{(c, d, a, b)}: CPython {want}, compiled {got}"


@pytest.mark.parametrize("args", [([[1, 2], [3, 4]], 2), ([[0.5, 1], [2, 0.25]], 3), ([[1, 0], [0, 1]], 0),
                                  ([[]], 1), ([], 2)])
def test_a_list_of_ints_meets_one_of_int_or_float_values(args):
    want, got = outcome(K.power_steps, args), outcome(compiled(K.power_steps), args)
    assert same_value(want, got) and [type(x) for x in want[1]] == [type(x) for x in got[1]], (want, got)


def halve_rows(m, k):
    # TheAlgorithms linear_algebra rank_of_matrix: a matrix of ints given, floats stored
    for row in m:
        for j in range(len(row)):
            row[j] = row[j] * k / 2
    return m


def normalise(xs):
    total = sum(xs)
    for i in range(len(xs)):
        if xs[i] % 2:
            xs[i] = xs[i] / total
    return xs


@settings(max_examples=12, deadline=None)
@given(st.lists(st.lists(st.integers(-50, 50), min_size=1, max_size=4), min_size=1, max_size=4),
       st.integers(-3, 3))
def test_an_int_list_argument_that_receives_floats_holds_both(m, k):
    # the dispatcher compiles it for list[list[num]] when list[list[int]] cannot take a float
    check_args(halve_rows, script.script(halve_rows), m, k)


@settings(max_examples=12, deadline=None)
@given(st.lists(st.integers(1, 50), min_size=1, max_size=6))
def test_some_items_of_an_int_list_become_floats(xs):
    check_args(normalise, script.script(normalise), xs)


def bottleneck(graph, path):
    # networking_flow's minimum cut: the smallest capacity on a path, taken off each edge
    flow = float("inf")
    for u, v in path:
        flow = min(flow, graph[u][v])
    for u, v in path:
        t = graph[u][v] - flow
        graph[u][v] = t
    return flow, graph


@settings(max_examples=12, deadline=None)
@given(st.lists(st.lists(st.integers(0, 9), min_size=3, max_size=3), min_size=3, max_size=3),
       st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2)), max_size=4))
def test_min_of_an_int_or_float_and_a_matrix_of_ints_receiving_floats(graph, path):
    check_args(bottleneck, script.script(bottleneck), graph, path)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.one_of(st.integers(-5, 5), st.sampled_from([0.5, -1.5])), min_size=1, max_size=6))
def test_a_loop_carried_list_made_by_two_displays(xs):
    check(K.ascending_runs, tuple(xs))
    check(K.ascending_runs, xs)


def test_a_str_indexed_by_an_int_or_a_float():
    """Was a CompileError ('string indices must be integers, not f64') for the float side
    of `s[10 ** i - 1]`; a str or bytes index of another type raises CPython's TypeError
    when the line runs, as a list's does."""
    s = "".join(str(i) for i in range(1, 2000))
    check(K.champernowne_digits, s, 4)
    for seq in ("abc", b"abc"):
        for x in (1, -1, 1.0, None, "a", 5):
            check(K.indexed_by, seq, x)


def dict_item_grows_by(a, k, n, x):
    d = {"a": a}
    d[k] += max(1 // n, x)              # an int or a float: the item is read first (KeyError)
    v = 2.5 if n > 1 else 1
    d[k] -= v
    return d


def array_item_grows_by(n):
    a = np.zeros(3)
    a[n] += max(1 // n, 2.5)            # the item's IndexError before the ZeroDivisionError
    return a


@settings(max_examples=40, deadline=None)
@given(st.integers(-3, 3), st.sampled_from("ab"), st.integers(-1, 2), st.sampled_from([0.5, 2.5, -3.0]))
def test_an_item_of_a_dict_grows_by_an_int_or_a_float(a, k, n, x):
    """`d[k] += v` of an int|float `v` was computed before `d[k]` was read: a ZeroDivisionError
    where CPython raises the KeyError (and a CompileError for a local `v`); the item is now
    read first and `v` stored whole, as in a list."""
    check(dict_item_grows_by, a, k, n, x)
    check(dict_item_grows_by, a, k, n, x, opt=None)


def test_an_int_or_float_operand_is_not_computed_before_its_target():
    """`a[9] += max(1 // n, 2.5)`: CPython reads `a[9]` (IndexError) before computing the
    operand; computing the operand first gave the ZeroDivisionError. Refused now, never the
    other error (an array's element takes no int|float)."""
    with pytest.raises(CompileError, match="assign it to a variable first"):
        compiled(array_item_grows_by)(0)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.floats(-9, 9, allow_nan=False), max_size=4), st.integers(0, 3))
def test_float_totals_of_nothing_are_the_int_start(xs, n):
    """`sum([])` of a float list is CPython's int 0 (and math.prod's 1), a float otherwise:
    the total is an int|float, printed and typed as CPython's."""
    check(K.float_totals, xs, n)
