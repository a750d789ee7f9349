"""Checks the IR invariants every pass and backend relies on.

Invariants checked, for each function:

1. The function has at least one block; the entry block has no predecessors and its
   parameters match the function's parameter types.
2. Each block ends in exactly one terminator, and no terminator appears before the end.
3. Predecessors and successors agree: `b in s.preds` exactly as often as `s` is a successor
   of `b`; every successor belongs to the function.
4. Branch arguments match the target's block parameters in number and type; `succ_nargs`
   adds up to the terminator's operand count.
5. Each instruction's `block` is the block holding it; each block's `func` is the function.
6. Operand counts and types follow the op table (`ops.py`): the count its row gives; complex
   operands only for ops whose `complex_ok` column says so; the op's operand rule
   (`OpInfo.rule`: a function of `_RULES`, one for every rule the table names, asserted at
   import); then the result type its result rule gives (`ops.result_type`) is the type
   written on the instruction. The rules: arithmetic takes one type (numbers, floats for
   `div`, ints or bools for `and`/`or`/`xor`, ints for shifts and `invert`, a bool for
   `not`), `cmp`/`select`/`convert`/`math`/`complex`/`hash`/`ovf.K` their operands' kinds,
   `tuple` gives the tuple (or optional, named tuple, dict, set) of its operands' types,
   `extract` indexes a tuple, dict, set or complex number in range, `dim`/`stride` name an
   axis, `load`/`store` take one i64 index per axis and `store` a value of the element
   type, `view`/`transpose`/`part`/`reshape`/`alloc`/`const_array`/`gemm`/`lapack`/
   `overlap` their arrays and lengths, `call` passes the callee's parameter types, `ret`
   returns the function's return type, `cbr`/`check` take a bool condition, the list and
   string ops their signatures, the CUDA ops (`sreg` a known register, `shared` constant
   lengths, `atomic` an int or float array, its element type and i64 indices),
   `rng_state` a generator's u32[::1] or f64[::1], `poll` nothing or a bool, the
   exceptions' ops their message's values and an exc, `raised` comes right after a `call`
   or a `str_py` in its block.
7. Each definition dominates its uses (in the same block: it comes earlier); every operand is
   a constant, a parameter of a block of this function, or an instruction of this function.
8. Use lists are exact: `v.uses` holds each user once per operand slot.

A failure is a compiler bug: `VerifyError` names the pass that ran last, the function, the
block and the op, and prints the function with the offending line marked.
"""

from __future__ import annotations

from collections import Counter
from itertools import chain, compress, repeat
from operator import attrgetter, itemgetter, not_

from script.errors import VerifyError
from script.ir import types as T
from script.ir.core import BlockParam, Const, Function, Instr, Module
from script.ir.dom import DomTree
from script.ir.ops import (ATOMIC_FUNCS, CMP_PREDS, COMPLEX_MATH, EXCEPTIONS, LAPACK_ROUTINES, MATCH_CLASSES, MATH_FUNCS,
                           OPS, OVF_OPS, RNG_STATES, SREGS, STR_PY, ArrayData,
                           message_operands, result_type)
from script.ir.printer import Namer, format_function, format_instr
from script.ir.types import ComplexType


class _Failure(Exception):
    def __init__(self, message, instr=None):
        super().__init__(message)
        self.instr = instr


def verify_module(module: Module, after: str = "frontend") -> None:
    for f in module.functions.values():
        verify_function(f, after)


def verify_function(func: Function, after: str = "frontend") -> None:
    try:
        _verify(func)
    except _Failure as e:
        text = format_function(func)
        where = ""
        if e.instr is not None and e.instr.block is not None:
            namer = Namer(func)
            bad = format_instr(e.instr, namer)
            text = text.replace(bad + "\n", bad + "      <<< here\n", 1)
            where = f" (at {e.instr.opname} in {namer.block(e.instr.block)})"
        raise VerifyError(f"IR verification failed after {after} in @{func.name}: {e}{where}\n{text}") from None


def _fail(message, instr=None):
    raise _Failure(message, instr)


def _verify(func: Function) -> None:
    """One walk over the blocks does the per-block and per-instruction checks and gathers what
    the later checks need (the use pairs, each instruction's position), so that those report
    their failures in the order they always have: invariants 1-6, then 8 with the "not defined"
    half of 7, then dominance."""
    blist = func.blocks
    if not blist:
        _fail("function has no blocks")
    entry = func.entry
    if entry.preds:
        _fail("entry block has predecessors")
    blocks = set(blist)
    defined = set()
    for b in blist:
        if b.func is not func:
            _fail("block does not belong to this function")
        defined.update(b.params)
        defined.update(b.instrs)
    edges = []                  # (block, successor), once per edge
    position = {}               # instruction -> its index in its block
    plans = _PLANS
    for b in blist:
        instrs = b.instrs
        if not instrs or not instrs[-1].op.terminator:
            _fail(f"block bb{blist.index(b)} does not end in a terminator", instrs[-1] if instrs else None)
        for i in instrs[:-1]:
            if i.op.terminator:
                _fail("terminator before the end of a block", i)
        for k, i in enumerate(instrs):
            if i.block is not b:
                _fail("instruction's block field is wrong", i)
            position[i] = k
            # The op table's checks (inlined: this is the verifier's hot loop): operand count,
            # complex operands (`OpInfo.complex_ok`), the op's operand rule (`OpInfo.rule`, a
            # function of `_RULES`), then the result type its result rule gives (`ops.result_type`).
            op = i.op
            plan = plans.get(op.name)
            if plan is None or plan[0] is not op:
                plan = _plan(op)
            types = [v.type for v in i.operands]
            _, nargs, complex_ok, rule, result = plan
            if nargs is not None and len(types) != nargs:
                _fail(f"{op.name} takes {nargs} operands, has {len(types)}", i)
            if not complex_ok:
                for t in types:
                    if isinstance(t, ComplexType):
                        _fail(f"{op.name} of a complex number", i)
            rule(i, types, func, blocks)
            given = i.type
            if result is _GIVEN:
                want = given
            elif result is _SAME:
                want = types[0] if types else None
            elif result is None:
                want = result_type(op, types, i.attr, given)
            else:
                want = result
            if want is None or (want is not given and want != given):
                _fail(f"{op.name} gives {want}, instruction says {given}", i)
        for s in instrs[-1].succs:
            edges.append((b, s))
    edge_count = Counter(edges)
    for s in blist:
        preds = s.preds
        if len(preds) == 1:         # (the common case, without a Counter)
            if edge_count[(preds[0], s)] != 1:
                _fail(f"predecessor list of bb{blist.index(s)} disagrees with the branches into it")
        elif preds:
            for p, n in (Counter(preds).items() if len(preds) > 8 else ((p, preds.count(p)) for p in preds)):
                if edge_count[(p, s)] != n:
                    _fail(f"predecessor list of bb{blist.index(s)} disagrees with the branches into it")
    for (b, s), n in edge_count.items():
        if s.preds.count(b) != n:
            _fail(f"bb{blist.index(s)} is missing predecessor bb{blist.index(b)}")
    # (operand, user) for every operand slot that is not a constant, in the order of the
    # function's instructions: made by C loops (itertools), as there are many.
    instrs = list(chain.from_iterable(map(_INSTRS, blist)))
    operand_lists = list(map(_OPERANDS, instrs))
    operands = list(chain.from_iterable(operand_lists))
    pairs = list(compress(zip(operands, chain.from_iterable(map(repeat, instrs, map(len, operand_lists)))),
                          map(not_, map(isinstance, operands, repeat(Const)))))
    _check_uses(func, defined, pairs)
    _check_dominance(func, position, pairs)


def _check_uses(func: Function, defined: set, pairs: list) -> None:
    """`pairs`: (operand, user) for every operand slot that is not a constant, in the order of
    the function's instructions."""
    if not defined.issuperset(map(itemgetter(0), pairs)):
        _fail("operand is not defined in this function", next(i for v, i in pairs if v not in defined))
    owners = list(defined)
    uses = [v.uses for v in owners]
    users = list(chain.from_iterable(uses))
    if not defined.issuperset(users):
        # (A user defined in `func` sits in a block of `func`: `_verify` checked both.)
        for v in owners:
            for user in v.uses:
                if user.block is None or user.block.func is not func:
                    _fail("use list holds an instruction outside the function", user)
    if len(users) != len(pairs) or \
            dict.__eq__(Counter(zip(chain.from_iterable(map(repeat, owners, map(len, uses))), users)),
                        Counter(pairs)) is not True:     # (neither holds a zero count)
        _fail("use lists are out of date")


def _check_dominance(func: Function, position: dict, pairs: list) -> None:
    """`position`: each instruction's index in its block; `pairs`: (operand, user) for each
    operand slot that is not a constant. Every use in a reachable block must be dominated by its
    definition, and the first failure in reverse postorder is the one reported. One scan of
    `pairs` finds whether there is any; only then does the walk in that order run. A function
    of one block needs no dominator tree: its only block is the entry, which dominates itself."""
    blist = func.blocks
    entry = blist[0]
    dom = None
    if len(position) == sum(map(len, map(_INSTRS, blist))):
        for v, i in pairs:
            b = i.block
            d = v.block
            if d is b:
                if isinstance(v, BlockParam) or position[v] < position[i]:
                    continue
                break
            if d is entry:          # (the entry dominates every block)
                continue
            # Up the chain of single predecessors from `b`: each is its block's immediate
            # dominator. Only where it ends before `d` is the dominator tree needed.
            x = b
            for _ in range(8):
                preds = x.preds
                if len(preds) != 1:
                    break
                x = preds[0]
                if x is d:
                    break
            if x is d:
                continue
            if dom is None:
                dom = DomTree(func)
            if not dom.dominates(d, b):     # (true where `b` is unreachable)
                break
        else:
            return
    if len(blist) == 1:
        order, dominates = blist, _is
    else:
        dom = dom or DomTree(func)
        order, dominates = dom.order, dom.dominates
    # (Also where an instruction sits in a block twice: where it stands is not one number.)
    for b in order:
        for k, i in enumerate(b.instrs):
            for v in i.operands:
                if not isinstance(v, Const):
                    _check_dominates(v, i, k, b, position, dominates)


def _check_dominates(v, i: Instr, k: int, b, position: dict, dominates) -> None:
    """That operand `v` of `i`, the `k`th instruction of `b`, is defined where it dominates `i`."""
    if isinstance(v, BlockParam):
        if v.block is not b and not dominates(v.block, b):
            _fail("use of a block parameter not dominated by its block", i)
    elif v.block is b:
        if position[v] >= k:
            _fail("use before definition in the same block", i)
    elif not dominates(v.block, b):
        _fail("definition does not dominate its use", i)


def _is(a, b) -> bool:
    """`DomTree.dominates` in a function of one block: `b` is the entry, which only it dominates."""
    return a is b


def _plan(op) -> tuple:
    """What `_verify` reads of an op's row: (the row, its operand count, whether it takes
    complex operands, its operand rule's function, its result rule when `_verify` applies it
    itself: the type when it gives one whatever the operands, `_GIVEN` or `_SAME`; None where
    `ops.result_type` applies it)."""
    return (op, op.nargs, op.complex_ok, _RULES[op.rule], _RESULTS.get(op.result))


def _one_type(i: Instr, types: list, accepts, what: str) -> None:
    """All operands of one type, which `accepts`."""
    if types:
        first = types[0]
        for t in types:
            if t is not first and t != first:
                break
        else:
            if accepts(first):
                return
    _fail(f"{i.opname} of {', '.join(map(str, types))}: takes {what}", i)


def _check_numeric(i, types, func, blocks):
    _one_type(i, types, T.Type.is_numeric, "numbers of one type")


def _check_float(i, types, func, blocks):
    _one_type(i, types, lambda t: isinstance(t, (T.FloatType, T.ComplexType)), "floats of one type")


def _check_bits(i, types, func, blocks):
    _one_type(i, types, lambda t: t.is_numeric() and not isinstance(t, T.FloatType),
              "ints or bools of one type")


def _check_int(i, types, func, blocks):
    _one_type(i, types, lambda t: isinstance(t, T.IntType), "ints of one type")


def _check_bool(i, types, func, blocks):
    _one_type(i, types, lambda t: t == T.BOOL, "a bool")


def _check_ovf(i, types, func, blocks):
    arity = 2 if i.attr in ("neg", "abs") else 3
    if i.attr not in OVF_OPS or len(types) != arity or any(t != T.I64 for t in types):
        _fail(f"ovf.{i.attr} takes {arity} i64 operands (the last its op's result)", i)


def _check_cmp(i, types, func, blocks):
    if i.attr not in CMP_PREDS:
        _fail(f"unknown comparison {i.attr}", i)
    if types[0] != types[1] or not (types[0].is_numeric() or _is_enum_identity(i, types[0])):
        _fail(f"cmp of {types[0]} and {types[1]}", i)
    if isinstance(types[0], T.ComplexType) and i.attr not in ("eq", "ne"):
        _fail(f"cmp.{i.attr} of complex numbers", i)


def _is_enum_identity(i, t) -> bool:
    """``cmp.eq``/``cmp.ne`` of two members of one enum class: their indices."""
    return isinstance(t, (T.EnumType, T.FuncType)) and i.attr in ("eq", "ne")


def _check_convert(i, types, func, blocks):
    src, dst = types[0], i.type
    if T.I64 in (src, dst) and isinstance(src if dst == T.I64 else dst, (T.EnumType, T.FuncType)):
        return                  # an enum member's index (frontend/enum_values.py)
    if isinstance(src, T.ArrayType) or T.is_text_view(src, dst):
        ok = T.is_convertible(src, dst)
    else:
        ok = src.is_numeric() and dst.is_numeric() \
            and not (isinstance(src, T.ComplexType) and not isinstance(dst, T.ComplexType))
    if not ok:
        _fail(f"convert from {src} to {dst}", i)


def _check_select(i, types, func, blocks):
    if types[0] != T.BOOL or types[1] != types[2]:
        _fail(f"select({types[0]}, {types[1]}, {types[2]})", i)


def _check_math(i, types, func, blocks):
    arity = MATH_FUNCS.get(i.attr, (None,))[0]
    if arity is None:
        _fail(f"unknown math function {i.attr}", i)
    complex_ok = len(types) == 1 and isinstance(types[0], T.ComplexType) and i.attr in COMPLEX_MATH
    if not complex_ok and (len(types) != arity or not all(isinstance(t, T.FloatType) and t == types[0]
                                                          for t in types)):
        _fail(f"math.{i.attr} of {types}", i)


def _check_complex(i, types, func, blocks):
    if types[0] != types[1] or not isinstance(types[0], T.FloatType):
        _fail(f"complex of {types[0]} and {types[1]}: takes two floats of one type", i)


def _check_hash(i, types, func, blocks):
    if not T.is_key_type(types[0]):
        _fail(f"hash of {types[0]}: takes a bool, int, float or a tuple of them", i)


def _check_tuple(i, types, func, blocks):
    """The type written on it (a tuple, optional, named tuple, dict or set) has the operands'
    types as its elements."""
    given = i.type
    if not isinstance(given, (T.TupleType, T.HashType)) or list(given.elems) != types:
        _fail(f"tuple of {', '.join(map(str, types))} gives {given}", i)


def _check_extract(i, types, func, blocks):
    t, k = types[0], i.attr
    if isinstance(t, T.ComplexType):
        n = 2
    elif isinstance(t, (T.TupleType, T.HashType)):
        n = len(t.elems)
    else:
        _fail(f"extract.{k} of a {t}: takes a tuple, a dict or set, or a complex number", i)
    if not isinstance(k, int) or not 0 <= k < n:
        _fail(f"extract.{k} of a {t} of {n} elements", i)


def _check_call(i, types, func, blocks):
    callee = i.attr
    if not isinstance(callee, Function):
        _fail("call without a callee", i)
    if types != callee.param_types:
        _fail(f"call of @{callee.name} with {types}, expects {callee.param_types}", i)


def _check_poll(i, types, func, blocks):
    if types not in ([], [T.BOOL]):
        _fail(f"poll of {', '.join(map(str, types))}: takes nothing or a bool", i)


def _check_print(i, types, func, blocks):
    if not isinstance(i.attr, str):
        _fail("print needs its text", i)
    _check_message_operands(i, i.attr, types)


def _check_ret(i, types, func, blocks):
    want = [] if isinstance(func.ret_type, T.NoneType) else [func.ret_type]
    if types != want and not (types == [T.NONE] and not want):
        _fail(f"ret of {types} in a function returning {func.ret_type}", i)


def _check_nothing(i, types, func, blocks):
    """No operands (the table's count says so) and nothing else to check."""


def _check_overlap(i, types, func, blocks):
    if not all(isinstance(t, T.ArrayType) for t in types):
        _fail(f"overlap of {', '.join(map(str, types))}, not arrays", i)


def _check_part(i, types, func, blocks):
    a = types[0]
    if not isinstance(a, T.ArrayType) or not isinstance(a.dtype, T.ComplexType) or i.attr not in (0, 1) \
            or i.type != T.ArrayType(a.dtype.part, a.ndim, "A"):
        _fail(f"part.{i.attr} of {a} gives {i.type}", i)


def _check_transpose(i, types, func, blocks):
    a = types[0]
    if not isinstance(a, T.ArrayType) or i.type != a.with_layout("A"):
        _fail(f"transpose of {a} gives {i.type}", i)


def _check_reshape(i, types, func, blocks):
    a, t = types[0] if types else None, i.type
    if not isinstance(a, T.ArrayType) or not isinstance(t, T.ArrayType) or t.dtype != a.dtype \
            or len(types) != (1 + t.ndim if t.layout == "C" else 1 + 2 * t.ndim) \
            or any(x != T.I64 for x in types[1:]):
        _fail(f"reshape of {a} to {t} takes one i64 length per axis of a C array of the same dtype, "
              "or a length and a stride per axis of an any-layout array", i)


def _check_alloc(i, types, func, blocks):
    t = i.type
    if not isinstance(t, T.ArrayType) or t.layout != "C" or len(types) != t.ndim \
            or any(x != T.I64 for x in types):
        _fail(f"alloc of {t} takes one i64 length per axis and gives a C array", i)


def _check_gemm(i, types, func, blocks):
    c, a, b = types
    if not all(isinstance(x, T.ArrayType) and x.dtype == c.dtype for x in (c, a, b)) \
            or c.layout != "C" or (b.ndim == 1 and b.layout != "C") \
            or c.dtype not in (T.F32, T.F64) or a.ndim != 2 or b.ndim != c.ndim or c.ndim not in (1, 2):
        _fail(f"gemm of {a} and {b} into {c} takes arrays of one float dtype, a 2-d, C a C array "
              "(and B when it is 1-d)", i)


def _check_const_array(i, types, func, blocks):
    t, data = i.type, i.attr
    if not isinstance(t, T.ArrayType) or t.layout != "C" or not isinstance(data, ArrayData) \
            or len(data.shape) != t.ndim:
        _fail(f"const_array gives a C array of as many axes as its data has: {t}", i)
    size = 1
    for n in data.shape:
        size *= n
    if len(data.data) != size * (1 if t.dtype == T.BOOL else t.dtype.bits // 8):
        _fail(f"const_array of {t} with shape {data.shape} holds {len(data.data)} bytes", i)


def _check_is_null(i, types, func, blocks):
    if not isinstance(types[0], (T.ListType, T.TextType)):
        _fail(f"is_null of a {types[0]}, not a list or str", i)


def _check_rng_state(i, types, func, blocks):
    if i.attr not in RNG_STATES or i.type not in _RNG_VIEWS:
        _fail(f"rng_state.{i.attr} : {i.type}", i)


def _check_sreg(i, types, func, blocks):
    if i.attr not in SREGS:
        _fail(f"sreg.{i.attr} : {i.type}", i)


def _check_shared(i, types, func, blocks):
    t = i.type
    if not isinstance(t, T.ArrayType) or t.layout != "C" or len(types) != t.ndim \
            or any(not (isinstance(v, Const) and v.type == T.I64 and v.value >= 0) for v in i.operands):
        _fail(f"shared of {t} takes one constant i64 length per axis and gives a C array", i)


def _check_atomic(i, types, func, blocks):
    """An int or float array, one value of its element type (two for `cas`) and one i64
    index per axis."""
    a = types[0] if types else None
    nvals = 2 if i.attr == "cas" else 1
    if i.attr not in ATOMIC_FUNCS or not isinstance(a, T.ArrayType) \
            or not isinstance(a.dtype, (T.IntType, T.FloatType)):
        _fail(f"atomic.{i.attr} of a {a}", i)
    if len(types) != 1 + nvals + a.ndim or any(t != a.dtype for t in types[1:1 + nvals]) \
            or any(t != T.I64 for t in types[1 + nvals:]):
        _fail(f"atomic.{i.attr} of a {a} takes {nvals} {a.dtype} and {a.ndim} i64 indices", i)


def _check_raised(i, types, func, blocks):
    instrs = i.block.instrs
    k = instrs.index(i)
    if k == 0 or instrs[k - 1].opname not in ("call", "str_py"):
        _fail("raised must come right after a call or a str_py", i)


def _check_exc_match(i, types, func, blocks):
    if i.attr not in MATCH_CLASSES:
        _fail(f"exc_match of unknown class {i.attr}", i)
    _check_exc_operand(i, types, func, blocks)


def _check_exc_operand(i, types, func, blocks):
    if types != [T.EXC]:
        _fail(f"{i.opname} of {', '.join(map(str, types))}: takes an exc", i)


# What `rng_state` gives: a generator's words (u64 for PCG64's), or its cached Gaussian.
_RNG_VIEWS = (T.ArrayType(T.U32, 1, "C"), T.ArrayType(T.U64, 1, "C"), T.ArrayType(T.F64, 1, "C"))


def _check_view(i, types, func, blocks):
    a = types[0] if types else None
    axes = i.attr
    if not isinstance(a, T.ArrayType) or not isinstance(axes, str) or len(axes) - axes.count("n") != a.ndim \
            or set(axes) - {"i", "s", "n"}:
        _fail(f"view.{axes} of a {a}", i)
    if len(types) != 1 + sum({"i": 1, "s": 3, "n": 0}[c] for c in axes) or any(t != T.I64 for t in types[1:]):
        _fail(f"view.{axes} takes one i64 per index axis and three per slice axis", i)
    kept = axes.count("s") + axes.count("n")
    if kept == 0 or i.type != T.ArrayType(a.dtype, kept, "A"):
        _fail(f"view.{axes} of {a} gives {T.ArrayType(a.dtype, max(kept, 1), 'A')}, not {i.type}", i)


def _check_list_op(i, types, func, blocks):
    """The list ops (ops.py): `list_new` gives a list; the others take a list first, then
    an i64 index or length (`list_set`: the element type's value before the index)."""
    name = i.opname
    if name in ("list_new", "list_null"):
        if types or not isinstance(i.type, T.ListType):
            _fail(f"{name} takes nothing and gives a list, not {i.type}", i)
        return
    lst = types[0] if types else None
    if not isinstance(lst, T.ListType):
        _fail(f"{name} of a {lst}, not a list", i)
    want = _LIST_OPERANDS[name](lst)
    if types != want:
        _fail(f"{name} takes {', '.join(map(str, want))}, not {', '.join(map(str, types))}", i)
    result = lst.elem if name == "list_get" else _LIST_RESULTS[name]
    if i.type != result:
        _fail(f"{name} gives {result}, instruction says {i.type}", i)


# What each list op after the first takes, given its list's type, and gives (`list_get`: the
# element type).
_LIST_OPERANDS = {"list_len": lambda l: [l], "list_get": lambda l: [l, T.I64],
                  "list_set": lambda l: [l, l.elem, T.I64], "list_resize": lambda l: [l, T.I64],
                  "list_same": lambda l: [l, l], "list_id": lambda l: [l]}
_LIST_RESULTS = {"list_len": T.I64, "list_set": T.NONE, "list_resize": T.BOOL, "list_same": T.BOOL,
                 "list_id": T.I64}


def _check_str_op(i, types, func, blocks):
    """The string ops (ops.py): `str_const` gives a str of its text; `str_new` takes an i64
    length; `str_len`, `str_get`, `str_set` take a str, then i64 code points and indices;
    `str_char` takes an i64 code point; `str_py.F` takes and gives what `STR_PY[F]` says."""
    name = i.opname
    if name == "str_py":
        spec = STR_PY.get(i.attr)
        if spec is None:
            _fail(f"unknown str_py function {i.attr}", i)
        want, result = [t if t == "array" else T.parse_scalar(t) for t in spec[0]], T.parse_scalar(spec[1])
        if "array" in want:         # (an array of any element type and rank)
            want = [t if w == "array" and isinstance(t, T.ArrayType) else w for w, t in zip(want, types)]
    else:
        want = _STR_OPERANDS[name]
        result = _STR_RESULTS.get(name, T.STR)
    if types != want:
        _fail(f"{name} takes {', '.join(map(str, want))}, not {', '.join(map(str, types))}", i)
    if i.type != result:
        _fail(f"{name} gives {result}, instruction says {i.type}", i)
    if name == "str_const" and not isinstance(i.attr, str):
        _fail("str_const needs its text", i)


# What the string ops other than `str_py` take and give (a str where not named here).
_STR_OPERANDS = {"str_const": [], "str_new": [T.I64], "str_char": [T.I64], "str_concat": [T.STR, T.STR],
                 "str_len": [T.STR], "str_eq": [T.STR, T.STR], "str_get": [T.STR, T.I64],
                 "str_set": [T.STR, T.I64, T.I64]}
_STR_RESULTS = {"str_len": T.I64, "str_get": T.I64, "str_set": T.NONE, "str_eq": T.BOOL}


_LAPACK_ARGS = {"c": T.I64, "i": T.I64, "f": T.F64, "r": T.F32, "d": T.ArrayType(T.F64, 1, "C"),
                "s": T.ArrayType(T.F32, 1, "C"), "n": T.ArrayType(T.I64, 1, "C")}


def _check_lapack(i, types, func, blocks):
    """`lapack.R`: R is known, and each operand has its argument's type (arrays of any rank)."""
    sig = LAPACK_ROUTINES.get(i.attr)
    if sig is None:
        _fail(f"unknown LAPACK routine {i.attr!r}", i)
    if i.type != T.I64 or len(types) != len(sig):
        _fail(f"lapack.{i.attr} takes {len(sig)} operands ({sig}) and gives i64", i)
    for k, (letter, t) in enumerate(zip(sig, types)):
        want = _LAPACK_ARGS[letter]
        ok = t == want if not isinstance(want, T.ArrayType) else \
            isinstance(t, T.ArrayType) and t.dtype == want.dtype and t.layout == "C"
        if not ok:
            _fail(f"operand {k} of lapack.{i.attr} ({letter}) is {t}", i)


def _check_array_op(i, types, func, blocks):
    """`dim`/`stride` name an axis of the array; `load`/`store` take one i64 index per axis
    and `store` a value of the element type first."""
    name = i.opname
    a = types[0] if types else None
    if not isinstance(a, T.ArrayType):
        _fail(f"{name} of a {a}, not an array", i)
    if name in ("dim", "stride"):
        if not isinstance(i.attr, int) or not 0 <= i.attr < a.ndim:
            _fail(f"{name}.{i.attr} of a {a.ndim}-d array", i)
        return
    lead = 2 if name == "store" else 1
    if len(types) != lead + a.ndim:
        _fail(f"{name} of a {a.ndim}-d array takes {a.ndim} indices", i)
    if name == "store" and types[1] != a.dtype:
        _fail(f"store of a {types[1]} into a {a}", i)
    if any(t != T.I64 for t in types[lead:]):
        _fail(f"{name} indices must be i64", i)


def _check_branch(i, types, func, blocks):
    name = i.op.name
    nsucc = 1 if name == "br" else 2
    succs, nargs = i.succs, i.succ_nargs
    if len(succs) != nsucc or len(nargs) != nsucc:
        _fail(f"{name} needs {nsucc} successors", i)
    lead = 1 if name == "cbr" else 0
    if lead and types[0] != T.BOOL:
        _fail(f"cbr on {types[0]}", i)
    if lead + sum(nargs) != len(types):
        _fail("branch argument counts do not add up", i)
    start = lead                # where the arguments of `succs[k]` start (`Instr.succ_args`)
    for k, s in enumerate(succs):
        if s not in blocks:
            _fail("branch to a block outside the function", i)
        args = types[start:start + nargs[k]]
        params = s.params
        if len(args) != len(params):
            _fail(f"branch passes {len(args)} arguments to a block with {len(params)} parameters", i)
        for t, p in zip(args, params):
            pt = p.type
            if t is not pt and t != pt:
                _fail(f"branch passes {t} to a parameter of type {pt}", i)
        start += nargs[k]


def _check_exc(i, types, func, blocks):
    """`check`, `raise`, `exception`: a known class, and the values its message takes
    (`check`: after its bool condition)."""
    name = i.opname
    exc = i.attr
    if exc is None or exc.name not in EXCEPTIONS:
        _fail("unknown exception", i)
    extra = types
    if name == "check":
        if not types or types[0] != T.BOOL:
            _fail("check needs a bool condition", i)
        extra = types[1:]
    if exc.message is None:
        if extra:
            _fail("an exception without a message takes no values", i)
        return
    _check_message_operands(i, exc.message, extra)


def _check_message_operands(i: Instr, message: str, types: list) -> None:
    want = message_operands(message)
    if len(want) != len(types):
        _fail(f"message takes {len(want)} values, the instruction gives {len(types)}", i)
    for kind, t in zip(want, types):
        if not (isinstance(t, T.IntType) if kind == "int" else t == T.BOOL if kind == "bool"
                else t == T.STR if kind == "str" else t == T.F64):
            _fail(f"message argument of type {t} for a directive that takes a {kind}", i)


# The operand rule of every op, by `OpInfo.rule`: an op's own name, or the name of a rule its
# row shares with others (ops.py's `operands` column).
_RULES = {
    "numeric": _check_numeric, "float": _check_float, "bits": _check_bits, "int": _check_int,
    "bool": _check_bool, "ovf": _check_ovf, "cmp": _check_cmp, "convert": _check_convert,
    "select": _check_select, "math": _check_math, "complex": _check_complex, "hash": _check_hash,
    "tuple": _check_tuple, "extract": _check_extract,
    "axis": _check_array_op, "load": _check_array_op, "store": _check_array_op, "view": _check_view,
    "transpose": _check_transpose, "part": _check_part, "overlap": _check_overlap,
    "reshape": _check_reshape, "alloc": _check_alloc, "const_array": _check_const_array,
    "gemm": _check_gemm, "lapack": _check_lapack, "rng_state": _check_rng_state,
    "call": _check_call, "exc": _check_exc, "poll": _check_poll, "print": _check_print,
    "list": _check_list_op, "is_null": _check_is_null, "str": _check_str_op,
    "sreg": _check_sreg, "barrier": _check_nothing, "shared": _check_shared, "atomic": _check_atomic,
    "branch": _check_branch, "ret": _check_ret,
    "raised": _check_raised, "catch": _check_nothing, "exc_match": _check_exc_match,
    "reraise": _check_exc_operand,
}
assert {op.rule for op in OPS.values()} == set(_RULES), \
    f"ops without an operand rule, or rules of no op: {({op.rule for op in OPS.values()} ^ set(_RULES))}"

# The result rules of `ops.result_type` that `_verify` applies itself: those giving one type
# whatever the operands, "given" (the type written on the instruction) and "same" (the first
# operand's type, None without operands).
_GIVEN, _SAME = object(), object()
_INSTRS, _OPERANDS = attrgetter("instrs"), attrgetter("operands")
_RESULTS = {"void": T.NONE, "bool": T.BOOL, "i64": T.I64, "exc": T.EXC, "given": _GIVEN, "same": _SAME}
_PLANS = {op.name: _plan(op) for op in OPS.values()}
