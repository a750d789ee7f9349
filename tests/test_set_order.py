"""Compiled sets iterate in CPython's order (issue 20): set programs on hypothesis draws,
`list(s)`, the set returned, its text and `pop`'s choices compared with CPython's, for int
(negative, large, -1), float, str (CPython's salted hash), tuple and bool elements. The
kernels are in tests/set_order_kernels.py; a set is compared by its order too (`ordered`).
"""

import math

import script
from hypothesis import given, settings, strategies as st

import set_order_kernels as K
from difftest import compiled, outcome, same_value

INTS = st.one_of(st.integers(-20, 40), st.sampled_from([-1, -2, 2**61 - 1, 2**61, -2**61 + 1, 2**63 - 1,
                                                          -2**63, 8, 16, 24, 32, 1024, 2**40]),
                 st.integers(-2**63, 2**63 - 1))
FLOATS = st.one_of(st.sampled_from([0.0, -0.0, 1.5, -2.25, 1e300, math.inf, -math.inf, 3.0, -1.0, 0.1, 2.0**61]),
                   st.floats(allow_nan=False, width=64))
STRS = st.text(alphabet=st.sampled_from("abcxyzé€😀"), max_size=12)
TUPLES = st.tuples(st.integers(-5, 5), STRS)
ELEMENTS = [INTS, FLOATS, STRS, TUPLES, st.booleans()]
OPS = st.lists(st.tuples(st.integers(0, 3), st.integers(0, 40)), min_size=1, max_size=60)   # (an empty list has no type)


def ordered(a, b) -> bool:
    """Equal values of equal types, sets and their elements in the same order."""
    if isinstance(a, (set, frozenset)) or isinstance(b, (set, frozenset)):
        return type(a) is type(b) and ordered(list(a), list(b))
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return type(a) is type(b) and len(a) == len(b) and all(ordered(x, y) for x, y in zip(a, b))
    return same_value(a, b)


def check(fn, *args, opt=0):
    want = outcome(fn, args)
    got = outcome(compiled(fn, opt=opt) if opt is not None else compiled(fn), args)
    if want[0] == "ok" and got[0] == "ok":
        assert ordered(want[1], got[1]), f"{fn.__name__}{args}: CPython {want[1]!r}, compiled {got[1]!r}"
    else:
        assert want == got, f"{fn.__name__}{args}: CPython {want}, compiled {got}"


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_adds_discards_pops(data):
    kind = data.draw(st.sampled_from(ELEMENTS[:4]))
    xs = data.draw(st.lists(kind, min_size=1, max_size=40))
    check(K.build, data.draw(OPS), xs)


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_construction(data):
    kind = data.draw(st.sampled_from(ELEMENTS))
    xs = data.draw(st.lists(kind, min_size=1, max_size=60))
    check(K.from_list, xs)
    check(K.literal, *data.draw(st.tuples(kind, kind, kind)))
    check(K.walk, xs)
    check(K.pops, xs, data.draw(st.integers(0, 8)))


@settings(max_examples=15, deadline=None)
@given(st.data())
def test_set_operations(data):
    kind = data.draw(st.sampled_from(ELEMENTS[:4]))
    xs = data.draw(st.lists(kind, min_size=1, max_size=50))
    ys = data.draw(st.one_of(st.lists(kind, min_size=1, max_size=50),
                             st.lists(st.sampled_from(xs), min_size=1, max_size=50)))
    check(K.combine, xs, ys)
    check(K.methods, xs, ys)
    check(K.in_place, xs, ys, data.draw(st.integers(0, 7)))


@settings(max_examples=20, deadline=None)
@given(st.lists(STRS, min_size=1, max_size=20), st.lists(FLOATS, min_size=1, max_size=30))
def test_strings_and_sums(words, xs):
    check(K.join, words)
    check(K.float_sum, xs)


@settings(max_examples=20, deadline=None)
@given(st.data())
def test_arguments_keep_their_layout(data):
    kind = data.draw(st.sampled_from(ELEMENTS[:4]))
    xs = data.draw(st.lists(kind, min_size=1, max_size=40))
    s = set(xs)
    for x in data.draw(st.lists(st.sampled_from(xs), max_size=10)):
        if len(s) > 1:              # (an empty set argument has no element type)
            s.discard(x)            # (dummies the copy must keep)
    check(K.argument, s)
    check(K.argument_ops, s, set(data.draw(st.lists(kind, min_size=1, max_size=20))))


@settings(max_examples=30, deadline=None)
@given(st.one_of(INTS, FLOATS, STRS, TUPLES, st.booleans()))
def test_hash_is_cpythons(x):
    check(K.hashes, x)


def test_default_level():
    check(K.build, [(0, i) for i in range(40)] + [(1, i) for i in range(0, 40, 3)] + [(2, 0)] * 5,
          [i * 37 % 101 - 50 for i in range(40)], opt=None)
    check(K.combine, ["a", "b", "c", "é", "😀"], ["b", "x"], opt=None)


def test_first_call_keeps_a_set_of_tuples():
    """The call that compiles passes the caller's set of tuples itself, not a set rebuilt
    from converted elements (whose order, after these discards, is another)."""
    xs = [(-1, 6), (-4, 26), (1, -10), (4, -20), (-1, -27), (-2, -27), (-5, 28), (5, -17), (2, -42),
          (-4, 36), (-3, -31), (-5, -40), (3, 37), (1, 40), (3, -15), (3, -20), (-2, 36), (4, 3),
          (4, -15), (2, 13)]
    s = set(xs)
    for x in [(-5, -40), (1, -10), (-3, -31), (4, -20), (3, -20), (-4, 36), (4, 3), (-2, -27),
              (-2, 36), (2, 13)]:
        s.discard(x)
    f = script.script(K.argument)       # a fresh one: this call compiles it
    assert ordered(f(s), K.argument(s))
