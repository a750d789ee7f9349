"""Array productions: arrays made in the program (allocation, `*_like`, `arange`, `linspace`,
copies, `reshape`, `astype`), element-wise expressions on arrays and scalars (operators,
comparisons, `& | ^ ~`, ufuncs, `np.where`, `np.clip`, broadcasting of compatible and
incompatible shapes), in-place forms (`a += e`, `a[1:] *= 2`, `out[i, :] = e`), boolean-mask
and integer-array indexing, reductions (whole and along an axis), `cumsum` and products.

An array-valued expression of any type is drawn from `EXPR["anyarray"]`: a production there
is `fn(gen, ctx, depth) -> (ast.expr, ArrayT) | None`. The result's dtype is NumPy's own:
`result_type` applies the real NumPy function to small dummy operands (arrays of the right
dtype and rank, Python scalars standing for the generated scalars, weak as in NEP 50), and a
result of a dtype compiled code does not have (float16, from `np.sqrt` of an int8 array) makes
the production not apply.

Three things keep the comparison exact where CPython and compiled code may rightly differ
(docs/language.md "Differences from CPython", docs/arrays.md):

- `exp`/`log`/`tanh`, float products (`@`, `np.dot`: BLAS's order) and float sums/means of
  arrays of two or more dimensions (strided or transposed: another summation order) set
  `gen.approx`; the program then says `APPROX = True` and runner.py compares its floats within
  a few ulps;
- a float `min`/`max`/`minimum`/`maximum`/`clip` result gets `+ 0.0`, since NumPy's SIMD
  loops may return either zero when they meet both `0.0` and `-0.0`;
- views whose aliasing may differ (`reshape`/`ravel` of a non-contiguous array: NumPy views
  where it can, compiled code copies) are only operands, never bound to a name, and a helper
  (whose array parameters may be views of one array, assumed not to overlap in compiled code)
  writes into an array only what is computed from that array itself.

Ints stay small (shapes below 6, fill values `% 100`), so that few programs overflow.
"""

from __future__ import annotations

import ast

import numpy as np

from .exprs import EXPR, binop, bounded, call, const, index, name, production
from .kinds import BOOL, DTYPES, FLOAT, INT, ArrayT, elem_kind
from .stmts import production as statement, store

EXPR["anyarray"] = []
SUPPORTED = frozenset(("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                       "uint64", "float32", "float64"))
MAX_ARRAY_DEPTH = 2

BINOPS = {ast.Add: np.add, ast.Sub: np.subtract, ast.Mult: np.multiply, ast.Div: np.true_divide,
          ast.FloorDiv: np.floor_divide, ast.Mod: np.remainder, ast.Pow: np.power,
          ast.BitAnd: np.bitwise_and, ast.BitOr: np.bitwise_or, ast.BitXor: np.bitwise_xor}
CMPOPS = {ast.Lt: np.less, ast.LtE: np.less_equal, ast.Gt: np.greater, ast.GtE: np.greater_equal,
          ast.Eq: np.equal, ast.NotEq: np.not_equal}
UFUNCS_1 = ("sqrt", "exp", "log", "tanh", "abs")
INEXACT = ("exp", "log", "tanh")
REDUCTIONS = ("sum", "prod", "min", "max", "mean", "argmin", "argmax", "any", "all")


def any_array(g, ctx, depth):
    """(node, ArrayT) of some array-valued expression, or None."""
    if depth > MAX_ARRAY_DEPTH:
        return _variable(g, ctx)
    return g._draw(EXPR["anyarray"], ctx, depth)


def anyarray(weight: float):
    return production("anyarray", weight)


# ---- helpers ---------------------------------------------------------------------------------

def np_attr(attr: str) -> ast.Attribute:
    return ast.Attribute(name("np"), attr, ast.Load())


def dtype_node(dtype: str) -> ast.Attribute:
    return np_attr("bool_" if dtype == "bool" else dtype)


def np_call(fn: str, *args, **keywords) -> ast.Call:
    node = call("np." + fn, *args)
    node.keywords = [ast.keyword(k, v) for k, v in keywords.items()]
    return node


def method(obj, meth: str, *args, **keywords) -> ast.Call:
    return ast.Call(ast.Attribute(obj, meth, ast.Load()), list(args),
                    [ast.keyword(k, v) for k, v in keywords.items()])


def _dummy(t):
    if isinstance(t, ArrayT):
        return np.ones((2,) * t.ndim, dtype=t.dtype)
    return {INT: 3, FLOAT: 1.5, BOOL: True}[t]


def result_type(fn, *operands):
    """The ArrayT of `fn(*operands)` in NumPy (operands: ArrayT or a scalar kind), or None
    when NumPy rejects it or the result is not an array of a dtype compiled code has."""
    try:
        with np.errstate(all="ignore"):
            r = fn(*[_dummy(t) for t in operands])
    except Exception:  # noqa: BLE001 - NumPy says no (a TypeError, say): not a production
        return None
    if not isinstance(r, np.ndarray) or r.ndim == 0 or str(r.dtype) not in SUPPORTED:
        return None
    return ArrayT(str(r.dtype), r.ndim)


def _variable(g, ctx, pred=lambda t: True):
    names = [n for n in ctx.arrays() if pred(ctx.types[n])]
    if not names:
        return None
    n = g.rng.choice(names)
    return name(n), ctx.types[n]


def small_int(g, ctx, depth, hi: int = 5):
    """A small int: a constant, `e % hi`, a length in scope."""
    rng = g.rng
    r = rng.random()
    arrays = ctx.arrays()
    if r < 0.35 and arrays:
        a = rng.choice(arrays)
        t = ctx.types[a]
        if rng.random() < 0.5:
            return call("len", name(a))
        return index(ast.Attribute(name(a), "shape", ast.Load()), const(rng.randrange(t.ndim)))
    if r < 0.75:
        return const(rng.randrange(hi))
    if r < 0.95:
        return bounded(g, ctx, depth, hi)
    return binop(bounded(g, ctx, depth, hi), ast.Sub(), const(1))      # may be -1


def shape_node(g, ctx, depth, ndim: int):
    dims = [small_int(g, ctx, depth) for _ in range(ndim)]
    if ndim == 1 and g.rng.random() < 0.6:
        return dims[0]
    return ast.Tuple(dims, ast.Load())


def scalar_for(g, ctx, depth, dtype: str, kind=None):
    """A Python scalar to combine with an array of `dtype` (kind: INT, FLOAT or BOOL). Ints
    that meet a narrow int array are small (NumPy raises OverflowError for a Python int
    beyond the array's type, tried now and then)."""
    rng = g.rng
    kind = kind or elem_kind(dtype)
    if kind == BOOL:
        return g.expr(ctx, BOOL, depth + 1)
    if kind == FLOAT:
        return g.expr(ctx, FLOAT, depth + 1) if rng.random() < 0.6 else const(rng.choice((0.5, 2.0, -1.5, 3.0)))
    if dtype in ("int64", "float64", "float32") or rng.random() < 0.03:
        return g.expr(ctx, INT, depth + 1)
    if rng.random() < 0.6:
        return const(rng.randrange(10))
    return binop(g.expr(ctx, INT, depth + 1), ast.Mod(), const(100))


def scalar_kind_for(rng, dtype: str):
    kind = elem_kind(dtype)
    if kind == BOOL:
        return rng.choice((BOOL, BOOL, INT))
    if kind == INT:
        return rng.choice((INT, INT, INT, FLOAT))
    return rng.choice((FLOAT, FLOAT, INT))


def operand(g, ctx, depth, pred=lambda t: True):
    """An array operand: a variable in scope, another array expression or a new array."""
    r = g.rng.random()
    got = None
    if r < 0.55:
        got = _variable(g, ctx, pred)
    elif r < 0.85:
        got = any_array(g, ctx, depth + 1)
    else:
        got = alloc_simple(g, ctx, depth + 1)
    if got is None or not pred(got[1]):
        got = _variable(g, ctx, pred)
    return got


def partner(g, ctx, depth, node, t: ArrayT):
    """A second array operand for `node`: mostly of a compatible shape (itself, reversed, a
    row that broadcasts), sometimes any array (shapes may not broadcast)."""
    rng = g.rng
    r = rng.random()
    if r < 0.3:
        return node, t
    if r < 0.45:
        return index(node, ast.Slice(None, None, const(-1))), t
    if r < 0.6 and t.ndim >= 2:
        return index(node, const(0)), ArrayT(t.dtype, t.ndim - 1)
    if r < 0.7:
        return np_call("ones_like", node), t
    return operand(g, ctx, depth) or (node, t)


def float_zero_sign(node, t: ArrayT | None):
    """`node + 0.0` for a float result that may be either zero (see the module docstring)."""
    if t is None or t.dtype.startswith("float"):
        return binop(node, ast.Add(), const(0.0))
    return node


# ---- allocation ------------------------------------------------------------------------------

def alloc_simple(g, ctx, depth):
    rng = g.rng
    ndim = rng.choice((1, 1, 2, 3))
    fn = rng.choice(("zeros", "ones", "full"))
    dtype = rng.choice(DTYPES) if rng.random() < 0.7 else None
    args = [shape_node(g, ctx, depth, ndim)]
    kw = {"dtype": dtype_node(dtype)} if dtype else {}
    if fn == "full":
        kind = elem_kind(dtype) if dtype else rng.choice((INT, FLOAT, BOOL))
        args.append(scalar_for(g, ctx, depth, dtype or "int8", kind))
        if dtype is None:
            dtype = {INT: "int64", FLOAT: "float64", BOOL: "bool"}[kind]
    return np_call(fn, *args, **kw), ArrayT(dtype or "float64", ndim)


anyarray(2.5)(alloc_simple)


@anyarray(1.5)
def alloc_like(g, ctx, depth):
    got = _variable(g, ctx)
    if got is None:
        return None
    node, t = got
    rng = g.rng
    fn = rng.choice(("zeros_like", "ones_like", "full_like"))
    dtype = rng.choice(DTYPES) if rng.random() < 0.3 else t.dtype
    kw = {"dtype": dtype_node(dtype)} if dtype != t.dtype else {}
    args = [node]
    if fn == "full_like":
        args.append(scalar_for(g, ctx, depth, dtype))
    return np_call(fn, *args, **kw), ArrayT(dtype, t.ndim)


@anyarray(1.2)
def arange(g, ctx, depth):
    rng = g.rng
    form = rng.choice((1, 2, 3, 3, "float"))
    if form == "float":
        start = const(rng.choice((0.0, 0.5, -1.5, 1.0)))
        stop = binop(const(rng.choice((2.0, 3.25, 4.0))), ast.Add(), call("float", bounded(g, ctx, depth, 3)))
        return np_call("arange", start, stop, const(rng.choice((0.5, 0.25, 1.5, 0.1)))), ArrayT("float64", 1)
    args = [small_int(g, ctx, depth, 8) for _ in range(form)]
    if form == 3:
        args[2] = const(rng.choice((1, 2, 3, -1, -2))) if rng.random() < 0.9 else bounded(g, ctx, depth, 3)
        args[0] = binop(args[0], ast.Sub(), const(rng.randrange(4)))
    dtype = rng.choice(("int64", "int32", "float64", "uint8", "int8")) if rng.random() < 0.3 else None
    kw = {"dtype": dtype_node(dtype)} if dtype else {}
    return np_call("arange", *args, **kw), ArrayT(dtype or "int64", 1)


@anyarray(0.8)
def linspace(g, ctx, depth):
    rng = g.rng
    start = g.expr(ctx, rng.choice((INT, FLOAT)), depth + 1) if rng.random() < 0.3 \
        else const(rng.choice((0.0, -1.0, 0.5, 2, 0)))
    stop = const(rng.choice((1.0, 10.0, 3, -2.5, 0.1)))
    num = small_int(g, ctx, depth, 9)
    return np_call("linspace", start, stop, num), ArrayT("float64", 1)


@anyarray(1.2)
def copy(g, ctx, depth):
    got = _variable(g, ctx)
    if got is None:
        return None
    node, t = got
    form = g.rng.choice(("copy", "np.copy", "flatten"))
    if form == "copy":
        return method(node, "copy"), t
    if form == "np.copy":
        return np_call("copy", node), t
    return method(node, "flatten"), ArrayT(t.dtype, 1)


@anyarray(1.2)
def reshape(g, ctx, depth):
    """`a.reshape(...)` / `a.ravel()`; bound to a name only through `.copy()`."""
    got = _variable(g, ctx)
    if got is None:
        return None
    node, t = got
    rng = g.rng
    r = rng.random()
    if r < 0.2:
        out, nd = method(node, "ravel"), 1
    elif r < 0.4:
        out, nd = method(node, "reshape", const(-1) if rng.random() < 0.5
                         else ast.Attribute(node, "size", ast.Load())), 1
    elif r < 0.6:
        shape = [const(1), const(-1)]
        rng.shuffle(shape)
        out, nd = method(node, "reshape", ast.Tuple(shape, ast.Load())), 2
    elif r < 0.8:
        lead = index(ast.Attribute(node, "shape", ast.Load()), const(0))
        out, nd = method(node, "reshape", lead, const(-1)), 2
    elif r < 0.9:
        out, nd = method(node, "reshape", const(rng.choice((2, 3))), const(-1), const(1)), 3
    else:
        out, nd = method(node, "reshape", const(rng.choice((2, 3, 4))), const(-1)), 2  # may not divide
    if depth == 0:
        out = method(out, "copy")
    return out, ArrayT(t.dtype, nd)


@anyarray(1)
def astype(g, ctx, depth):
    """`a.astype(dtype)`, except float to int (NaN and inf have no int value)."""
    got = operand(g, ctx, depth)
    if got is None:
        return None
    node, t = got
    choices = [d for d in DTYPES + ("uint64", "int16") if not (t.dtype.startswith("float") and elem_kind(d) == INT)]
    d = g.rng.choice(choices)
    return method(node, "astype", dtype_node(d)), ArrayT(d, t.ndim)


# ---- element-wise ------------------------------------------------------------------------------

def _int_exponent(g, ctx, depth):
    r = g.rng.random()
    if r < 0.6:
        return const(g.rng.randrange(4)), INT
    if r < 0.95:
        return bounded(g, ctx, depth, 4), INT
    return const(-1), INT                     # ValueError for int arrays


@anyarray(6)
def elementwise_binop(g, ctx, depth):
    rng = g.rng
    got = operand(g, ctx, depth)
    if got is None:
        return None
    a, ta = got
    op = rng.choice(tuple(BINOPS))
    if op is ast.Pow and ta.dtype == "bool":
        return None         # NumPy: bool ** 2 is int8 (np.square's path), other powers int64
    if rng.random() < 0.4:
        if op is ast.Pow and elem_kind(ta.dtype) != FLOAT:
            b, tb = _int_exponent(g, ctx, depth)
        else:
            tb = scalar_kind_for(rng, ta.dtype)
            b = scalar_for(g, ctx, depth, ta.dtype, tb)
    else:
        b, tb = partner(g, ctx, depth, a, ta)
    if rng.random() < 0.3 and op is not ast.Pow:
        a, ta, b, tb = b, tb, a, ta
    t = result_type(BINOPS[op], ta, tb)
    if t is None:
        return None
    return binop(a, op(), b), t


@anyarray(2.5)
def elementwise_compare(g, ctx, depth):
    rng = g.rng
    got = operand(g, ctx, depth)
    if got is None:
        return None
    a, ta = got
    if rng.random() < 0.5:
        tb = scalar_kind_for(rng, ta.dtype)
        b = scalar_for(g, ctx, depth, ta.dtype, tb)
    else:
        b, tb = partner(g, ctx, depth, a, ta)
    op = rng.choice(tuple(CMPOPS))
    t = result_type(CMPOPS[op], ta, tb)
    if t is None:
        return None
    return ast.Compare(a, [op()], [b]), t


@anyarray(1.2)
def elementwise_unary(g, ctx, depth):
    got = operand(g, ctx, depth)
    if got is None:
        return None
    a, ta = got
    kind = g.rng.choice(("neg", "invert", "abs"))
    if kind == "neg":
        t = result_type(np.negative, ta)
        return (ast.UnaryOp(ast.USub(), a), t) if t else None
    if kind == "invert":
        t = result_type(np.invert, ta)
        return (ast.UnaryOp(ast.Invert(), a), t) if t else None
    t = result_type(np.abs, ta)
    return (call("abs", a), t) if t else None


@anyarray(2)
def ufunc(g, ctx, depth):
    rng = g.rng
    got = operand(g, ctx, depth)
    if got is None:
        return None
    a, ta = got
    r = rng.random()
    if r < 0.5:
        fn = rng.choice(UFUNCS_1)
        t = result_type(getattr(np, fn), ta)
        if t is None:
            return None
        if fn in INEXACT:
            g.approx = True
        return np_call(fn, a), t
    if r < 0.75:
        fn = rng.choice(("minimum", "maximum"))
        if rng.random() < 0.5:
            tb = scalar_kind_for(rng, ta.dtype)
            b = scalar_for(g, ctx, depth, ta.dtype, tb)
        else:
            b, tb = partner(g, ctx, depth, a, ta)
        t = result_type(getattr(np, fn), ta, tb)
        return (float_zero_sign(np_call(fn, a, b), t), t) if t else None
    lo_kind = scalar_kind_for(rng, ta.dtype)
    if lo_kind == BOOL:
        return None
    lo, hi = scalar_for(g, ctx, depth, ta.dtype, lo_kind), scalar_for(g, ctx, depth, ta.dtype, lo_kind)
    t = result_type(np.clip, ta, lo_kind, lo_kind)
    return (float_zero_sign(np_call("clip", a, lo, hi), t), t) if t else None


@anyarray(1.5)
def where(g, ctx, depth):
    rng = g.rng
    got = operand(g, ctx, depth)
    if got is None:
        return None
    a, ta = got
    if ta.dtype == "bool" and rng.random() < 0.3:
        cond, tc = a, ta
    else:
        kind = scalar_kind_for(rng, ta.dtype)
        cond = ast.Compare(a, [rng.choice(tuple(CMPOPS))()], [scalar_for(g, ctx, depth, ta.dtype, kind)])
        tc = ArrayT("bool", ta.ndim)
    if rng.random() < 0.5:
        x, tx = a, ta
    else:
        x, tx = partner(g, ctx, depth, a, ta)
    if rng.random() < 0.5:
        ty = scalar_kind_for(rng, tx.dtype)
        y = scalar_for(g, ctx, depth, tx.dtype, ty)
    else:
        y, ty = partner(g, ctx, depth, a, ta)
    t = result_type(np.where, tc, tx, ty)
    return (np_call("where", cond, x, y), t) if t else None


# ---- advanced indexing -------------------------------------------------------------------------

def mask_for(g, ctx, depth, node, t: ArrayT):
    """A bool mask for `node`: a comparison of it (the right shape), or any bool array."""
    rng = g.rng
    if rng.random() < 0.8:
        kind = scalar_kind_for(rng, t.dtype)
        if kind == BOOL:
            kind = INT
        return ast.Compare(node, [rng.choice(tuple(CMPOPS))()], [scalar_for(g, ctx, depth, t.dtype, kind)])
    got = _variable(g, ctx, lambda u: u.dtype == "bool" and u.ndim == t.ndim)  # (fewer: a CompileError)
    return got[0] if got else np_call("isnan", node) if t.dtype.startswith("float") else \
        ast.Compare(node, [ast.NotEq()], [node])


def int_index_array(g, ctx, depth, length):
    """An int array of indices: in bounds by construction, or any int array in scope."""
    rng = g.rng
    r = rng.random()
    if r < 0.5:
        return binop(np_call("arange", small_int(g, ctx, depth, 6)), ast.Mod(), binop(length, ast.BitOr(), const(0))
                     if rng.random() < 0.1 else length)
    if r < 0.75:
        got = _variable(g, ctx, lambda u: elem_kind(u.dtype) == INT and u.ndim == 1)
        if got:
            return got[0]
    # may be out of bounds either way
    return binop(binop(np_call("arange", const(rng.randint(1, 5))), ast.Mult(), const(rng.choice((1, 2, -1, 3)))),
                 ast.Sub(), const(rng.randint(0, 4)))


@anyarray(1.5)
def fancy_read(g, ctx, depth):
    got = _variable(g, ctx)
    if got is None:
        return None
    node, t = got
    if t.ndim == 1 and g.rng.random() < 0.4:
        idx = int_index_array(g, ctx, depth, call("len", node))
        return index(node, idx), ArrayT(t.dtype, 1)       # shaped like idx: 1-d here or its rank
    return index(node, mask_for(g, ctx, depth, node, t)), ArrayT(t.dtype, 1)


# ---- reductions and products ---------------------------------------------------------------------

def _reduce_node(g, fn: str, node, axis=None):
    rng = g.rng
    kw = {}
    args = [node]
    if axis is not None:
        if rng.random() < 0.5:
            kw["axis"] = const(axis)
        else:
            args.append(const(axis))
    if rng.random() < 0.3 and fn not in ("cumsum",):
        return method(node, fn, *args[1:], **kw)
    return np_call(fn, *args, **kw)


def _inexact_reduction(g, fn: str, t: ArrayT, variable: bool):
    if fn in ("sum", "mean", "prod", "cumsum") and t.dtype.startswith("float") and t.ndim >= 2 and variable:
        g.approx = True


@anyarray(2)
def reduce_axis(g, ctx, depth):
    rng = g.rng
    got = operand(g, ctx, depth, lambda u: u.ndim >= 2) if rng.random() < 0.8 else None
    fn = rng.choice(REDUCTIONS + ("cumsum", "cumsum"))
    if got is None:
        got = operand(g, ctx, depth)
        if got is None or fn != "cumsum":
            return None
    node, t = got
    if fn == "cumsum" and rng.random() < 0.4:
        out = _reduce_node(g, fn, node)
        nd = 1
    else:
        axis = rng.randrange(-t.ndim, t.ndim)
        out = _reduce_node(g, fn, node, axis)
        nd = t.ndim if fn == "cumsum" else t.ndim - 1
        if nd == 0:
            return None
    _inexact_reduction(g, fn, t, isinstance(node, ast.Name))
    dummy = np.ones((2,) * t.ndim, dtype=t.dtype)
    with np.errstate(all="ignore"):
        dt = str(getattr(np, fn)(dummy).dtype)
    if dt not in SUPPORTED:
        return None
    if fn in ("min", "max"):
        out = float_zero_sign(out, ArrayT(dt, nd))
    return out, ArrayT(dt, nd)


@anyarray(1.2)
def matmul(g, ctx, depth):
    rng = g.rng
    got = operand(g, ctx, depth, lambda u: u.ndim <= 2)
    if got is None:
        return None
    a, ta = got
    r = rng.random()
    if r < 0.4 and ta.ndim == 2:
        b, tb = ast.Attribute(a, "T", ast.Load()), ta
    elif r < 0.55:
        b, tb = a, ta
    else:
        got = operand(g, ctx, depth, lambda u: u.ndim <= 2)
        if got is None:
            return None
        b, tb = got
    if ta.ndim == 1 and tb.ndim == 1:
        return None
    t = result_type(np.matmul, ta, tb)
    if t is None:
        return None
    if t.dtype.startswith("float"):
        g.approx = True
    if rng.random() < 0.2:
        return np_call("matmul", a, b), t
    return binop(a, ast.MatMult(), b), t


def _scalar_reduction(kind):
    """int(np.sum(a)), float(np.mean(a)), bool(np.any(a)), int(np.argmax(a)), float(np.dot(x, y))."""
    fns = {INT: ("sum", "prod", "min", "max", "argmin", "argmax", "dot"),
           FLOAT: ("sum", "prod", "min", "max", "mean", "dot"),
           BOOL: ("any", "all")}[kind]

    def fn(g, ctx, depth):
        rng = g.rng
        f = rng.choice(fns)
        if kind == BOOL:
            pred = lambda u: True                                       # noqa: E731
        elif f in ("argmin", "argmax") or (kind == FLOAT and f == "mean"):
            pred = lambda u: u.dtype != "bool"                          # noqa: E731
        else:
            def pred(u):
                return elem_kind(u.dtype) == kind or (kind == INT and u.dtype == "bool" and f == "sum")
        if f == "dot":
            pred1 = lambda u: pred(u) and u.ndim == 1                   # noqa: E731
            got = operand(g, ctx, depth + 1, pred1)
            if got is None:
                return None
            x, tx = got
            y, ty = partner(g, ctx, depth + 1, x, tx)
            if ty.ndim != 1 or elem_kind(ty.dtype) != kind:
                y, ty = x, tx
            if kind == FLOAT:
                g.approx = True
            out = np_call("dot", x, y) if rng.random() < 0.6 else binop(x, ast.MatMult(), y)
            return call("int" if kind == INT else "float", out)
        got = operand(g, ctx, depth + 1, pred)
        if got is None:
            return None
        node, t = got
        _inexact_reduction(g, f, t, isinstance(node, ast.Name))
        out = call({INT: "int", FLOAT: "float", BOOL: "bool"}[kind], _reduce_node(g, f, node))
        if kind == FLOAT and f in ("min", "max"):
            out = float_zero_sign(out, None)
        return out
    return fn


production(INT, 1.5)(_scalar_reduction(INT))
production(FLOAT, 1.5)(_scalar_reduction(FLOAT))
production(BOOL, 1)(_scalar_reduction(BOOL))


@production("array", 1)
def array_of_type(g, ctx, depth, t: ArrayT):
    """An array expression of type `t` (an argument to a helper that takes one)."""
    for _ in range(6):
        got = any_array(g, ctx, depth + 1)
        if got is not None and got[1] == t:
            return got[0]
    return None


# ---- statements --------------------------------------------------------------------------------

def _writable(ctx, n: str) -> bool:
    return ctx.types[n].ndim >= 1


@statement(3)
def array_new(g, ctx, nest):
    """b = <array expression>; also `b = np.empty(...)` / `np.empty_like(a)` then a fill."""
    rng = g.rng
    if rng.random() < 0.15:
        got = _variable(g, ctx)
        if got is not None and rng.random() < 0.5:
            node, t = got
            value, t = np_call("empty_like", node), t
        else:
            nd = rng.choice((1, 2))
            dtype = rng.choice(DTYPES)
            value, t = np_call("empty", shape_node(g, ctx, 0, nd), dtype=dtype_node(dtype)), ArrayT(dtype, nd)
        b = ctx.fresh("b", t)
        if rng.random() < 0.5:
            fill = ast.Expr(method(name(b), "fill", scalar_for(g, ctx, 0, t.dtype)))
        else:
            target = index(name(b), *[ast.Slice() for _ in range(t.ndim)])
            target.ctx = ast.Store()
            fill = ast.Assign([target], scalar_for(g, ctx, 0, t.dtype))
        ctx.defined.add(b)
        return [ast.Assign([store(b)], value), fill]
    got = any_array(g, ctx, 0)
    if got is None:
        return None
    value, t = got
    b = ctx.fresh("b", t)
    ctx.defined.add(b)
    return [ast.Assign([store(b)], value)]


INPLACE_OPS = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod, ast.Div, ast.Pow, ast.BitAnd,
               ast.BitOr, ast.BitXor)


def _source_for(g, ctx, target_node, target: str, tt: ArrayT, depth: int = 1):
    """An array value to write into `target` (see the module docstring on helpers)."""
    if ctx.name != "main":
        r = g.rng.random()
        if r < 0.5:
            return target_node, tt
        if r < 0.8:
            return index(target_node, ast.Slice(None, None, const(-1))), tt
        return binop(name(target), ast.Mult(), const(2)), result_type(np.multiply, tt, INT)
    return operand(g, ctx, depth)


@statement(2.5)
def array_inplace(g, ctx, nest):
    """a op= e, a[1:] op= e, a[i] op= e (a row): NumPy's same_kind rule is respected."""
    rng = g.rng
    arrays = [n for n in ctx.arrays() if _writable(ctx, n)]
    if not arrays:
        return None
    a = rng.choice(arrays)
    ta = ctx.types[a]
    r = rng.random()
    if r < 0.55:
        target, tt = name(a), ta
    elif r < 0.8:
        target, tt = index(name(a), g.slice(ctx, 1)), ta
    else:
        if ta.ndim < 2:
            return None
        target, tt = index(name(a), g.array_index(ctx, a, 0, 1)), ArrayT(ta.dtype, ta.ndim - 1)
    op = rng.choice(INPLACE_OPS)
    if rng.random() < 0.45:
        if op is ast.Pow and elem_kind(ta.dtype) != FLOAT:
            v, tv = _int_exponent(g, ctx, 1)
        else:
            tv = scalar_kind_for(rng, ta.dtype)
            v = scalar_for(g, ctx, 1, ta.dtype, tv)
    else:
        got = _source_for(g, ctx, index(name(a), ast.Slice()) if isinstance(target, ast.Name) else target, a, tt)
        if got is None or got[1] is None:
            return None
        v, tv = got
    res = result_type(BINOPS[op], tt, tv)
    # (a result of more dimensions than the target always raises ValueError: seldom)
    if res is None or not np.can_cast(res.dtype, ta.dtype, "same_kind") or (res.ndim > tt.ndim
                                                                           and rng.random() < 0.9):
        return None
    target = _as_store(target)
    return [ast.AugAssign(target, op(), v)]


def _as_store(node):
    node = ast.parse(ast.unparse(node), mode="eval").body
    node.ctx = ast.Store()
    return node


@statement(2)
def array_store_expr(g, ctx, nest):
    """out[i, :] = e, a[1:] = a[:-1] + 1, a[...] = e: an array value cast as NumPy's item
    assignment casts it (only same_kind: float NaN has no int value)."""
    rng = g.rng
    arrays = ctx.arrays()
    if not arrays:
        return None
    a = rng.choice(arrays)
    ta = ctx.types[a]
    parts = [g.slice(ctx, 1)] + [ast.Slice() for _ in range(ta.ndim - 1)]
    if ta.ndim > 1 and rng.random() < 0.6:
        axis = rng.randrange(ta.ndim)
        parts[axis] = g.array_index(ctx, a, axis, 1)
    target = index(name(a), *parts) if len(parts) > 1 else index(name(a), parts[0])
    if ctx.name != "main" or rng.random() < 0.3:
        got = _source_for(g, ctx, index(name(a), *([ast.Slice()] * ta.ndim)), a, ta)
    else:
        got = any_array(g, ctx, 1)
    if got is None or got[1] is None:
        return None
    v, tv = got
    # (a value of more dimensions than the target: NumPy drops leading lengths of 1, else raises)
    if not np.can_cast(tv.dtype, ta.dtype, "same_kind") or (
            tv.ndim > sum(isinstance(p, ast.Slice) for p in parts) and rng.random() < 0.7):
        return None
    return [ast.Assign([_as_store(target)], v)]


@statement(1.5)
def fancy_store(g, ctx, nest):
    """a[mask] = v, a[a > t] = a[a > t] * 2, a[idx] = v (1-d)."""
    rng = g.rng
    arrays = ctx.arrays()
    if not arrays:
        return None
    a = rng.choice(arrays)
    ta = ctx.types[a]
    if ta.ndim == 1 and rng.random() < 0.4:
        sel = int_index_array(g, ctx, 1, call("len", name(a)))
    else:
        sel = mask_for(g, ctx, 1, name(a), ta)
    target = index(name(a), sel)
    r = rng.random()
    if r < 0.6:
        v = scalar_for(g, ctx, 1, ta.dtype)
    else:
        # values of the same kind: the selected elements themselves, changed
        op = rng.choice((ast.Add, ast.Mult)) if ta.dtype != "bool" else ast.BitOr
        k = const(2) if ta.dtype != "bool" else const(True)
        # (never values that are a view of `a` itself: where they overlap the elements written,
        # NumPy's result depends on its inner loops, see docs/arrays.md)
        v = binop(index(name(a), sel), op(), k)
        tv = result_type(BINOPS[op], ta, INT if ta.dtype != "bool" else BOOL)
        if tv is None or not np.can_cast(tv.dtype, ta.dtype, "same_kind"):
            return None
    return [ast.Assign([_as_store(target)], v)]
