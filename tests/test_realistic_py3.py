"""A probe corpus of real-world pure-Python functions (tests/realistic_py3.py), compiled
against CPython at opt=0 and the default level: results and raised exceptions.

What it brought in: zip(*rows) (frontend/star_zip.py), min()/max() of generators of tuples,
strs and lists, math.prod of a generator, sorting and min/max of lists of lists, list
arguments of tuples holding strs and of nested lists of strs, generator functions defined
inside the compiled function, lists first given values of a type not known yet (a monotonic
stack `stack[-1]` read before its first append)."""

import os
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

import realistic_py3 as R
import script
from difftest import check_all_levels, compiled
from script.errors import CompileError

SET = settings(max_examples=8, deadline=None)
INTS = st.integers(-30, 30)
WORD = st.text(alphabet="abcAé ", max_size=5)
WORDS = st.lists(st.text(alphabet="abé", min_size=1, max_size=5), min_size=1, max_size=6)
MATRIX = st.integers(1, 4).flatmap(lambda m: st.lists(st.lists(INTS, min_size=m, max_size=m), min_size=1, max_size=4))
RAGGED = st.lists(st.lists(INTS, max_size=4), min_size=1, max_size=5)
TEXT = st.text(alphabet="ab1 2;=.,:-xyZ!\n", max_size=30)
EDGES = st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=8)


@SET
@given(MATRIX)
def test_transposes_and_matrices(m):
    for fn in (R.transpose, R.rotate_clockwise, R.column_sums, R.spiral_order, R.sort_rows_by_sum):
        check_all_levels(fn, m)


@SET
@given(RAGGED)
def test_ragged_rows(rows):
    if any(rows):       # `[[]]` has no element type
        check_all_levels(R.transpose, rows)
        check_all_levels(R.sort_lists, rows)
        check_all_levels(R.sorted_rows, rows)


def test_empty_and_float_matrices():
    check_all_levels(R.transpose, [[1.5, 2.0], [3.0, 4.5]])
    check_all_levels(R.column_sums, [[1.5, 2.0], [3.0, 4.5]])
    check_all_levels(R.column_sums, [[1.5, 2], [3, 4]])      # a list[list[num]]: ints stay ints
    check_all_levels(R.spiral_order, [[1]])
    check_all_levels(R.transpose, [[1], [2, 3], []])     # the shortest row decides


@SET
@given(st.lists(INTS, min_size=1, max_size=8), INTS)
def test_keys_generators_and_products(xs, t):
    check_all_levels(R.best_pair, xs)                 # ValueError for one element, as CPython
    check_all_levels(R.closest_to, xs, t)
    check_all_levels(R.product_of_evens, xs)
    check_all_levels(R.kth_largest, xs, t % 10)        # IndexError past the end
    check_all_levels(R.in_band, xs, -5, 5)
    check_all_levels(R.list_surgery, xs, t)
    check_all_levels(R.find_first_square, xs)
    check_all_levels(R.search_pair, xs, t)
    check_all_levels(R.sliding_window_max, xs, t % 4 + 1)
    check_all_levels(R.daily_temperatures, xs)
    check_all_levels(R.two_sum_pairs, xs, t)
    check_all_levels(R.chunked_sums, xs, abs(t) % 4 + 1)
    check_all_levels(R.rotate_left, xs, abs(t) % 6)
    check_all_levels(R.digit_stats, t * 977)
    check_all_levels(R.mean_std, [float(x) for x in xs])


@SET
@given(st.lists(st.tuples(INTS, INTS), min_size=1, max_size=6))
def test_pairs(pairs):
    check_all_levels(R.sort_intervals, [(min(a, b), max(a, b)) for a, b in pairs])
    check_all_levels(R.sort_pairs_desc, pairs)
    check_all_levels(R.pairs_to_strings, pairs)
    check_all_levels(R.farthest_point, [(float(a), float(b)) for a, b in pairs])


@SET
@given(TEXT, st.integers(-30, 30))
def test_parsing_text(text, k):
    check_all_levels(R.parse_key_values, text)
    check_all_levels(R.parse_ints, text)
    check_all_levels(R.word_frequencies, text)
    check_all_levels(R.rle_encode, text)
    check_all_levels(R.caesar_shift, text, k)
    check_all_levels(R.banner, text[:5], abs(k))
    check_all_levels(R.find_all, text, text[2:4])
    check_all_levels(R.last_extension, text.replace(";", "/"))
    check_all_levels(R.vowel_positions, text)
    check_all_levels(R.is_anagram, text, text[::-1])
    check_all_levels(R.first_unique_char, text)
    check_all_levels(R.balanced, text.replace("a", "(").replace("b", ")").replace("x", "["))
    check_all_levels(R.palindrome_deque, text)


@pytest.mark.parametrize("line", ["a: b", "abc", ":", "a:b:c", "", " x :  y "])
def test_split_with_a_conditional_of_list_or_tuple(line):
    # `(list)[:2] if c else (a, b)`: a list and a tuple meet, a union the unpacking splits on
    check_all_levels(R.split_header, line)


@SET
@given(st.lists(st.sampled_from(["12", "ab", "+x", "-", "?", "007", "é", ""]), max_size=6))
def test_tokens(tokens):
    check_all_levels(R.classify_tokens, tokens or ["0"])
    check_all_levels(R.count_substrings, "banana12ab", tokens or ["a"])


@SET
@given(st.integers(1, 3999))
def test_roman_numerals_and_bases(n):
    check_all_levels(R.to_roman, n)
    check_all_levels(R.from_roman, R.to_roman(n))
    check_all_levels(R.base_convert, n - 2000, n % 35 + 2)
    check_all_levels(R.rle_decode, f"{n % 12}a{n % 5}b")
    check_all_levels(R.mod_pow_table, n, n * 7, n % 97 + 1)


def test_rpn_and_errors():
    check_all_levels(R.evaluate_rpn, ["2", "1", "+", "3", "*"])
    check_all_levels(R.evaluate_rpn, ["4", "13", "5", "-", "-"])
    check_all_levels(R.evaluate_rpn, ["1", "+"])                    # IndexError: pop from empty list
    check_all_levels(R.evaluate_rpn, ["1", "x"])                    # ValueError from int()
    check_all_levels(R.from_roman, "MCMXCIV")
    check_all_levels(R.from_roman, "MCQ")                           # KeyError: 'Q'
    check_all_levels(R.longest_common_prefix, ["flower", "flow", "flight"])
    check_all_levels(R.longest_common_prefix, ["a"])


@SET
@given(WORDS)
def test_words(words):
    check_all_levels(R.longest_common_prefix, words)
    check_all_levels(R.common_prefix_zip, words)
    check_all_levels(R.read_columns, words)
    check_all_levels(R.group_by_length, words)
    check_all_levels(R.sort_by_closure, words, len(words) % 2 == 0)
    check_all_levels(R.classify_tokens, words)


@SET
@given(st.lists(st.tuples(st.text(alphabet="abé", min_size=1, max_size=4), INTS), min_size=1, max_size=6))
def test_records_of_strs(rows):
    check_all_levels(R.format_table, rows)
    check_all_levels(R.name_lengths, [(n, float(v)) for n, v in rows])
    check_all_levels(R.rank_records, [(n, v, 0.5 * (v % 3)) for n, v in rows])
    check_all_levels(R.invert_dict, {v: n for n, v in rows})
    check_all_levels(R.top_scores, {n: v for n, v in rows}, 2)


def test_list_arguments_of_tuples_with_strs_are_checked_at_the_call():
    f = script.script(R.format_table)
    assert f([("a", 1)]) == R.format_table([("a", 1)])
    for bad in ([("a", 1), (2, 3)], [("a", 1), ("b", "c")], [("a", 1), ("b",)]):
        with pytest.raises(TypeError, match="tuples of numbers and strs"):
            f(bad)
    g = script.script(R.count_paths)
    grid = [["a", "b"], ["é", "😀"]]
    assert script.script(R.read_columns)(["ab", "cd"]) == R.read_columns(["ab", "cd"])
    assert g([["a", 1]]) == R.count_paths([["a", 1]])       # a list[list[int | str]]: CPython's 0
    assert script.script(R.transpose)(grid) == R.transpose(grid)


@SET
@given(st.lists(INTS, min_size=1, max_size=6), st.lists(INTS, min_size=1, max_size=6))
def test_sets_and_dicts(a, b):
    check_all_levels(R.set_algebra, a, b)
    check_all_levels(R.knapsack, [abs(x) + 1 for x in a], [abs(x) for x in b] + [0] * len(a), 10)
    check_all_levels(R.coin_change_ways, sorted({abs(x) + 1 for x in a}), abs(b[0]))


@SET
@given(st.integers(1, 6), EDGES)
def test_graphs(n, edges):
    edges = [(x % n, y % n) for x, y in edges]
    # (an empty list argument has no element type: docs/lists.md)
    check_all_levels(R.topo_sort, n, [(x, y) for x, y in edges if x < y] or [(0, 0)])
    check_all_levels(R.connected_components, n, edges)
    check_all_levels(R.dfs_order, n, edges, 0)


@SET
@given(st.lists(st.text(alphabet=".#", min_size=3, max_size=3), min_size=1, max_size=4))
def test_grid_search(grid):
    check_all_levels(R.bfs_grid, grid, 0, 0)
    check_all_levels(R.count_paths, [[1 if c == "#" else 0 for c in row] for row in grid])


@SET
@given(st.text(alphabet="ACGT", max_size=8), st.text(alphabet="ACGT", max_size=8))
def test_dynamic_programming(a, b):
    check_all_levels(R.lcs_string, a, b)


def test_recursion_and_memo():
    for n in (0, 1, 2, 30, 60):
        check_all_levels(R.fib_memo, n)
    check_all_levels(R.permutations_of, [1, 2, 3])
    check_all_levels(R.subsets, [1, 2, 3])
    check_all_levels(R.collatz_longest, 50)
    for n in (0, 2, 3, 30, 100):
        check_all_levels(R.primes_below, n)


# ---- the second batch: fixed examples, then drawn ones ---------------------------------------

SECOND = [
    (R.word_break, ("leetcode", ["leet", "code"])), (R.word_break, ("catsandog", ["cats", "dog", "and", "cat"])),
    (R.group_anagrams, (["eat", "tea", "tan", "ate", "nat", "bat"],)), (R.most_common_chars, ("mississippi", 2)),
    (R.matrix_mult, ([[1, 2], [3, 4]], [[5, 6], [7, 8]])), (R.flatten, ([[1, 2], [], [3]],)), (R.pascal, (6,)),
    (R.tokenize, ("12 + 3*(45)",)), (R.evaluate, ("2+3*4-10/3",)), (R.evaluate, ("1/0",)),
    (R.gcd_lcm, ([12, 18, 0, 8],)), (R.sieve_factor, (30,)), (R.binary_search, ([1, 3, 5, 7], 4)),
    (R.longest_increasing, ([10, 9, 2, 5, 3, 7, 101, 18],)), (R.title_case, ("the lord of the rings",)),
    (R.format_money, (-1234567,)), (R.format_money, (5,)), (R.histogram_bars, ([1, 3, 1, 2, 3, 3],)),
    (R.tuple_stats, ([(1, 2), (3, 4)],)), (R.tuple_stats, ([(1, 2)],)), (R.enumerate_tuples, ("Hi there",)),
    (R.swap_case_count, ("Hello Wörld",)), (R.interleave, ([1, 2, 3], [9])), (R.reverse_words, ("the sky  is blue",)),
    (R.is_valid_ip, ("192.168.0.1",)), (R.is_valid_ip, ("1.02.3.4",)), (R.is_valid_ip, ("a.b",)),
    (R.char_grid_neighbors, (["#.#", "...", "##."],)), (R.merge_sorted, ([1, 4, 6], [2, 3, 7, 8])),
    (R.quicksort, ([3, 6, 1, 8, 1, 9],)), (R.running_totals, ([3, -1, 4, -10, 2],)),
    (R.dict_of_tuples, ([(1, 2), (1, 2), (2, 3)],)), (R.string_tuple_sort, (["Ada Lovelace", "Alan Turing", "Grace Hopper"],)),
    (R.count_islands, (["110", "010", "001"],)), (R.power_set_sums, ([1, 2, 5],)), (R.any_all_mix, ([[1, 2], [-1], []],)),
    (R.chained, (1, 2, 30)), (R.round_and_fmt, (2.675,)), (R.bit_tricks, (37,)), (R.str_int_conv, ("1,2,-3",)),
    (R.str_int_conv, ("1,,2",)),
]


def test_dijkstra_keeps_ints_and_floats_apart_in_a_list():
    """`[d if d < math.inf else -1 for d in dist]` holds ints and floats (`math.inf` and the
    int distances): a list of `num`, so the distances print `4`, not `4.0`, as in CPython
    (this was a CompileError before lists could hold ints and floats)."""
    for args in ((4, [(0, 1, 4), (1, 2, 1), (0, 2, 7)], 0), (3, [(0, 1, 2)], 2)):
        check_all_levels(R.dijkstra, *args)


@pytest.mark.parametrize("fn, args", SECOND, ids=lambda v: getattr(v, "__name__", ""))
def test_second_batch(fn, args):
    check_all_levels(fn, *args)


@SET
@given(st.lists(INTS, min_size=1, max_size=8), st.lists(INTS, min_size=1, max_size=5))
def test_second_batch_drawn(xs, ys):
    check_all_levels(R.quicksort, xs)
    check_all_levels(R.merge_sorted, sorted(xs), sorted(ys))
    check_all_levels(R.binary_search, sorted(xs), ys[0])
    check_all_levels(R.longest_increasing, xs)
    check_all_levels(R.running_totals, xs)
    check_all_levels(R.power_set_sums, [abs(y) for y in ys])
    check_all_levels(R.interleave, xs, ys)
    check_all_levels(R.gcd_lcm, [abs(x) for x in xs])
    check_all_levels(R.bit_tricks, abs(xs[0]) + 1)
    check_all_levels(R.chained, xs[0], ys[0], len(xs))
    check_all_levels(R.tuple_stats, list(zip(xs, ys)))
    check_all_levels(R.dict_of_tuples, list(zip(xs, ys)) * 2)
    check_all_levels(R.round_and_fmt, xs[0] / 7)
    check_all_levels(R.format_money, xs[0] * 98765)


def _mutual_recursion_needs_a_type(expr):
    def parse(toks, pos):
        val, pos = atom(toks, pos)
        while pos < len(toks) and toks[pos] == "+":
            rhs, pos = atom(toks, pos + 1)
            val += rhs
        return val, pos

    def atom(toks, pos):
        if toks[pos] == "(":
            val, pos = parse(toks, pos + 1)
            return val, pos + 1
        return int(toks[pos]), pos + 1

    return parse(expr.split(), 0)[0]


def _later_sibling_reads_outer(n):
    def a(k):
        return b(k) + 1

    def b(k):
        return k * n

    return a(2)


def _even_odd(n):
    def is_even(k):
        return True if k == 0 else is_odd(k - 1)

    def is_odd(k):
        return False if k == 0 else is_even(k - 1)

    return [is_even(i) for i in range(n)]


def test_nested_functions_calling_later_ones():
    for n in (0, 1, 7):
        check_all_levels(_even_odd, n)
    with pytest.raises(script.CompileError, match="'b' is a nested function defined after 'a', which calls it, "
                                                  "and reads 'n'"):
        script.script(_later_sibling_reads_outer)(3)
    # (an existing limit of recursion through tuples of results: a clear error, not a crash)
    with pytest.raises(script.CompileError, match="cannot infer the return type of recursive function"):
        script.script(_mutual_recursion_needs_a_type)("1 + ( 2 + 3 )")


def _dict_of_dicts(words):
    by_first = {}
    for w in words:
        by_first.setdefault(w[0], {})
    return by_first


def test_dicts_of_dicts():
    # (a CompileError before dict values could be tables: tests/test_containers_more.py)
    check_all_levels(_dict_of_dicts, ["ab", "ac", "b"])


@SET
@given(st.lists(st.sampled_from(["1", "-2", " 3 ", "x", "", "4.5", "1e3", "٣", "9" * 25, "inf", "nan", "0x1"]), max_size=6))
def test_try_except_around_int_and_float(tokens):
    # int(s) and float(s) are computed by CPython (str_py): their ValueError is caught by
    # compiled code's except clauses as its own ("9" * 25: int64's documented OverflowError).
    tokens = [t for t in tokens if t != "9" * 25]
    check_all_levels(R.parse_safely, tokens or ["x"])
    for t in tokens:
        check_all_levels(R.to_number, t)
    check_all_levels(R.parse_records, [f"k{i}={t}" for i, t in enumerate(tokens)] or ["a=1"])


# ---- the constructs one by one, at their edges --------------------------------------------

def _zip_tuple_of_lists(a, b):
    return list(zip(*(a, b))), [x + y for x, y in zip(*[a, b])]


def _zip_of_arrays_rows(a):
    m = [a, a * 2.0, a[::-1]]           # (a list of arrays cannot be an argument: docs/lists.md)
    return [sum(c) for c in zip(*m)]


def _zip_with_others(a, m):
    return list(zip(a, *m))


def _zip_of_ints(a):
    return list(zip(*a))


def _minmax_strs(words):
    return min(w.upper() for w in words), max((w for w in words if len(w) > 1), default="-")


def _minmax_rows(rows):
    return max(r for r in rows), min(rows)


def test_zip_star_forms():
    check_all_levels(_zip_tuple_of_lists, [1, 2, 3], [4, 5])
    import numpy as np
    check_all_levels(_zip_of_arrays_rows, np.arange(3.0))
    with pytest.raises(script.CompileError, match=r"zip\(\) with a \*-unpacked argument among others"):
        script.script(_zip_with_others)([1], [[2]])
    with pytest.raises(script.CompileError, match=r"zip\(\*x\) of a list of i64 is not supported"):
        script.script(_zip_of_ints)([1, 2])


@SET
@given(WORDS)
def test_min_max_of_generators_of_strs(words):
    check_all_levels(_minmax_strs, words)


@SET
@given(RAGGED)
def test_min_max_of_lists(rows):
    if any(rows):
        check_all_levels(_minmax_rows, rows)


def _recursive_nested_generator(n):
    def down(k):
        if k > 0:
            yield k
            yield from down(k - 1)

    return list(down(n))


def _nested_generator_nonlocal(n):
    count = 0

    def gen():
        nonlocal count
        for i in range(n):
            count += 1
            yield i

    return sum(gen()), count


def _nested_generator_as_value(n):
    def gen():
        yield n

    g = gen()
    return next(g)


def _late_binding(n):
    scale = 1

    def gen(m):
        for i in range(m):
            yield i * scale

    out = []
    for v in gen(n):
        out.append(v)
        scale += 1
    return out, sum(gen(3)), max(gen(n), default=-1)


def test_nested_generators():
    for n in (0, 1, 4):
        check_all_levels(_late_binding, n)      # the generator reads `scale` when it runs
        check_all_levels(_nested_generator_as_value, n)     # held, then next(): held_generators.py
    for fn, text in ((_recursive_nested_generator, "recursive generator 'down'"),
                     (_nested_generator_nonlocal, "may not assign 'nonlocal' variables")):
        with pytest.raises(script.CompileError, match=text) as e:
            script.script(fn)(3)
        assert "test_realistic_py3.py" in str(e.value)


# ---- memory: the new forms, many times, with freed memory filled -------------------------------

_MEMORY = r"""
import resource, sys
sys.path.insert(0, "tests")
import realistic_py3 as R
import script
W = ["flower", "flow", "flight", "é😀x", "fl"]
cases = [(R.transpose, ([[1, 2, 3], [4, 5, 6]],)), (R.common_prefix_zip, (W,)), (R.read_columns, (W,)),
         (R.sorted_rows, ([[3, 1], [1, 2, 3], [1, 2], []],)), (R.rank_records, ([(w, len(w), 1.5) for w in W],)),
         (R.format_table, ([(w, 7) for w in W],)), (R.chunked_sums, (list(range(40)), 3)),
         (R.primes_below, (60,)), (R.best_pair, (list(range(12)),)), (R.daily_temperatures, ([5, 3, 8, 1, 9],)),
         (R.two_sum_pairs, (list(range(20)), 11)), (R.word_frequencies, (" ".join(W * 3),)),
         (R.bfs_grid, (["...", ".#.", "..."], 0, 0)), (R.name_lengths, ([(w, 1.0) for w in W],)),
         (R.parse_safely, (["1", "x", "2", "yé"] * 5,)), (R.to_number, ("zz" * 20,)),
         (R.parse_records, (["a=1", "b=x", "c=3"],)), (R.evaluate, ("2+3*4-10/3",))]
fs = [(script.script(f), f, a) for f, a in cases]

def run(n):
    for _ in range(n):
        for g, f, a in fs:
            g(*a)

run(30)
r0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
run(int(sys.argv[1]))
for g, f, a in fs:
    assert g(*a) == f(*a), f.__name__
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - r0)
"""


def _run_child(n: int, **env) -> int:
    out = subprocess.run([sys.executable, "-c", _MEMORY, str(n)], capture_output=True, text=True,
                         env=dict(os.environ, **env), cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    return int(out.stdout.split()[-1])


@pytest.mark.slow          # (MALLOC_PERTURB_ over compiled corpora: ~20 s; the leak test stays)
def test_freed_memory_is_never_read():
    _run_child(50, MALLOC_PERTURB_="165")


def test_nothing_leaks():
    # Each round makes ~30 KB of lists, strs and tuples: 3000 rounds leaking would be ~90 MB.
    assert _run_child(3000) < 20_000


def _method_keys(words):
    ws = list(words)
    ws.sort(key=str.upper, reverse=True)
    return sorted(words, key=str.lower), min(words, key=str.casefold), max(words, key=str.isupper), ws


@SET
@given(WORDS)
def test_str_methods_as_keys(words):
    check_all_levels(_method_keys, [w.title() if len(w) % 2 else w for w in words])
