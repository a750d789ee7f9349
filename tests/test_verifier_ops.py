"""The verifier's operand rules (script/ir/verifier.py `_RULES`, one per op of the table): a
malformed instruction of every op family is rejected with a message naming the op, the
function and block, and the marked line."""

import pytest

from script.errors import VerifyError
from script.ir import types as T
from script.ir.core import Const, Function, Instr, set_terminator
from script.ir.ops import OPS, ExcInfo
from script.ir.verifier import _RULES, verify_function

A1 = T.ArrayType(T.F64, 1, "C")
LIST = T.ListType(T.I64)
PAIR = T.TupleType([T.I64, T.F64])
VALUE_ERROR = ExcInfo("ValueError", None)


def build(params, op, operands, rtype=T.NONE, attr=None, before=None):
    """A function of `params` whose entry holds `before` (op, operands, type, attr) if given,
    then the instruction under test; operands are parameter indices or constants."""
    f = Function("f", list(params), T.NONE)

    def value(v):
        return f.params[v] if isinstance(v, int) else v

    if before is not None:
        f.entry.append(Instr(before[0], [value(v) for v in before[1]], before[2], before[3]))
    f.entry.append(Instr(op, [value(v) for v in operands], rtype, attr))
    set_terminator(f.entry, "ret", [])
    return f


CALLEE = Function("g", [T.I64], T.I64)
set_terminator(CALLEE.entry, "ret", [CALLEE.params[0]])

# (family, op, function): one malformed instruction of each family, some of each kind of rule.
CASES = [
    ("arith", "add", build([T.I64, T.F64], "add", [0, 1], T.I64)),
    ("arith", "div", build([T.I64, T.I64], "div", [0, 1], T.I64)),
    ("arith", "shl", build([T.F64, T.F64], "shl", [0, 1], T.F64)),
    ("arith", "and", build([T.F64, T.F64], "and", [0, 1], T.F64)),
    ("arith", "not", build([T.I64], "not", [0], T.I64)),
    ("arith", "cmp", build([T.C128, T.C128], "cmp", [0, 1], T.BOOL, "lt")),
    ("arith", "convert", build([T.C128], "convert", [0], T.F64)),
    ("arith", "select", build([T.I64, T.I64, T.I64], "select", [0, 1, 2], T.I64)),
    ("arith", "ovf", build([T.I64, T.I64], "ovf", [0, 1], T.BOOL, "add")),
    ("arith", "math", build([T.I64], "math", [0], T.I64, "sqrt")),
    ("arith", "complex", build([T.F64, T.F32], "complex", [0, 1], T.C128)),
    ("arith", "hash", build([A1], "hash", [0], T.I64)),
    ("tuple", "tuple", build([T.I64, T.F64], "tuple", [0, 1], T.TupleType([T.I64, T.I64]))),
    ("tuple", "extract", build([PAIR], "extract", [0], T.F64, 2)),
    ("tuple", "extract", build([T.I64], "extract", [0], T.I64, 0)),
    ("array", "load", build([A1, T.F64], "load", [0, 1], T.F64)),
    ("array", "store", build([A1, T.I64], "store", [0, 1, 1])),
    ("array", "dim", build([A1], "dim", [0], T.I64, 1)),
    ("array", "view", build([A1], "view", [0], T.ArrayType(T.F64, 1, "A"), "ss")),
    ("array", "alloc", build([T.F64], "alloc", [0], A1)),
    ("array", "overlap", build([A1, T.I64], "overlap", [0, 1], T.BOOL)),
    ("array", "lapack", build([T.I64], "lapack", [0], T.I64, "dpotrf")),
    ("list", "list_get", build([LIST, T.F64], "list_get", [0, 1], T.I64)),
    ("list", "list_set", build([LIST, T.F64], "list_set", [0, 1, Const(0, T.I64)])),
    ("list", "is_null", build([T.I64], "is_null", [0], T.BOOL)),
    ("str", "str_concat", build([T.STR, T.I64], "str_concat", [0, 1], T.STR)),
    ("str", "str_len", build([T.STR], "str_len", [0], T.F64)),
    ("str", "str_py", build([T.STR], "str_py", [0], T.STR, "nope")),
    ("control", "call", build([T.F64], "call", [0], T.I64, CALLEE)),
    ("control", "check", build([T.I64], "check", [0], T.NONE, VALUE_ERROR)),
    ("control", "poll", build([T.I64], "poll", [0])),
    ("control", "print", build([T.I64], "print", [0])),
    ("kernel", "atomic", build([T.ArrayType(T.BOOL, 1, "C"), T.BOOL], "atomic", [0, 1, Const(0, T.I64)],
                               T.BOOL, "add")),
    ("kernel", "sreg", build([], "sreg", [], T.I64, "lane")),
    ("kernel", "shared", build([T.I64], "shared", [0], A1)),
    ("caught", "exc_match", build([T.I64], "exc_match", [0], T.BOOL, "ValueError")),
    ("caught", "raised", build([], "raised", [], T.BOOL)),
    ("caught", "catch", build([], "catch", [], T.I64)),
    ("caught", "exception", build([T.I64], "exception", [0], T.EXC, VALUE_ERROR)),
]


@pytest.mark.parametrize("family, op, func", CASES, ids=[f"{c[0]}-{c[1]}-{k}" for k, c in enumerate(CASES)])
def test_malformed_instruction_is_rejected(family, op, func):
    assert OPS[op].family == family
    with pytest.raises(VerifyError) as e:
        verify_function(func, after="test")
    message = str(e.value)
    first = message.splitlines()[0]
    assert first.startswith("IR verification failed after test in @f: "), first
    assert first.endswith(f" (at {op} in bb0)"), first
    assert "<<< here" in message


def test_every_family_has_a_case():
    assert {op.family for op in OPS.values()} <= {c[0] for c in CASES} | {"control"}


def test_every_op_has_a_rule():
    assert all(op.rule in _RULES for op in OPS.values())


def test_complex_operands_only_where_the_table_allows():
    f = build([T.C128], "hash", [0], T.I64)
    with pytest.raises(VerifyError, match="hash of a complex number"):
        verify_function(f)
