"""Lists of lists (and of tuples and arrays): compiled against CPython (docs/lists.md)."""

import gc
import os
import resource
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import nested_list_kernels as K
import script
from difftest import check, check_all_levels, compiled

SMALL = st.integers(-5, 5)
GRID = [[1, 2], [3, 4]]
# (A list argument without any innermost element, [[]], has no element type of its own.)
INT_ROWS = st.lists(st.lists(st.integers(-9, 9), max_size=5), min_size=1, max_size=5).filter(any)
FLOAT_ROWS = st.lists(st.lists(st.integers(-20, 20).map(lambda k: k / 4), max_size=5), min_size=1,
                      max_size=5).filter(any)


def _matrix(n, m, draw_value):
    return st.lists(st.lists(draw_value, min_size=m, max_size=m), min_size=n, max_size=n)


@st.composite
def matrix_pairs(draw):
    n, k, m = draw(st.integers(1, 4)), draw(st.integers(1, 4)), draw(st.integers(1, 4))
    value = st.integers(-8, 8).map(lambda v: v / 2)
    return draw(_matrix(n, k, value)), draw(_matrix(k, m, value))


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=8), st.lists(st.integers(0, 3), min_size=1, max_size=8))
def test_dynamic_programming_tables(a, b):
    check_all_levels(K.lcs, a, b)
    check_all_levels(K.edit_distance, a, b)
    check_all_levels(K.knapsack, [x + 1 for x in a], [float(y) for y in b + a][:len(a)], len(b))


@settings(max_examples=20, deadline=None)
@given(matrix_pairs())
def test_matrix_multiply_and_transpose(ab):
    a, b = ab
    check_all_levels(K.matmul, a, b)
    check_all_levels(K.matmul_comp, a, b)
    check_all_levels(K.transpose, a)
    check_all_levels(K.floyd, [[abs(x) for x in row] for row in a[:1] * len(a[0])])


@settings(max_examples=20, deadline=None)
@given(INT_ROWS)
def test_ragged_rows(t):
    check_all_levels(K.transpose, t)             # IndexError where a row is short, as CPython
    check_all_levels(K.row_sums, t)
    check_all_levels(K.copies, t, 0)
    check_all_levels(K.arg_total, t)
    check_all_levels(K.to_array, t)             # NumPy's ValueError for ragged rows


@settings(max_examples=20, deadline=None)
@given(FLOAT_ROWS, SMALL, SMALL)
def test_float_rows_and_reads_out_of_range(t, i, j):
    check_all_levels(K.row_sums, t)
    check_all_levels(K.read_errors, t, i, j)


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.data())
def test_grid_paths(n, m, data):
    grid = data.draw(_matrix(n, m, st.sampled_from([0, 0, 0, 1])))
    check_all_levels(K.grid_paths, grid)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 4), SMALL, SMALL, st.integers(-100, 100))
def test_inner_lists_are_references(n, i, j, v):
    check_all_levels(K.aliasing, n, i, j, v)
    check_all_levels(K.index_errors, n, i, j, v)
    check_all_levels(K.repeat_alias, n, 3, i, j)
    check_all_levels(K.rows_outlive_their_slots, v)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 8), st.integers(0, 3))
def test_building_rows(n, k):
    check_all_levels(K.pascal, n)
    check_all_levels(K.rows_append, n)
    check_all_levels(K.empty_rows, n, k)
    check_all_levels(K.grow_last, n)
    check_all_levels(K.bools_triangle, n)
    check_all_levels(K.fill_via_helper, n)
    for fn, arg in ((K.keyed, n), (K.subsets, k), (K.permutations, k), (K.tuples_holding_lists, n),
                    (K.maybe_rows, k), (K.declared_rows, k)):
        check(fn, compiled(fn, opt=0), arg)         # (at one level: their compiles are long)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 4), st.integers(0, 4), SMALL, st.integers(-3, 3), st.integers(-3, 3))
def test_comprehensions_tuples_methods_and_depth(n, m, i, j, k):
    check_all_levels(K.nested_comp, n, m)
    check_all_levels(K.tuples_in_rows, n, m)
    check_all_levels(K.methods, n, i)
    check_all_levels(K.deep, n, i, j, k)


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 3), st.integers(1, 3), st.integers(1, 3), st.integers(0, 3))
def test_arrays_from_lists_of_lists(n, m, k, i):
    check_all_levels(K.cube, n, m, k, i)        # (np.array of an empty list is 1-d: docs/lists.md)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-3, 9), max_size=60))
def test_random_edits_of_a_table(ops):
    check_all_levels(K.run_ops, [0, 0, 0] + ops)   # (the leading no-op types the argument)


def test_tolist_of_2d_arrays():
    for a in (np.arange(6).reshape(2, 3), np.arange(6.0).reshape(3, 2).T, np.zeros((0, 2)),
              np.array([[True], [False]]), np.arange(3, dtype=np.int32).reshape(3, 1)):
        check_all_levels(K.array_to_lists, a)
    a = np.arange(24).reshape(2, 3, 4)
    assert compiled(K.echo)(a.tolist()) == a.tolist() and script.script(lambda_free_tolist)(a) == a.tolist()


def lambda_free_tolist(a):
    return a.tolist()


def test_lists_of_arrays():
    for n, m in ((0, 2), (1, 1), (3, 4)):
        check_all_levels(K.arrays_in_list, n, m)


def test_list_of_lists_arguments_and_dispatch():
    f = compiled(K.arg_total)
    assert f([[1, 2], [3]]) == (6, 2, [[1, 2], [3]])
    assert f([[1.5, 2.0], [3.0]]) == (6.5, 2, [[1.5, 2.0], [3.0]])
    assert repr(f([[1.5, 2], [3]])) == repr(K.arg_total([[1.5, 2], [3]]))   # a list[list[num]]: ints stay ints
    assert f([[True], []]) == (1, 2, [[True], []])
    assert f([[]]) == (0, 1, [[]])          # no innermost element: matches what was compiled
    # ([["a"]] is a list[list[str]] now: it compiles a specialization of its own)
    for bad in ([[1], 2], [[1], [[2]]], [[True, 1]]):
        with pytest.raises(TypeError, match="not supported"):
            f(bad)
    with pytest.raises(TypeError, match=r"unsupported operand type\(s\) for \+=: 'int' and 'str'"):
        f([["a", 1]])       # a list[list[int | str]]: CPython's own TypeError where it adds the str
    assert f([[2**64]]) == K.arg_total([[2**64]])      # beyond int64: CPython runs the call
    with pytest.raises(OverflowError, match="does not fit in 64 bits"):
        compiled(K.arg_total, int_overflow="raise")([[2**64]])
    arg = [[10**12 + 1], [10**12 + 2, 3]]
    before = (sys.getrefcount(arg), sys.getrefcount(arg[0]), sys.getrefcount(arg[0][0]))
    for _ in range(500):
        assert f(arg)[2] is arg          # returned: the caller's list, as in CPython
    gc.collect()
    assert (sys.getrefcount(arg), sys.getrefcount(arg[0]), sys.getrefcount(arg[0][0])) == before

    @script.script
    def scaled(t: list[list[float]], k: float) -> list[list[float]]:
        return [[k * x for x in row] for row in t]
    assert scaled([[1.0, 2.0], [3.5]], 2) == [[2.0, 4.0], [7.0]]
    assert scaled([], 1) == []


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 5), st.data())
def test_list_of_tuples_arguments(n, data):
    # (ints or floats: a list of both is refused at the call, test_mixed_numbers.py)
    weight = st.integers(-5, 5) if data.draw(st.booleans()) else st.integers(-10, 10).map(lambda k: k / 2)
    pairs = data.draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), weight),
                               min_size=1, max_size=8))
    check_all_levels(K.edges, pairs, n)
    rows = data.draw(st.lists(st.lists(st.tuples(st.integers(-3, 3), st.tuples(
        st.integers(-3, 3).map(lambda k: k / 2), st.booleans())), max_size=3), min_size=1, max_size=3)
        .filter(any))
    check_all_levels(K.tuple_rows, rows)


def test_list_of_tuples_argument_matching():
    f = compiled(K.edges)
    assert f([(0, 1, 2)], 2)[1] == 2.0 and f([(0, 1, 2.5)], 2)[1] == 2.5
    assert set(f.signatures) >= {"(list[tuple[int, int, int]], int) -> tuple[list[int], float, "
                                 "list[list[tuple[int, int]]], list[tuple[int, int, int]]]"}
    # ([(0, 1, "a")] is a list[tuple[int, int, str]] now: a specialization of its own)
    for bad in ([(0, 1, "a"), (0, 1, 2)], [(0, 1, 2), [1, 2, 3]], [(True, 1, 1), (1, 1, 1)]):
        with pytest.raises(TypeError, match="not supported"):
            f(bad, 2)
    assert repr(f([(0, 1, 2**70)], 2)) == repr(K.edges([(0, 1, 2**70)], 2))    # CPython runs the call
    with pytest.raises(OverflowError, match="does not fit in 64 bits"):
        compiled(K.edges, int_overflow="raise")([(0, 1, 2**70)], 2)
    arg = [(0, 1, 10**12 + 1)]
    before = sys.getrefcount(arg), sys.getrefcount(arg[0]), sys.getrefcount(arg[0][2])
    for _ in range(500):
        f(arg, 2)
    gc.collect()
    assert (sys.getrefcount(arg), sys.getrefcount(arg[0]), sys.getrefcount(arg[0][2])) == before


_SCALARS = st.one_of(st.booleans(), st.integers(-3, 3), st.integers(-3, 3).map(float),
                    st.sampled_from([2**63, -2**63 - 1, "x", None]))
_LEAVES = st.one_of(_SCALARS, st.tuples(_SCALARS, _SCALARS))
_VALUES = st.recursive(_LEAVES, lambda inner: st.lists(inner, max_size=3), max_leaves=8)


@settings(max_examples=60, deadline=None)
@given(st.lists(_VALUES, max_size=4))
def test_argument_types_agree_with_the_entry_point(value):
    """Whatever the dispatcher's rule (typeinfer.list_type_of) types, the entry point's native
    check accepts and copies exactly; whatever it rejects, the call rejects."""
    from script.frontend.typeinfer import list_type_of, to_python_value
    f = compiled(K.echo)
    t = list_type_of(value)
    if t is None:
        if _has_leaf(value):
            with pytest.raises(TypeError):
                f(value)
        return
    got = f(value)
    want = to_python_value(t, value)
    assert repr(got) == repr(want) and f.signatures
    assert value == want                # (only ints became floats)


def _has_leaf(v) -> bool:
    return any(_has_leaf(x) if type(x) is list else True for x in v)


def test_writes_to_argument_lists_of_lists_are_seen_by_the_caller():
    for fn in (K.arg_write_inner, K.arg_write_alias, K.arg_write_in_callee):
        check_all_levels(fn, [[1], [2, 3]])
    check_all_levels(K.arg_shallow_ok, [[1], [2, 3]])     # a new outer list, copied rows
    t = [[1], [2]]
    row = t[0]
    got = compiled(K.arg_write_alias)(t)
    assert got[0] is row and got[1] is t[1] and row == [5]      # the caller's rows themselves


def test_unsupported_uses_are_compile_errors():
    def contains(n):
        t = [[1], [2]]
        return [n] in t

    def compare(n):
        return [[n]] == [[n]]

    def sort_rows(n):
        t = [[n], [1]]
        t.sort()
        return t

    def mixed_depth(n):
        return [[n], [[n]]]

    def int_row_in_float_table(n):
        rows: list[list[float]] = []
        rows.append([n])
        return rows

    def index_of_row(n):
        t = [[n]]
        return t.index([n])

    def write_global_row(n):
        rows = list(GRID)
        rows[n][0] = 5
        return rows

    with pytest.raises(script.CompileError) as e:
        script.script(write_global_row)(1)
    assert "test_nested_lists.py" in str(e.value), str(e.value)
    for fn in (contains, compare, index_of_row, sort_rows):   # == and < between lists (test_list_compare)
        assert script.script(fn)(1) == fn(1)
    for fn in (mixed_depth, int_row_in_float_table):    # rows of several types: a list of their union
        assert repr(script.script(fn)(1)) == repr(fn(1))


def test_global_lists_of_lists_are_read_only_copies():
    def read_global(i, j):
        return GRID[i][j] + sum(len(r) for r in GRID)

    for i, j in ((0, 1), (1, 0), (2, 0), (-1, -3)):
        check_all_levels(read_global, i, j)


@pytest.mark.slow          # (MALLOC_PERTURB_ over compiled corpora: ~20 s; the leak test stays)
def test_freed_memory_is_never_read():
    """Kernels that keep rows their lists let go, run with glibc filling freed memory
    (MALLOC_PERTURB_): a row read after its last reference went would show garbage."""
    code = ("import sys; sys.path.insert(0, 'tests')\n"
            "import nested_list_kernels as K, script\n"
            "from difftest import check\n"
            "for fn, args in ((K.rows_outlive_their_slots, (3,)), (K.pascal, (7,)),\n"
            "                 (K.run_ops, ([0, 2, 3, 3, 0, 0, 4, 1, 0, 5, 0, 2, 6, 1, 1, 9, 0, 0, 8, 0, 2],)),\n"
            "                 (K.tuple_rows, ([[(1, (2.5, True))], [], [(2, (1.0, False))]],))):\n"
            "    f = script.script(fn)\n"
            "    for _ in range(50):\n"
            "        check(fn, f, *args)\n"
            "print('ok')\n")
    env = dict(os.environ, MALLOC_PERTURB_="165")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    assert out.stdout.strip() == "ok", out.stdout[-3000:] + out.stderr[-3000:]


def _rss_kb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def test_nested_lists_are_freed():
    f = compiled(K.churn)
    g = compiled(K.raise_with_rows)
    h = compiled(K.lcs)
    f(1000)
    before = _rss_kb()
    assert f(500_000) == K.churn(500_000)
    for _ in range(5000):
        g(3)
        with pytest.raises(ValueError):
            g(5)
        h([1, 2, 3, 4, 5], [5, 4, 3, 2, 1])
    assert _rss_kb() - before < 20_000      # KB: nothing grows with the count


def test_ir_round_trip_saved_modules_and_cache(tmp_path):
    from script.ir.parser import parse_module
    from script.ir.printer import format_module
    fns = [compiled(K.arrays_in_list), compiled(K.tuples_in_rows), compiled(K.deep), compiled(K.arg_total)]
    fns[0](1, 2), fns[1](1, 1), fns[2](1, 0, 0, 0), fns[3]([[1]])
    for f in fns:
        for stage in ("ssa", "opt"):
            text = f.ir(stage)
            assert format_module(parse_module(text)) == text
    assert "list[list[list[i64]]]" in fns[2].ir("opt") and "list[f64[::1]]" in fns[0].ir("opt")
    path = tmp_path / "nested.smod"
    script.save(fns, str(path))
    code = ("import script, sys\n"
            f"m = script.load({str(path)!r})\n"
            "print(m.arg_total([[5], [6, 7]]), m.deep(2, 1, 1, 1)[1], m.arrays_in_list(1, 2)[0])\n")
    env = dict(os.environ, SCRIPT_CACHE_DIR=str(tmp_path / "cache"))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.stdout.split("\n")[0] == "(18, 2, [[5], [6, 7]]) 3 0.5", out.stderr
    src = tmp_path / "cached_rows.py"
    src.write_text("import script\n"
                   "@script.script(cache=True)\n"
                   "def rows(t):\n"
                   "    return [r[:] + [len(r)] for r in t]\n"
                   "print(rows([[1], [2, 3]]), len(rows.signatures))\n")
    runs = [subprocess.run([sys.executable, str(src)], capture_output=True, text=True, env=env) for _ in range(2)]
    assert [r.stdout for r in runs] == ["[[1, 1], [2, 3, 2]] 1\n"] * 2, runs[0].stderr + runs[1].stderr
    assert os.listdir(tmp_path / "cache")


def _tree_of_lists(tokens):
    stack = []
    out = []
    for t in tokens:
        if t == "(":
            stack.append(out)
            out = []
        elif t == ")":
            inner, out = out, stack.pop()
            out.append(inner)
        else:
            out.append(t)
    return out


def test_list_of_lists_of_its_own_kind_is_refused():
    # `out` holds lists made where `out` is made: a tree of lists, of no finite depth (the
    # typing recursed without end: a RecursionError out of the compiler)
    with pytest.raises(script.CompileError, match="lists of its own kind") as e:
        script.script(_tree_of_lists)(list("(ab)c"))
    assert "test_nested_lists.py" in str(e.value)
