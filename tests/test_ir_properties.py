"""Property tests: passes never change what a function computes.

Random functions from `ir_gen` run in the test interpreter before and after each pass
(and each optimization level's pipeline, with the verifier after every pass). Results,
raised exceptions and messages must agree on every input where the original is defined.
A pass that makes a defined input undefined (say, hoists a division above its check)
fails. Also: the constant folder agrees with the interpreter on every op it folds, and
random functions print -> parse -> print identically.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ir_gen import FLOAT_CONSTS, INT_CONSTS, arguments, functions, straight_line
from ir_interp import UndefinedBehavior, coerce, evaluate, outcome, same_outcome, same_value
from script.ir import types as T
from script.ir.core import Const
from script.ir.ops import CMP_PREDS
from script.ir.parser import parse_function
from script.ir.passes import PASSES, PIPELINES, run_pipeline
from script.ir.semantics import fold
from script.ir.printer import format_function

SETTINGS = settings(max_examples=50, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SPECS = [name for name in PASSES] + [f"O{level}" for level in sorted(PIPELINES)]


def _optimize(func, spec: str) -> None:
    if spec.startswith("O"):
        run_pipeline(func, int(spec[1:]), verify=True)
    else:
        run_pipeline(func, passes=[spec], verify=True)


@pytest.mark.parametrize("spec", SPECS)
@SETTINGS
@given(func=functions(), inputs=st.lists(arguments(), min_size=4, max_size=4))
def test_pass_preserves_meaning(spec, func, inputs):
    before = format_function(func)
    expected = [outcome(func, args) for args in inputs]
    _optimize(func, spec)
    after = format_function(func)
    for args, want in zip(inputs, expected):
        if want[0] in ("undefined", "step limit"):
            continue
        got = outcome(func, args)
        assert same_outcome(got, want), (
            f"{spec} changed the result for {args}: {want} became {got}\n"
            f"before:\n{before}\nafter:\n{after}")


@SETTINGS
@given(func=functions())
def test_random_functions_round_trip(func):
    text = format_function(func)
    assert format_function(parse_function(text)) == text


# --- the constant folder against the interpreter ---------------------------------------

_TYPES = (T.I64, T.I32, T.I8, T.U8, T.U64, T.F64, T.F32, T.BOOL)
_BINARY = ("add", "sub", "mul", "div", "floordiv", "mod", "pow", "and", "or", "xor",
           "shl", "shr", "min", "max")


def _consts(t: T.Type):
    if isinstance(t, T.IntType):
        special = [v for v in INT_CONSTS + (t.min, t.max, t.bits, t.bits - 1) if t.min <= v <= t.max]
        return st.one_of(st.sampled_from(special), st.integers(t.min, t.max))
    if isinstance(t, T.FloatType):
        return st.one_of(st.sampled_from(FLOAT_CONSTS + (0.1, -2.5, 1e-310)), st.floats())
    return st.booleans()


def _legal(op: str, t: T.Type) -> bool:
    """What the verifier accepts and the interpreter knows."""
    if op == "div":
        return isinstance(t, T.FloatType)
    if op in ("and", "or", "xor"):
        return not isinstance(t, T.FloatType)
    if op in ("shl", "shr"):
        return isinstance(t, T.IntType)
    return not isinstance(t, T.BoolType) or op in ("min", "max")


@st.composite
def _foldable(draw):
    kind = draw(st.sampled_from(("binary",) * 3 + ("unary", "cmp", "convert", "math")))
    t = draw(st.sampled_from(_TYPES))
    if kind == "binary":
        op = draw(st.sampled_from([o for o in _BINARY if _legal(o, t)]))
        return op, None, t, [t, t], [draw(_consts(t)), draw(_consts(t))]
    if kind == "unary":
        ops = {T.BOOL: ("not",)}.get(t) or (("neg", "abs") if isinstance(t, T.FloatType)
                                           else ("neg", "abs", "invert"))
        return draw(st.sampled_from(ops)), None, t, [t], [draw(_consts(t))]
    if kind == "cmp":
        return "cmp", draw(st.sampled_from(CMP_PREDS)), T.BOOL, [t, t], [draw(_consts(t)),
                                                                       draw(_consts(t))]
    if kind == "convert":
        dst = draw(st.sampled_from(_TYPES))
        return "convert", None, dst, [t], [draw(_consts(t))]
    ft = draw(st.sampled_from((T.F64, T.F32)))
    fn = draw(st.sampled_from(("sqrt", "fabs", "floor", "ceil", "trunc", "rint", "copysign",
                               "fmod", "remainder", "nextafter", "pow", "exp", "sin")))
    n = 2 if fn in ("copysign", "fmod", "remainder", "nextafter", "pow") else 1
    return "math", fn, ft, [ft] * n, [draw(_consts(ft)) for _ in range(n)]


@settings(max_examples=800, deadline=None)
@given(_foldable())
def test_fold_agrees_with_interpreter(case):
    op, attr, rtype, types, values = case
    args = [Const(coerce(v, t), t) for v, t in zip(values, types)]
    folded = fold(op, attr, rtype, args)
    if folded is None:
        return
    try:
        want = evaluate(op, attr, rtype, types, [a.value for a in args])
    except UndefinedBehavior:
        pytest.fail(f"folded an undefined {op}.{attr} of {values} to {folded.value}")
    assert folded.type == rtype
    assert same_value(folded.value, coerce(want, rtype)), (op, attr, values, folded.value, want)


def test_fold_refuses_undefined():
    i64 = T.I64
    assert fold("floordiv", None, i64, [Const(1, i64), Const(0, i64)]) is None
    assert fold("mod", None, i64, [Const(i64.min, i64), Const(-1, i64)]) is None
    assert fold("shl", None, i64, [Const(1, i64), Const(-1, i64)]) is None
    assert fold("pow", None, i64, [Const(2, i64), Const(-1, i64)]) is None
    assert fold("convert", None, i64, [Const(math.nan, T.F64)]) is None
    assert fold("convert", None, T.I8, [Const(200.0, T.F64)]) is None
    assert fold("div", None, T.F64, [Const(1.0, T.F64), Const(0.0, T.F64)]) is None
    assert fold("math", "sin", T.F64, [Const(1.0, T.F64)]) is None


@pytest.mark.parametrize("spec", ["constfold", "sccp", "cse", "O2"])
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_straight_line_preserves_meaning(spec, data):
    func, values = data.draw(straight_line())
    inputs = data.draw(st.lists(values, min_size=4, max_size=4))
    before = format_function(func)
    expected = [outcome(func, args) for args in inputs]
    _optimize(func, spec)
    for args, want in zip(inputs, expected):
        if want[0] == "undefined":
            continue
        got = outcome(func, args)
        assert same_outcome(got, want), (
            f"{spec} changed the result for {args}: {want} became {got}\n"
            f"before:\n{before}\nafter:\n{format_function(func)}")


def _one_op_functions(t: T.Type):
    """Every binary op legal on `t` applied to (x, y), (x, x), (x, c) and (c, x) for each
    special constant c, and every unary op on x, each as its own function of (x, y)."""
    from ir_gen import _special
    from script.ir.core import Function, Instr, set_terminator
    from script.ir.ops import ExcInfo
    is_float = isinstance(t, T.FloatType)
    binary = [o for o in _BINARY if _legal(o, t)] + ["cmp." + p for p in CMP_PREDS]
    unary = ["not"] if t == T.BOOL else ["neg", "abs"] + ([] if is_float else ["invert"])
    for op in binary + unary:
        patterns = [("x",)] if op in unary else [("x", "y"), ("x", "x")] + [
            p for c in _special(t) for p in (("x", c), (c, "x"))]
        for pattern in patterns:
            name, _, attr = op.partition(".")
            rtype = T.BOOL if name == "cmp" else t
            func = Function("one", [t, t], T.TupleType([rtype]))
            x, y = func.params
            operands = [{"x": x, "y": y}.get(p) or Const(p, t) for p in pattern]
            if name in ("floordiv", "mod", "pow", "shl", "shr") and not (
                    is_float and name in ("pow",)):
                zero = Const(0.0 if is_float else 0, t)
                bad = func.entry.append(Instr("cmp", [operands[1], zero], T.BOOL,
                                              "eq" if name in ("floordiv", "mod") else "lt"))
                func.entry.append(Instr("check", [bad], attr=ExcInfo("ValueError", None)))
            r = func.entry.append(Instr(name, operands, rtype, attr or None))
            tup = func.entry.append(Instr("tuple", [r], T.TupleType([rtype])))
            set_terminator(func.entry, "ret", [tup])
            yield func


@pytest.mark.parametrize("t", [T.I64, T.I8, T.U8, T.F64, T.F32, T.BOOL], ids=str)
def test_peepholes_on_special_values(t):
    from ir_gen import _special
    values = _special(t)
    inputs = [(a, b) for a in values for b in values]
    for func in _one_op_functions(t):
        before = format_function(func)
        expected = [outcome(func, args) for args in inputs]
        run_pipeline(func, passes=["constfold"], verify=True)
        for args, want in zip(inputs, expected):
            if want[0] == "undefined":
                continue
            got = outcome(func, args)
            assert same_outcome(got, want), (
                f"constfold changed the result for {args}: {want} became {got}\n"
                f"before:\n{before}\nafter:\n{format_function(func)}")
