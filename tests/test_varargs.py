"""`*args` and `**kwargs` parameters and `f(*t)` calls, compiled against CPython (docs/calls.md)."""

import gc
import sys

import pytest
from hypothesis import given, settings, strategies as st

import script
from difftest import check, check_all_levels, compiled

NUMS = st.lists(st.integers(-10**6, 10**6), max_size=5)


def total(x, *rest):
    s = x
    for r in rest:
        s += r
    return s, len(rest), sum(rest)


def pick(i, *rest):
    return rest[i]


def packed(*args):
    return args


def with_keyword(a, *rest, scale=2):
    return (a + sum(rest)) * scale


def calls_total(a, b, c):
    return total(a), total(a, b), total(a, b, c), total(a, b * 0.5, c)


def spreads(t):
    return total(*t), total(100, *t), pick(0, *t, 7), with_keyword(*t, scale=3)


def spread_middle(t, u):
    return packed(1, *t, 2, *u), max(*t, 0)


def strs_and_lists(s, lst):
    rest = packed(s, lst, s + "!")
    return rest[0], len(rest[1]), rest[2], packed()


def rows_through_varargs(n):
    out = 0
    for k in range(n):
        row = [k, k + 1]
        t = packed(row, [str(k)], "x" * (k % 3))
        out += len(t[0]) + len(t[1][0]) + len(t[2])
    return out


@settings(max_examples=40, deadline=None)
@given(st.integers(-100, 100), NUMS)
def test_varargs_from_python(x, rest):
    check_all_levels(total, x, *rest)
    check_all_levels(packed, *rest)
    check_all_levels(with_keyword, x, *rest)
    for i in (-1, 0, 1, 3, len(rest)):
        check(pick, compiled(pick), i, *rest)


@settings(max_examples=30, deadline=None)
@given(st.integers(-100, 100), st.integers(-100, 100), st.integers(-100, 100))
def test_varargs_from_compiled_callers(a, b, c):
    check_all_levels(calls_total, a, b, c)
    check_all_levels(spreads, (a, b, c))
    check_all_levels(spreads, (a, b))
    check_all_levels(spread_middle, (a, b), (c,))
    check_all_levels(spread_middle, (a,), ())


def test_varargs_mixed_and_keyword_forms():
    check_all_levels(total, 1, 2.5, 3)           # an int and floats meet as floats when iterated
    check_all_levels(packed, 1, "a", [1, 2], (3, 4.5))
    assert compiled(with_keyword)(1, 2, 3, scale=5) == with_keyword(1, 2, 3, scale=5)
    check_all_levels(strs_and_lists, "ab", [1.5, 2.5])
    f = compiled(packed)
    assert f(1, (2, 3)) == ((1, (2, 3)))         # a tuple argument is not mistaken for the pack
    assert f((2, 3)) == ((2, 3),)
    with pytest.raises(TypeError, match="unexpected keyword"):
        compiled(with_keyword)(1, rest=2)


def test_references_through_varargs_stay_counted():
    assert compiled(rows_through_varargs)(20000) == rows_through_varargs(20000)
    f = compiled(packed)
    arg = [10**12 + 1]
    before = sys.getrefcount(arg)
    for _ in range(1000):
        f(arg, arg)
    gc.collect()
    assert sys.getrefcount(arg) == before


def into_varargs(xs, s):
    # `*xs` of a list, a str, a range and a generator into `*rest`: a tuple of run-time length
    return (total(*xs), total(7, 8, *xs), packed(*s), packed(*range(len(xs))), total(*(x * 2 for x in xs)),
            pick(*xs) if xs else None)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(-9, 9), max_size=4), st.text("ab", max_size=3))
def test_a_list_into_varargs(xs, s):
    check(into_varargs, compiled(into_varargs), xs, s)


def kwargs_param(a, **kw):
    return a


def options(a, b=2, *rest, c=3, **opts):
    s = a + b + c + len(rest)
    for k, v in opts.items():
        s += len(k) * v
    opts["seen"] = s            # the function's own dict: nothing of the caller's changes
    return s, opts, sorted(opts)


def option_or(**kw):
    return kw.get("alpha", 0.5) * 2, len(kw), "beta" in kw


def calls_options(n):
    return options(n, x=1, yy=2), options(n, 1, 2, 3, c=n), options(n), option_or(), option_or(beta=n)


@settings(max_examples=15, deadline=None)
@given(st.integers(-9, 9), st.dictionaries(st.sampled_from(["p", "qq", "c", "b", "alpha"]),
                                           st.integers(-9, 9), max_size=3))
def test_kwargs_parameters(a, kw):
    # from Python (the keywords no parameter names, packed into a dict of strs to each call's
    # values; none: an empty one) and from compiled callers (varargs.pack_kwargs)
    _check_keywords(options, (a,), kw)
    _check_keywords(kwargs_param, (a,), kw)
    _check_keywords(option_or, (), kw)
    _check_keywords(option_or, (), {"alpha": a / 4, "beta": 1.5})
    check_all_levels(calls_options, a)


def _check_keywords(fn, args, kw):
    f = compiled(fn)
    check(lambda *a: fn(*a, **kw), lambda *a: f(*a, **kw), *args)


KW_LOG: list[float] = []


def logged(x, **opts):
    KW_LOG.append(x * 0.5 + len(opts))      # a module list written: a hidden parameter
    return len(KW_LOG), sorted(opts)


def test_kwargs_beside_a_written_module_global():
    # the hidden parameter of the written global comes before `**opts`: each keeps its own
    # hint (the module's annotation, the dict's)
    from script.dispatcher import function_info
    f = compiled(logged)
    KW_LOG.clear()
    assert f(1, a=2) == (1, ["a"]) and f(3) == (2, []) and KW_LOG == [1.5, 1.5]
    info = function_info(f)
    assert info.param_names == ["x", "KW_LOG", "opts"]
    assert [str(t) for t in info.param_hints] == ["None", "list[f64]", "dict[str, i64]"]


def test_kwargs_binding_errors_are_cpythons():
    for args, kw in (((1,), {"a": 2}), ((), {"kw": 2}), ((1, 2), {})):
        _check_keywords(kwargs_param, args, kw)


def with_default(a, b=2, *rest):
    return a + b


def spread_list(lst):
    return with_default(*lst)


def spread_mapping(d):
    return with_keyword(1, **d)


def keyword_for_star(x):
    return total(x, rest=(1, 2))


@pytest.mark.parametrize("fn, args, text", [
    (spread_list, ([1, 2],), r"\*lst fills parameters with defaults"),
    (spread_mapping, ({1: 2},), r"\*\*d in a call is not supported"),
    (keyword_for_star, (1,), "unexpected keyword argument 'rest'"),
])
def test_unsupported_forms_are_compile_errors(fn, args, text):
    with pytest.raises(script.CompileError, match=text) as e:
        script.script(fn)(*args)
    assert e.value.loc.line >= fn.__code__.co_firstlineno and e.value.loc.file == __file__


def test_saving_a_varargs_function_says_it_cannot(tmp_path):
    f = compiled(packed)
    f(1, 2)
    with pytest.raises(ValueError, match=r"\*args parameter cannot be saved"):
        script.save(f, tmp_path / "m.zip")
    g = compiled(kwargs_param)
    g(1, x=2)
    with pytest.raises(ValueError, match=r"\*\*kw parameter cannot be saved"):
        script.save(g, tmp_path / "k.zip")


def product_of(*args):
    """`for x in args` of several types: the body once per element, in order."""
    product = 1
    for number in args:
        if not isinstance(number, (int, float)):
            raise TypeError(f"Not a Number: {number}")
        product *= number
    return product


def loop_controls(*args):
    out = []
    for a in args:
        if a == "stop":
            break
        if a == 0:
            continue
        out.append(str(a))
    else:
        out.append("done")
    return out, len(out)


MIXED = st.one_of(st.integers(-5, 5), st.floats(-4, 4), st.sampled_from(["stop", "x", ""]), st.booleans())


@settings(max_examples=7, deadline=None)
@given(st.lists(MIXED, max_size=4))
def test_loops_over_tuples_of_several_types(xs):
    check_all_levels(product_of, *xs)
    check_all_levels(loop_controls, *xs)
    check_all_levels(loop_controls, 1, 2.5, *xs)
