"""str()/repr()/print/f-strings of the collections classes compiled code holds as plain dicts
and lists: where the source shows the class (a name assigned `Counter(...)`, `defaultdict(...)`,
`OrderedDict()`, `deque(...)`, or a compiled callee's result of one), the text is CPython's
(`Counter({'a': 2})` in most_common order, `defaultdict(<class 'int'>, {...})`,
`OrderedDict([...])` (a dict display from 3.12), `deque([...], maxlen=3)`), not the plain
dict's or list's; where it cannot be, a CompileError (python_classes `class_text`)."""

import collections
import re
from collections import Counter, OrderedDict, defaultdict, deque

import pytest
from hypothesis import given, settings, strategies as st

from difftest import check_all_levels
from script.errors import CompileError
import script


def counter_text(s: str) -> tuple:
    c = Counter(s)
    print(c)
    return str(c), repr(c), f"{c}", f"{c!r}", f"[{c}]"


def counter_updated(words: list) -> str:
    c = collections.Counter()
    for w in words:
        c[w] += len(w)
    return str(c)


def tally(xs: list):
    c = Counter()
    for x in xs:
        c[x % 4] += 1
    return c


def counter_from_callee(xs: list) -> str:
    c = tally(xs)
    return repr(c)


def defaultdict_texts(xs: list) -> tuple:
    a = defaultdict(int)
    b = defaultdict(list)
    d = collections.defaultdict(set)
    e = defaultdict(float)
    for x in xs:
        a[x % 3] += 1
        b[x % 2].append(x)
        d[x > 2].add(x)
        e[str(x)] += 0.5
    print(a, b)
    return str(a), str(b), repr(d), f"{e}"


def ordered(n: int) -> str:
    o = OrderedDict()
    for i in range(n):
        o[str(i)] = i * i
    return str(o)


def deques(n: int, m: int) -> tuple:
    d = deque(range(n))
    b = deque(range(n), m)
    e = collections.deque(maxlen=m)
    e.extend([1.5, 2.5, 3.5])
    print(d, b)
    return str(d), repr(b), f"{e}"


@given(st.text(alphabet="abcab ", max_size=8))
@settings(max_examples=8, deadline=None)
def test_counters(s):
    check_all_levels(counter_text, s)
    check_all_levels(counter_updated, s.split())


@given(st.lists(st.integers(-5, 9), max_size=8))
@settings(max_examples=8, deadline=None)
def test_defaultdicts_and_a_callees_counter(xs):
    check_all_levels(defaultdict_texts, xs)
    check_all_levels(counter_from_callee, xs)


@pytest.mark.parametrize("n", [0, 1, 3])
def test_ordered_dicts_and_deques(n):
    check_all_levels(ordered, n)
    for m in (0, 2, 5):
        check_all_levels(deques, n, m)


def factory_function() -> int:
    return 7


def lambda_factory(n: int) -> str:
    d = defaultdict(factory_function)
    d[n] += 1
    return str(d)


def counter_or_dict(flag: bool) -> str:
    c = Counter("ab") if flag else {"a": 1}
    return str(c)


def nested_counters(n: int) -> str:
    d = defaultdict(Counter)
    d[n]["x"] += 1
    return str(d)


@pytest.mark.parametrize("fn, args, text", [
    (lambda_factory, (1,), "str() of 'd'"),
    (counter_or_dict, (True,), "str() of 'c'"),
    (nested_counters, (1,), "defaultdict of Counter values"),
])
def test_texts_compiled_code_cannot_give_are_refused(fn, args, text):
    with pytest.raises(CompileError, match=re.escape(text)):
        script.script(fn)(*args)


def counter_or_dict_returned(flag: bool):
    return Counter("ab") if flag else {"a": 1}


def bounded_or_plain(flag: bool) -> int:
    d = deque([1, 2], 3) if flag else deque([1])
    d.append(5)
    d.append(6)
    return len(d)


def bounded_in_a_list(n: int) -> int:
    ds = [deque(range(n), 2)]
    ds[0].append(n)
    return len(ds[0])


def test_a_class_on_some_paths_only_is_refused():
    # Python would get a Counter from one branch and a dict from the other; a deque's bound
    # is kept by the name it is assigned to, so one made elsewhere would lose it (3 != 4)
    with pytest.raises(CompileError, match="returns a Counter on some paths"):
        script.script(counter_or_dict_returned)(True)
    for fn, args in ((bounded_or_plain, (True,)), (bounded_in_a_list, (3,))):
        with pytest.raises(CompileError, match="a deque with a maxlen must be assigned to a name"):
            script.script(fn)(*args)


def written(c) -> str:
    return str(c)


def passed_on(s: str) -> tuple:
    c = Counter(s)
    d = defaultdict(list)
    d[len(s)].append(s)
    return written(c), written(d)


def inner_tables(s: str) -> tuple:
    dd = defaultdict(Counter)
    ee = defaultdict(lambda: defaultdict(int))
    for ch in s:
        dd[ch.isupper()][ch] += 1
        ee[ch.lower()][ch] += 1
    return str(dd[True]), repr(dd[False]), f"{ee['a']}"


@given(st.text(alphabet="aAbB", max_size=6))
@settings(max_examples=6, deadline=None)
def test_a_callees_parameter_and_a_defaultdicts_inner_tables(s):
    # the callee is compiled for the Counter's default (table_args), so it knows the class
    check_all_levels(passed_on, s)
    check_all_levels(inner_tables, s)


def made_in_place(s: str) -> tuple:
    a = Counter(s)
    b = Counter("ab")
    print(Counter(s), deque(s))
    return str(Counter(s)), str(deque(s)), str(tally([len(s)])), str(a + b), str(a - b), f"{a | b}", \
        repr(a & b)


def summed(s: str):
    return Counter(s) + Counter("abc")


@given(st.text(alphabet="abcc", max_size=6))
@settings(max_examples=6, deadline=None)
def test_values_no_name_holds(s):
    # the text of any expression whose class the source shows (a call, an operator of two
    # Counters), not only of names; returned to Python `a + b` is a Counter too
    check_all_levels(made_in_place, s)
    got = script.script(summed)(s)
    assert type(got) is Counter and got == summed(s)


def copies(s: str) -> tuple:
    c = Counter(s)
    e = c.copy()
    e["q"] += 1
    d = defaultdict(list)
    for ch in s:
        d[ch].append(ch)
    f = d.copy()
    f["new"].append("x")            # a copy keeps its default factory
    q = deque(s)
    o = OrderedDict.fromkeys(s)
    return e["missing"], str(e), repr(c.copy()), c.copy()["nope"], str(f), repr(d.copy()), \
        str(q.copy()), repr(o.copy()), len(d)


@given(st.text(alphabet="abcc", max_size=6))
@settings(max_examples=6, deadline=None)
def test_copies_keep_their_class(s):
    # `x.copy()` of a Counter, defaultdict, deque or OrderedDict is one again: its missing keys
    # read as the default, its text the class's
    check_all_levels(copies, s)
