"""Generator functions (`yield`) and generator expressions, inlined where they are iterated:
compiled against CPython (results and raised exceptions), and the forms that are CompileErrors."""

import resource

import pytest
from hypothesis import given, settings, strategies as st

import generator_kernels as K
import script
from difftest import check, check_all_levels, compiled

XS = st.lists(st.integers(-20, 20), min_size=1, max_size=12)     # (an empty list argument has no type)
NS = st.integers(0, 25)


@settings(max_examples=40, deadline=None)
@given(XS, NS)
def test_examples_from_the_brief(xs, n):
    check_all_levels(K.use, n)
    check_all_levels(K.use2, xs)          # max() of no evens: ValueError as in CPython
    check_all_levels(K.misc, xs)


@settings(max_examples=40, deadline=None)
@given(st.text(alphabet="abAB ,.1", max_size=12))
def test_genexpr_into_str_join(s):
    check_all_levels(K.pal, s)
    check_all_levels(K.join_words, s)


@settings(max_examples=40, deadline=None)
@given(XS, st.integers(-4, 8), NS, st.integers(-2, 30))
def test_break_continue_else_and_return_in_the_consumer(xs, stop, n, k):
    check_all_levels(K.for_else, xs, stop)
    check_all_levels(K.for_else_while, n, k)
    check_all_levels(K.return_inside, xs, stop)
    check_all_levels(K.infinite, n)       # a `while True` generator the consumer stops


@settings(max_examples=30, deadline=None)
@given(XS, NS, st.integers(-1, 8))
def test_nested_loops_consumed_twice_and_interleaving(xs, n, stop):
    check_all_levels(K.nested_consumers, xs)
    check_all_levels(K.twice, xs)
    check_all_levels(K.interleaving, n % 8, stop)     # the generator's and the consumer's steps alternate
    check_all_levels(K.shadowing, xs)
    check_all_levels(K.stored, n)          # g = gen(...) iterated once by a later for loop
    check_all_levels(K.stored_late_args, xs, n - 5)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-3, 3), min_size=1, max_size=8), st.integers(0, 8))
def test_exceptions_raised_in_the_generator(xs, k):
    check_all_levels(K.inverse_sum, xs)                # ValueError with its message, or ZeroDivisionError
    check_all_levels(K.inverse_prefix, xs, k)          # no exception when the consumer stops first
    check_all_levels(K.caught_in_consumer, xs)
    check_all_levels(K.consumer_raise_not_caught_by_generator, xs)
    check_all_levels(K.index_in_generator, xs, k - 4)  # IndexError at the generator's line


@settings(max_examples=40, deadline=None)
@given(XS, NS, st.integers(-3, 3))
def test_zip_enumerate_and_yield_from(xs, n, start):
    check_all_levels(K.zipped, xs, n)
    check_all_levels(K.zip_order, xs, n % 6)           # which generator steps happen, as CPython's zip
    check_all_levels(K.zip_else, xs, n % 6)
    check_all_levels(K.enumerated, xs, start)
    check_all_levels(K.yield_from, xs, n % 5)


@settings(max_examples=20, deadline=None)
@given(XS, NS)
def test_every_consumer(xs, n):
    check_all_levels(K.reductions, xs)
    check_all_levels(K.sets_and_dicts, xs)
    check_all_levels(K.extend_and_comprehensions, xs, n % 8)
    check_all_levels(K.defaults_and_keywords, xs)
    check_all_levels(K.floats, n % 10)
    check_all_levels(K.lists_from_generator, n)
    check_all_levels(K.typed_per_yield, n % 6)
    check_all_levels(K.use_lambdas, xs, n - 12)
    check_all_levels(K.use_mapped, xs)      # functions passed to a generator's parameters


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 8))
def test_unpacking_membership_and_unbound_locals(n):
    check_all_levels(K.use_maybe_unbound, n)
    check_all_levels(K.unpack_and_contains, n)
    check_all_levels(K.unpack_star_and_contains, n)


def fib_through_module(n):
    return [x for x in K.fib_gen(n)], sum(K.halves(n))


@pytest.mark.parametrize("n", [0, 1, 2, 7])
def test_annotated_generators_and_module_attributes(n):
    check_all_levels(fib_through_module, n)


def test_script_decorated_generator():
    f = compiled(K.script_generator)
    for n in range(8):
        want = sum(i * i for i in range(n)), [i * i for i in range(n) if i * i % 2 == 1]
        assert f(n) == want
    # Called from Python it is a clear error: a compiled function cannot return a generator.
    with pytest.raises(script.CompileError, match="'squares' is a generator function.*cannot be called from Python"):
        K.squares(3)


def test_errors_in_the_generator_body_point_at_its_line():
    with pytest.raises(script.CompileError) as e:
        compiled(K.use_typed_wrong)([1])
    line = next(i for i, t in enumerate(open(K.__file__), 1) if 'yield x + exec("x")' in t)
    assert f"generator_kernels.py:{line}:" in str(e.value)


@pytest.mark.parametrize("fn, args, text", [
    (K.returned, (3,), "a generator object cannot be returned"),
    (K.genexpr_value, ([1],), "a generator expression can only be iterated where it is made"),
    (K.reversed_gen, ([1],), "'generator' object is not reversible"),
    (K.use_sender, (3,), r"the value of a 'yield' expression \(generator.send\)"),
    (K.use_rec, (3,), r"recursive generator 'rec_gen' \(it iterates itself\) is supported in compiled "
                      "code only where all its items are taken at once"),
    (K.use_finally, ([1],), "'yield' inside a 'try' that has a 'finally'"),
    (K.lambda_to_generator, ([1],), "a lambda or nested function passed to a generator is not supported"),
])
def test_unsupported_forms_are_compile_errors_at_the_line(fn, args, text):
    with pytest.raises(script.CompileError, match=text) as e:
        compiled(fn)(*args)
    assert "generator_kernels.py:" in str(e.value)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 12), st.integers(0, 5), st.integers(1, 3))
def test_islice_and_next_ask_no_more_items_than_cpython(n, start, step):
    # endless generators: islice() and next() walk them lazily, as CPython does
    check_all_levels(K.sliced_endless, n, start, step)


@settings(max_examples=30, deadline=None)
@given(XS, st.integers(-20, 20))
def test_next_of_a_generator(xs, t):
    check_all_levels(K.firsts, xs, t)


def _rss_kb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def test_generators_of_lists_run_in_bounded_memory():
    f = compiled(K.lists_from_generator)
    g = compiled(K.index_in_generator)
    h = compiled(K.row_churn)
    f(100)
    h(100)
    before = _rss_kb()
    assert f(300_000) == K.lists_from_generator(300_000)
    assert h(200_000) == K.row_churn(200_000)
    for _ in range(20000):
        assert g([1, 2, 3], 1) == [2]
        with pytest.raises(IndexError):
            g([1, 2, 3], 7)
    assert _rss_kb() - before < 20_000      # KB: nothing grows with the count


def test_ir_round_trip():
    from script.ir.parser import parse_module
    from script.ir.printer import format_module
    f = compiled(K.zip_order)
    f([1, 2], 3)
    for stage in ("ssa", "opt"):
        text = f.ir(stage)
        assert format_module(parse_module(text)) == text


def _first_of(d, s, xs):
    # next(iter(x)): the first key of a dict, element of a set or list, item of a view
    k = next(iter(d), "none")
    v = next(iter(d.values()), -1.0)
    return k, v, next(iter(s), 0), next(iter(sorted(xs))), next(iter(d.items()), ("", 0.0))


def _first_or_stop(s):
    return next(iter(s))


@settings(max_examples=30, deadline=None)
@given(st.dictionaries(st.text("abc", max_size=2), st.floats(-5, 5), min_size=1, max_size=3),
       st.sets(st.integers(-3, 3), max_size=3), st.lists(st.integers(-9, 9), min_size=1, max_size=4))
def test_next_of_iter_is_the_first_element(d, s, xs):
    check_all_levels(_first_of, d, s, xs)


@pytest.mark.parametrize("s", ["", "ab"])
def test_next_of_iter_of_an_empty_str_is_stop_iteration(s):
    check_all_levels(_first_or_stop, s)


def _primes():
    n = 2
    while True:
        if all(n % p for p in range(2, n) if p * p <= n):
            yield n
        n += 1


def _while_calls(n, xs, s):
    from itertools import dropwhile, takewhile
    below = sum(takewhile(lambda x: x < n, _primes()))          # an endless generator: stops
    head = list(takewhile(lambda x: x > 0, xs))
    tail = [x for x in dropwhile(lambda x: x > 0, xs)]
    word = "".join(dropwhile(str.isspace, s))
    return below, head, tail, word, max(takewhile(lambda v: v != 0, xs), default=-1)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 60), st.lists(st.integers(-3, 5), max_size=6), st.text(" ab", max_size=5))
def test_takewhile_and_dropwhile(n, xs, s):
    check_all_levels(_while_calls, n, xs, s)


def _next_of_makers(nth, xs):
    import itertools
    p = next(itertools.islice(_primes(), nth - 1, nth))          # the nth prime, asking no more
    return (p, next(map(abs, xs), 0), next(filter(lambda x: x > 2, xs), None),
            next(zip(xs, xs[1:]), (0, 0)), next(enumerate(xs), (-1, 0)), next(reversed(xs), 0),
            next(itertools.count(nth)), next(itertools.pairwise(xs), (0, 0)))


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 30), st.lists(st.integers(-5, 5), max_size=4))
def test_next_of_a_new_iterator_is_its_first_item(nth, xs):
    check_all_levels(_next_of_makers, nth, xs)


def _split_words_of_two_arguments(text, sep):
    n = 0
    for w in text.split(sep, 1):
        n += len(w)
    return n + len(next(iter(text.split(sep, 1))))


def _gets_with_a_default(d, k):
    total = 0
    for x in d.get(k, [5, 6]):
        total += x
    return total


def test_method_calls_of_two_arguments_are_not_taken_for_takewhile():
    """A call of two arguments whose callee is a local's method (`text.split(sep, 1)`,
    `d.get(k, [])`) is asked whether it is takewhile/dropwhile or an iterator maker without
    evaluating the bound method (was a CompileError: "the bound method 'str.split' is not a
    value")."""
    check(_split_words_of_two_arguments, compiled(_split_words_of_two_arguments), "ab cd ef", " ")
    check(_split_words_of_two_arguments, compiled(_split_words_of_two_arguments), "ab,cd", ",")
    check(_gets_with_a_default, compiled(_gets_with_a_default), {1: [1, 2]}, 1)
    check(_gets_with_a_default, compiled(_gets_with_a_default), {1: [1, 2]}, 2)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.lists(st.integers(-5, 5), max_size=4), max_size=4), st.integers(-5, 5))
def test_stop_iteration_of_a_called_function_is_runtime_error(rows, t):
    check_all_levels(K.firsts_over, rows, t)
