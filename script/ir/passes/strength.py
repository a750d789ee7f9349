"""strength: ``**`` by a constant as multiplications, ``2 ** n`` as a shift.

Does, for each `pow` (and float `math.pow`) whose exponent is a constant:

- ints, exponent 0..64: a square-and-multiply chain of `mul` (``x ** 5`` is
  ``t = x * x; t = t * t; t * x``), at most 2 log2(e) multiplications; 0 gives 1 and 1 gives
  x. Every `mul` wraps modulo 2**bits, and so does `pow` (ops.py), so the value is the same
  for every x;
- ints, base 2: ``2 ** n`` is ``shl 1, n``. Both give 0 once n >= the width, and the same
  wrapped power below it; n >= 0 is checked by the frontend for `pow` as for `shl`;
- floats (`pow` and `math.pow`), exponent 1: x, and 0 or -0: 1.0 — exact for every x,
  NaN included (C99 Annex F: pow(x, ±0) is 1, pow(x, 1) is x);
- floats, exponent 2: ``x * x``, the exactly rounded square. This is the documented meaning
  of ``x ** 2`` (docs/language.md, differences from CPython), and what LLVM's -O2 already makes of
  `llvm.pow(x, 2.0)` on the CPU, so CPU results at opt >= 1 do not change; on the GPU, where
  the backend sends pow to libdevice's ``__nv_pow`` (which LLVM does not simplify), it saves
  a pow call (``out[i] = a[i] ** 2`` in a kernel: 59 lines of PTX instead of 294).

Not done, float ``x ** -1`` as ``1.0 / x`` and ``x ** 0.5`` as
``x == -inf ? inf : fabs(sqrt(x))``: the replacements are correctly rounded and exact at the
special inputs (±0, ±inf, NaN), but glibc's pow is not correctly rounded. Measured here (glibc
2.36) on 200 000 random doubles, pow(x, 2) differs from x * x in the last bit for about 0.09%
of them (79.44024735247876 ** 2 is 6310.75289942301 in CPython, x * x is
6310.752899423009), and likewise for -1 and 0.5, which, unlike the square, are not documented
differences. ``x * x * x`` for exponent 3 rounds twice and differs for about one x in four.
(LLVM's own -O2 makes the -1 and 0.5 replacements in `llvm.pow` too, without fast-math
flags, so the CPU code at opt >= 1 already gives them; that is the backend's business.)

Why ints here and not only in LLVM: LLVM's -O2 ends with the same multiplications (it inlines
the `script.ipow` helper and unrolls its loop for a constant exponent), but the IR handed to
it is smaller (no helper to inline and unroll), and CSE and LICM see plain multiplications.

Not done either, because the backend (llvm/arith.py) already lowers them at every level and
the LLVM IR would be byte-identical: int ``//`` and ``%`` by a positive power of two (an
arithmetic shift and a mask, exact under floor semantics for signed ints too), and ``mul``
by a power of two (LLVM's own shift).

Assumes: verified IR; `pow` on ints has a non-negative exponent (checked before it).
Preserves: the CFG, block parameters; the replaced instruction is erased, and new ones carry
its source location. Stats: ``int_chain``, ``int_shift``, ``float_square``,
``identity`` (exponent 1), ``one`` (exponent 0).
"""

from __future__ import annotations

import math
from collections import Counter

from script.ir import types as T
from script.ir.core import Const, Function, Instr, Value, reachable_blocks, replace_all_uses_with

# The largest int exponent turned into a chain: at most 12 multiplications.
MAX_INT_EXPONENT = 64


class _Emitter:
    """Inserts new instructions before `at`, with its location."""

    def __init__(self, at: Instr):
        self.at = at

    def __call__(self, op: str, operands, type: T.Type, attr=None) -> Instr:
        block = self.at.block
        new = Instr(op, operands, type, attr, self.at.loc)
        block.insert(block.instrs.index(self.at), new)
        return new


def _int_chain(i: Instr, x: Value, e: int) -> Value:
    """x ** e by square-and-multiply over the bits of `e` (>= 1), most significant first."""
    emit = _Emitter(i)
    acc = x
    for bit in bin(e)[3:]:
        acc = emit("mul", [acc, acc], i.type)
        if bit == "1":
            acc = emit("mul", [acc, x], i.type)
    return acc


def _rewrite_int(i: Instr, x: Value, y: Value, stats: Counter) -> Value | None:
    # %1 = pow %0, 5:i64 : i64    ->  %a = mul %0, %0; %b = mul %a, %a; %1 = mul %b, %0
    # %1 = pow 2:i64, %0 : i64    ->  %1 = shl 1:i64, %0 : i64
    if isinstance(y, Const):
        e = y.value
        if e < 0 or e > MAX_INT_EXPONENT:
            return None
        if e == 0:
            stats["one"] += 1
            return Const(1, i.type)
        if e == 1:
            stats["identity"] += 1
            return x
        stats["int_chain"] += 1
        return _int_chain(i, x, e)
    if isinstance(x, Const) and x.value == 2:
        stats["int_shift"] += 1
        return _Emitter(i)("shl", [Const(1, i.type), y], i.type)
    return None


def _rewrite_float(i: Instr, x: Value, y: Value, stats: Counter) -> Value | None:
    # %1 = math.pow %0, 1.0:f64 : f64    ->  %0
    # %1 = math.pow %0, -0.0:f64 : f64   ->  1.0:f64
    if not isinstance(y, Const) or math.isnan(y.value):
        return None
    if y.value == 0:
        stats["one"] += 1
        return Const(1.0, i.type)
    if y.value == 1:
        stats["identity"] += 1
        return x
    if y.value == 2:
        # %1 = pow %0, 2.0:f64 : f64     ->  %1 = mul %0, %0 : f64
        stats["float_square"] += 1
        return _Emitter(i)("mul", [x, x], i.type)
    return None


def _rewrite(i: Instr, stats: Counter) -> Value | None:
    if i.opname == "pow":
        x, y = i.operands
    elif i.opname == "math" and i.attr == "pow":
        x, y = i.operands
    else:
        return None
    if isinstance(i.type, T.IntType):
        return _rewrite_int(i, x, y, stats)
    if isinstance(i.type, T.FloatType):
        return _rewrite_float(i, x, y, stats)
    return None


def run(func: Function, stats: Counter | None = None) -> bool:
    """Rewrite every `pow` by a constant this pass knows; returns whether any was."""
    stats = stats if stats is not None else Counter()
    changed = False
    for block in reachable_blocks(func):
        for i in list(block.instrs):
            new = _rewrite(i, stats)
            if new is None:
                continue
            replace_all_uses_with(i, new)
            i.erase()
            changed = True
    return changed
