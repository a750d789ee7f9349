"""constfold: fold constant operations and apply peephole rules, to a local fixpoint.

Does: replaces each pure op whose operands are all constants by its value (exactly the
backend's, see `semantics.fold`; nothing undefined or raising is folded); `select` on a
constant condition by the chosen operand; `cbr` on a constant by a `br`; removes a `check`
whose condition is constant false; and applies the peephole rules in `RULES`.

Rules are data: each is a small function taking an instruction and returning None (no
match), a `Value` that replaces the instruction's result (the instruction is then erased),
`ERASE` (drop this effect-only instruction) or `CHANGED` (rewritten in place). Each has a
comment with the IR before and after. One driver (`run`) applies them over a worklist:
when an instruction changes, its users are revisited. A rule never makes code worse: it
removes an instruction, replaces it by a cheaper one, or puts it in a canonical form
(constant operand on the right) that lets later rules and cse match.

Assumes: verified IR. Preserves: the CFG except for `cbr`s on constants (blocks may become
unreachable; dce removes them), block parameters. Leaves now-unused operands to dce.
Stats: one count per rule name.
"""

from __future__ import annotations

from collections import Counter, deque

from script.ir import types as T
from script.ir.core import Const, Function, Instr, Value, replace_all_uses_with, reachable_blocks
from script.ir.ops import is_subclass
from script.ir import semantics
from script.ir.passes._cfg import take_edge

ERASE = object()
CHANGED = object()


def _const(v: Value, *values) -> bool:
    """Whether `v` is a constant equal to one of `values` (compared by key: -0.0 != 0.0)."""
    return isinstance(v, Const) and any(v.key() == Const(x, v.type).key() for x in values)


def _is_int(v: Value) -> bool:
    return isinstance(v.type, T.IntType)


def _all_ones(t: T.Type):
    return True if t == T.BOOL else -1 if t.signed else t.max


# --- rules ---------------------------------------------------------------------------------

def fold_constant(i: Instr):
    # %2 = add 1:i64, 2:i64 : i64        ->  3:i64
    if not i.op.pure or not i.operands:
        return None
    for v in i.operands:
        if not isinstance(v, Const):
            return None
    if not i.has_result:
        return None
    return semantics.fold(i.op.name, i.attr, i.type, i.operands)


def swap_constant_right(i: Instr):
    # %2 = add 1:i64, %0 : i64           ->  %2 = add %0, 1:i64 : i64
    # %2 = cmp.lt 1:i64, %0 : bool       ->  %2 = cmp.gt %0, 1:i64 : bool
    a, b = i.operands
    if not isinstance(a, Const) or isinstance(b, Const):
        return None
    if i.opname in ("min", "max") and not _is_int(a):
        return None                       # min(nan, x) is not min(x, nan)
    if i.opname == "cmp":
        i.attr = _SWAPPED_PRED[i.attr]
    i.set_operand(0, b)
    i.set_operand(1, a)
    return CHANGED


_SWAPPED_PRED = {"eq": "eq", "ne": "ne", "lt": "gt", "le": "ge", "gt": "lt", "ge": "le"}


def add_zero(i: Instr):
    # %2 = add %0, 0:i64 : i64           ->  %0
    # %2 = add %0, -0.0:f64 : f64        ->  %0     (x + 0.0 is not x for x = -0.0)
    # %2 = add %0, -0.0+-0.0j:c128 : c128  ->  %0   (part by part, as for floats)
    a, b = i.operands
    zero = complex(-0.0, -0.0) if isinstance(b.type, T.ComplexType) else \
        -0.0 if isinstance(b.type, T.FloatType) else 0
    return a if _const(b, zero) else None


def sub_zero(i: Instr):
    # %2 = sub %0, 0:i64 : i64           ->  %0     (also 0.0 for floats: -0.0 - 0.0 = -0.0)
    a, b = i.operands
    return a if _const(b, 0) else None


def sub_self(i: Instr):
    # %2 = sub %0, %0 : i64              ->  0:i64  (ints only: inf - inf is nan)
    a, b = i.operands
    return Const(0, i.type) if a is b and _is_int(a) else None


def mul_one(i: Instr):
    # %2 = mul %0, 1:i64 : i64           ->  %0     (also 1.0 for floats; not complex:
    # (inf+1j) * (1+0j) is (nan+infj) in CPython)
    a, b = i.operands
    return a if _const(b, 1) and not isinstance(a.type, T.ComplexType) else None


def mul_zero(i: Instr):
    # %2 = mul %0, 0:i64 : i64           ->  0:i64  (ints only: 0.0 * inf is nan)
    a, b = i.operands
    return Const(0, i.type) if _is_int(a) and _const(b, 0) else None


def div_one(i: Instr):
    # %2 = floordiv %0, 1:i64 : i64      ->  %0     (ints; div x, 1.0 for floats)
    a, b = i.operands
    if i.opname == "floordiv" and not _is_int(a) or isinstance(a.type, T.ComplexType):
        return None                       # inf // 1.0 is nan in Python, (1+infj) / 1 nan+infj
    return a if _const(b, 1) else None


def mod_one(i: Instr):
    # %2 = mod %0, 1:i64 : i64           ->  0:i64  (ints only)
    a, b = i.operands
    return Const(0, i.type) if _is_int(a) and _const(b, 1) else None


def same_operands(i: Instr):
    # %2 = and %0, %0 : i64              ->  %0     (also or, min, max)
    # %2 = xor %0, %0 : i64              ->  0:i64
    a, b = i.operands
    if a is not b:
        return None
    return Const(0, i.type) if i.opname == "xor" else a


def bitwise_identity(i: Instr):
    # %2 = or %0, 0:i64 : i64            ->  %0     (also xor x, 0 and and x, -1)
    # %2 = and %0, 0:i64 : i64           ->  0:i64  (also or x, -1 -> -1)
    a, b = i.operands
    if not isinstance(b, Const):
        return None
    zero, ones = (False if a.type == T.BOOL else 0), _all_ones(a.type)
    if _const(b, zero):
        return b if i.opname == "and" else a
    if _const(b, ones) and i.opname in ("and", "or"):
        return a if i.opname == "and" else b
    return None


def shift_zero(i: Instr):
    # %2 = shl %0, 0:i64 : i64           ->  %0     (also shr)
    a, b = i.operands
    return a if _const(b, 0) else None


def pow_small(i: Instr):
    # %2 = pow %0, 0:i64 : i64           ->  1:i64  (C pow(x, 0.0) is 1.0 even for nan)
    # %2 = pow %0, 1:i64 : i64           ->  %0
    a, b = i.operands
    if _const(b, 0):
        return Const(1, i.type)
    return a if _const(b, 1) else None


def involution(i: Instr):
    # %1 = neg %0 : i64; %2 = neg %1 : i64  ->  %0   (also invert, not)
    a = i.operands[0]
    if isinstance(a, Instr) and a.opname == i.opname:
        return a.operands[0]
    return None


def cmp_self(i: Instr):
    # %2 = cmp.le %0, %0 : bool          ->  true   (ints and bools; nan <= nan is false)
    a, b = i.operands
    if a is not b or isinstance(a.type, (T.FloatType, T.ComplexType)):
        return None
    return Const(i.attr in ("eq", "le", "ge"), T.BOOL)


_NEGATED = {"eq": "ne", "ne": "eq", "lt": "ge", "ge": "lt", "le": "gt", "gt": "le"}


def complementary_cmps(i: Instr):
    # %2 = cmp.eq %0, 1:i64 : bool
    # %3 = cmp.ne %0, 1:i64 : bool
    # %4 = and %2, %3 : bool             ->  false  (or: true; ints and bools, not floats,
    #                                                where nan < 1.0 and nan >= 1.0 are false)
    a, b = i.operands
    if i.type != T.BOOL or not all(isinstance(c, Instr) and c.opname == "cmp" for c in (a, b)):
        return None
    x, y = a.operands, b.operands
    if not isinstance(x[0].type, (T.IntType, T.BoolType)) or _NEGATED.get(a.attr) != b.attr:
        return None
    if not all(_same(u, v) for u, v in zip(x, y)):
        return None
    return Const(i.opname == "or", T.BOOL)


def _same(u: Value, v: Value) -> bool:
    return u is v or (isinstance(u, Const) and isinstance(v, Const) and u.type == v.type
                      and u.key() == v.key())


def select_const_cond(i: Instr):
    # %3 = select true, %0, %1 : i64     ->  %0
    c, a, b = i.operands
    if not isinstance(c, Const):
        return None
    return a if c.value else b


def select_same(i: Instr):
    # %3 = select %2, %0, %0 : i64       ->  %0
    _, a, b = i.operands
    return a if a is b else None


def select_bool(i: Instr):
    # %3 = select %2, true, false : bool ->  %2     (bool results only: 1:i64 == True)
    c, a, b = i.operands
    return c if i.type == T.BOOL and _const(a, True) and _const(b, False) else None


def convert_same_type(i: Instr):
    # %1 = convert %0 : i64  (%0: i64)   ->  %0
    a = i.operands[0]
    return a if a.type == i.type else None


def extract_tuple(i: Instr):
    # %2 = tuple %0, %1 : (i64, f64); %3 = extract.1 %2 : f64   ->  %1
    # %2 = complex %0, %1 : c128; %3 = extract.1 %2 : f64       ->  %1
    # extract.1 1.0+2.0j:c128 : f64                             ->  2.0:f64
    t = i.operands[0]
    if isinstance(t, Instr) and t.opname in ("tuple", "complex"):
        return t.operands[i.attr]
    if isinstance(t, Const) and isinstance(t.type, T.ComplexType):
        return Const(t.value.imag if i.attr else t.value.real, i.type)
    return None


def dim_known(i: Instr):
    # %1 = alloc %n, %m : f64[:,::1]; %2 = dim.1 %1 : i64       ->  %m
    # (also `reshape`'s lengths, and a `view`'s length operand of a sliced axis)
    a = i.operands[0]
    if not isinstance(a, Instr):
        return None
    if a.opname == "alloc":
        return a.operands[i.attr]
    if a.opname == "reshape":
        return a.operands[1 + i.attr]
    if a.opname == "view":
        pos, kept = 1, 0
        for kind in a.attr:
            if kind in "sn":
                if kept == i.attr:
                    return a.operands[pos + 1] if kind == "s" else Const(1, T.I64)
                kept += 1
                pos += 3 if kind == "s" else 0
            else:
                pos += 1
    return None


def sqrt_is_infinite(i: Instr):
    # %r = math.sqrt %x; %a = abs %r; cmp.eq %a, inf   ->  cmp.eq %x, inf
    # (the range check after math.sqrt: its result is infinite only for x = +inf, since
    # the root of a finite x is finite or NaN; LLVM then folds the check, ``x == inf and
    # |x| < inf``, to false)
    a, inf = i.operands
    if not (i.attr == "eq" and isinstance(inf, Const) and inf.value == float("inf")
            and isinstance(a, Instr) and a.opname == "abs"):
        return None
    r = a.operands[0]
    if not (isinstance(r, Instr) and r.opname == "math" and r.attr == "sqrt" and len(r.operands) == 1):
        return None
    i.set_operand(0, r.operands[0])
    return CHANGED


def cbr_const(i: Instr):
    # cbr true, bb1(%0), bb2             ->  br bb1(%0)
    c = i.operands[0]
    if not isinstance(c, Const):
        return None
    take_edge(i.block, 0 if c.value else 1)
    return CHANGED


def check_false(i: Instr):
    # check false, ZeroDivisionError     ->  (nothing)
    return ERASE if _const(i.operands[0], False) else None


_COMMUTATIVE = (swap_constant_right,)
RULES: dict[str, tuple] = {
    "add": (fold_constant, *_COMMUTATIVE, add_zero),
    "sub": (fold_constant, sub_zero, sub_self),
    "mul": (fold_constant, *_COMMUTATIVE, mul_one, mul_zero),
    "div": (fold_constant, div_one),
    "floordiv": (fold_constant, div_one),
    "mod": (fold_constant, mod_one),
    "pow": (fold_constant, pow_small),
    "and": (fold_constant, *_COMMUTATIVE, same_operands, bitwise_identity, complementary_cmps),
    "or": (fold_constant, *_COMMUTATIVE, same_operands, bitwise_identity, complementary_cmps),
    "xor": (fold_constant, *_COMMUTATIVE, same_operands, bitwise_identity),
    "min": (fold_constant, *_COMMUTATIVE, same_operands),
    "max": (fold_constant, *_COMMUTATIVE, same_operands),
    "shl": (fold_constant, shift_zero),
    "shr": (fold_constant, shift_zero),
    "neg": (fold_constant, involution),
    "invert": (fold_constant, involution),
    "not": (fold_constant, involution),
    "abs": (fold_constant,),
    "cmp": (fold_constant, swap_constant_right, cmp_self, sqrt_is_infinite),
    "convert": (fold_constant, convert_same_type),
    "select": (select_const_cond, select_same, select_bool),
    "extract": (extract_tuple,),
    "complex": (fold_constant,),
    "dim": (dim_known,),
    "math": (fold_constant,),
    "cbr": (cbr_const,),
    "check": (check_false,),
}


def exc_match_known(i: Instr):
    # %1 = exception ZeroDivisionError "..." : exc
    # %2 = exc_match.ArithmeticError %1 : bool        ->  true
    e = i.operands[0]
    if isinstance(e, Instr) and e.opname == "exception":
        return Const(is_subclass(e.attr.name, i.attr), T.BOOL)
    return None


RULES["exc_match"] = (exc_match_known,)


# --- driver --------------------------------------------------------------------------------

def run(func: Function, stats: Counter | None = None) -> bool:
    """Apply `RULES` until none matches; counts each rule's matches in `stats`."""
    stats = stats if stats is not None else Counter()
    work = deque(i for b in reachable_blocks(func) for i in b.instrs)
    queued = set(work)

    def push(i: Instr) -> None:
        if i not in queued:
            queued.add(i)
            work.append(i)

    changed = False
    while work:
        i = work.popleft()
        queued.discard(i)
        if i.block is None:
            continue
        for rule in RULES.get(i.op.name, ()):
            result = rule(i)
            if result is None:
                continue
            changed = True
            stats[rule.__name__] += 1
            if result is CHANGED:
                if i.block is not None:
                    push(i)
                    for u in i.uses:
                        push(u)
            elif result is ERASE:
                i.erase()
            else:
                users = list(i.uses)
                replace_all_uses_with(i, result)
                i.erase()
                for u in users:
                    push(u)
            break
    return changed
