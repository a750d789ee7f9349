"""Random well-formed IR functions for property tests, built through the core API.

`functions()` is a hypothesis strategy for functions `(i64, i64, f64) -> (i64, i64, f64,
f64)` written the way the frontend writes them: four mutable variables carried in SSA form
by passing all of them to every join and loop header (so many block parameters are
trivial), ops that may be undefined guarded by the `check` the frontend emits before
them, `if`s and counted loops nested two deep, constant operands often. `arguments()` draws
inputs that include the awkward values (0, -1, the extreme ints, -0.0, inf, nan).
"""

from __future__ import annotations

import math

from hypothesis import strategies as st

from script.ir import types as T
from script.ir.core import Const, Function, Instr, set_terminator
from script.ir.ops import ExcInfo
from script.ir.verifier import verify_function

I64, F64 = T.I64, T.F64
VAR_TYPES = (I64, I64, F64, F64)
PARAM_TYPES = (I64, I64, F64)
INT_CONSTS = (0, 1, -1, 2, 3, 7, 63, 64, 100, 2**63 - 1, -2**63)
FLOAT_CONSTS = (0.0, 1.0, -0.0, -1.0, 0.5, 2.0, 3.0, 1e300, math.inf, -math.inf, math.nan)
INT_BINARY = ("add", "sub", "mul", "and", "or", "xor", "min", "max",
              "floordiv", "mod", "shl", "shr", "pow")
FLOAT_BINARY = ("add", "sub", "mul", "div", "min", "max", "floordiv", "mod", "pow")
FLOAT_MATH = ("sqrt", "floor", "ceil", "trunc", "rint", "fabs")
PREDS = ("eq", "ne", "lt", "le", "gt", "ge")


class _Gen:
    def __init__(self, draw):
        self.draw = draw
        self.func = Function("gen", PARAM_TYPES, T.TupleType(VAR_TYPES))
        self.block = self.func.entry
        p = self.func.params
        self.vars = [p[0], p[1], p[2], Const(0.5, F64)]

    # values

    def operand(self, t: T.Type):
        pool = [v for v in self.vars + self.func.params if v.type == t]
        kind = self.draw(st.sampled_from(("value", "value", "const")))
        if kind == "value":
            return self.draw(st.sampled_from(pool))
        # Half the constants are identities (0, 1, -1), the operands peepholes look for.
        consts = INT_CONSTS if t == I64 else FLOAT_CONSTS
        value = self.draw(st.one_of(st.sampled_from(consts[:3]), st.sampled_from(consts)))
        return Const(value, t)

    def emit(self, op, operands, type=T.NONE, attr=None) -> Instr:
        return self.block.append(Instr(op, operands, type, attr))

    def guard(self, bad: Instr, exc: str) -> None:
        self.emit("check", [bad], attr=ExcInfo(exc, None))

    def compare(self):
        t = self.draw(st.sampled_from((I64, F64)))
        pred = self.draw(st.sampled_from(PREDS))
        return self.emit("cmp", [self.operand(t), self.operand(t)], T.BOOL, pred)

    # statements

    def assign(self) -> None:
        k = self.draw(st.integers(0, 3))
        t = VAR_TYPES[k]
        self.vars[k] = self.int_expr() if t == I64 else self.float_expr()

    def int_expr(self):
        kind = self.draw(st.sampled_from(("binary",) * 4 + ("unary", "select", "from_float",
                                                            "wrap32")))
        if kind == "unary":
            op = self.draw(st.sampled_from(("neg", "invert", "abs")))
            return self.emit(op, [self.operand(I64)], I64)
        if kind == "select":
            return self.emit("select", [self.compare(), self.operand(I64), self.operand(I64)], I64)
        if kind == "from_float":
            x = self.operand(F64)
            lo = self.emit("cmp", [x, Const(-9.2e18, F64)], T.BOOL, "ge")
            hi = self.emit("cmp", [x, Const(9.2e18, F64)], T.BOOL, "le")
            ok = self.emit("and", [lo, hi], T.BOOL)
            self.guard(self.emit("not", [ok], T.BOOL), "OverflowError")
            return self.emit("convert", [x], I64)
        if kind == "wrap32":
            narrow = self.emit("convert", [self.operand(I64)], T.I32)
            return self.emit("convert", [narrow], I64)
        op = self.draw(st.sampled_from(INT_BINARY))
        a, b = self.operand(I64), self.operand(I64)
        if op in ("floordiv", "mod"):
            self.guard(self.emit("cmp", [b, Const(0, I64)], T.BOOL, "eq"), "ZeroDivisionError")
        elif op in ("shl", "shr", "pow"):
            self.guard(self.emit("cmp", [b, Const(0, I64)], T.BOOL, "lt"), "ValueError")
        return self.emit(op, [a, b], I64)

    def float_expr(self):
        kind = self.draw(st.sampled_from(("binary",) * 4 + ("unary", "math", "select",
                                                            "from_int")))
        if kind == "unary":
            op = self.draw(st.sampled_from(("neg", "abs")))
            return self.emit(op, [self.operand(F64)], F64)
        if kind == "math":
            fn = self.draw(st.sampled_from(FLOAT_MATH))
            return self.emit("math", [self.operand(F64)], F64, fn)
        if kind == "select":
            return self.emit("select", [self.compare(), self.operand(F64), self.operand(F64)], F64)
        if kind == "from_int":
            return self.emit("convert", [self.operand(I64)], F64)
        op = self.draw(st.sampled_from(FLOAT_BINARY))
        a, b = self.operand(F64), self.operand(F64)
        if op in ("floordiv", "mod"):
            self.guard(self.emit("cmp", [b, Const(0.0, F64)], T.BOOL, "eq"), "ZeroDivisionError")
        return self.emit(op, [a, b], F64)

    def jump(self, target, args) -> None:
        set_terminator(self.block, "br", list(args), [target], [len(args)])

    def new_join(self):
        join = self.func.add_block()
        for t in VAR_TYPES:
            join.add_param(t)
        return join

    def if_(self, depth: int) -> None:
        cond = self.compare()
        then, other, join = self.func.add_block(), self.func.add_block(), self.new_join()
        set_terminator(self.block, "cbr", [cond], [then, other], [0, 0])
        saved = list(self.vars)
        for block in (then, other):
            self.block, self.vars = block, list(saved)
            self.statements(depth + 1)
            self.jump(join, self.vars)
        self.block, self.vars = join, list(join.params)

    def loop(self, depth: int) -> None:
        bound = self.draw(st.sampled_from(("const", "value")))
        if bound == "const":
            n = Const(self.draw(st.integers(0, 3)), I64)
        else:
            n = self.emit("max", [self.operand(I64), Const(0, I64)], I64)
            n = self.emit("min", [n, Const(3, I64)], I64)
        header, body, exit_ = self.new_join(), self.func.add_block(), self.func.add_block()
        counter = header.add_param(I64)
        self.jump(header, [*self.vars, Const(0, I64)])
        self.block = header
        more = self.emit("cmp", [counter, n], T.BOOL, "lt")
        set_terminator(header, "cbr", [more], [body, exit_], [0, 0])
        self.block, self.vars = body, list(header.params[:4])
        self.statements(depth + 1)
        step = self.emit("add", [counter, Const(1, I64)], I64)
        self.jump(header, [*self.vars, step])
        self.block, self.vars = exit_, list(header.params[:4])

    def statements(self, depth: int) -> None:
        kinds = ("assign",) * 3 + (("if", "loop") if depth < 2 else ())
        for _ in range(self.draw(st.integers(0, 4 if depth < 2 else 2))):
            kind = self.draw(st.sampled_from(kinds))
            if kind == "assign":
                self.assign()
            elif kind == "if":
                self.if_(depth)
            else:
                self.loop(depth)

    def finish(self) -> Function:
        result = self.emit("tuple", list(self.vars), T.TupleType(VAR_TYPES))
        set_terminator(self.block, "ret", [result])
        verify_function(self.func, after="ir_gen")
        return self.func


@st.composite
def functions(draw) -> Function:
    gen = _Gen(draw)
    gen.statements(0)
    return gen.finish()


def _ints():
    return st.one_of(st.sampled_from(INT_CONSTS), st.integers(-10, 10),
                     st.integers(-2**63, 2**63 - 1))


def _floats():
    return st.one_of(st.sampled_from(FLOAT_CONSTS), st.floats())


def arguments():
    return st.tuples(_ints(), _ints(), _floats())


# --- straight-line code on one scalar type, for the peephole rules --------------------------

SCALAR_TYPES = (T.I64, T.I32, T.U8, T.F64, T.F32)


def _special(t: T.Type):
    if isinstance(t, T.FloatType):
        return FLOAT_CONSTS
    if t == T.BOOL:
        return (False, True)
    return tuple(dict.fromkeys(t.wrap(v) for v in (0, 1, -1, 2, t.bits, t.min, t.max)))


def _values(t: T.Type):
    if isinstance(t, T.FloatType):
        return st.one_of(st.sampled_from(FLOAT_CONSTS), st.floats(width=t.bits))
    return st.one_of(st.sampled_from(_special(t)), st.integers(t.min, t.max))


@st.composite
def straight_line(draw):
    """(function (x: T, y: T) -> (T, ...) of 1-6 ops on x, y, earlier results and special
    constants, returning every result; a strategy for its inputs)."""
    t = draw(st.sampled_from(SCALAR_TYPES))
    is_float = isinstance(t, T.FloatType)
    ops = FLOAT_BINARY if is_float else INT_BINARY
    unary = ("neg", "abs") if is_float else ("neg", "abs", "invert")
    n = draw(st.integers(1, 6))
    func = Function("line", [t, t], T.TupleType([t] * n))
    entry = func.entry
    pool = list(func.params)
    results = []

    def operand():
        if draw(st.booleans()):
            return draw(st.sampled_from(pool))
        return Const(draw(st.sampled_from(_special(t))), t)

    def emit(op, operands, type=t, attr=None):
        return entry.append(Instr(op, operands, type, attr))

    for _ in range(n):
        if draw(st.integers(0, 4)) == 0:
            r = emit(draw(st.sampled_from(unary)), [operand()])
        else:
            op = draw(st.sampled_from(ops))
            a, b = operand(), operand()
            zero = Const(0.0 if is_float else 0, t)
            if op in ("floordiv", "mod"):
                bad = emit("cmp", [b, zero], T.BOOL, "eq")
                entry.append(Instr("check", [bad], attr=ExcInfo("ZeroDivisionError", None)))
            elif op in ("shl", "shr", "pow") and not is_float and t.signed:
                bad = emit("cmp", [b, zero], T.BOOL, "lt")
                entry.append(Instr("check", [bad], attr=ExcInfo("ValueError", None)))
            r = emit(op, [a, b])
        pool.append(r)
        results.append(r)
    set_terminator(entry, "ret", [emit("tuple", results, T.TupleType([t] * n))])
    verify_function(func, after="ir_gen")
    return func, st.tuples(_values(t), _values(t))
