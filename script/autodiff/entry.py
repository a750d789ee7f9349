"""The gradient's entry function, and its compilation into a specialization.

``F$grad(params...)`` makes a zeroed shadow for each float array parameter, refuses two of
them that share memory (they would need one shadow: ValueError at the call), calls F's
adjoint with seed 1, and returns what was asked: the gradient (one, or a tuple for several
`argnums`), with the value first for `value_and_grad`. An array's gradient is its shadow.
"""

from __future__ import annotations

from script.errors import CompileError
from script.ir import types as T
from script.ir.core import Const, Function, Instr
from script.ir.ops import ExcInfo
from script.autodiff.activity import is_float, is_float_array
from script.autodiff.adjoint import adjoint_of
from script.autodiff.tape import zeros_function


def entry_name(primal: Function, argnums: tuple, with_value: bool, as_tuple: bool) -> str:
    """``f$grad.SIG`` for `grad(f)`; ``f$value_and_grad_0_1.SIG`` for
    `value_and_grad(f, (0, 1))`: what was asked is in the name, so that the gradients of one
    function are told apart (`scriptc dump` prints a module of them all)."""
    base, _, sig = primal.name.partition(".")
    kind = "value_and_grad" if with_value else "grad"
    n = len(primal.param_types)
    nums = "" if argnums == (0,) and not as_tuple else \
        "_" + "_".join(str(k % n) for k in argnums)
    return f"{base}${kind}{nums}.{sig}"


def build_entry(primal: Function, argnums: tuple, with_value: bool, names: list,
                as_tuple: bool) -> Function:
    ptypes = primal.param_types
    for k in argnums:
        if k >= len(ptypes) or k < -len(ptypes):
            raise CompileError(f"script.grad: argnums {k} is out of range for "
                               f"{len(ptypes)} parameters", primal.loc)
        t = ptypes[k]
        if not (is_float(t) or is_float_array(t)):
            raise CompileError(f"script.grad: cannot differentiate with respect to parameter "
                               f"'{names[k]}' of type {t}: only floats and float arrays",
                               primal.loc)
    cache: dict = {}
    adj = adjoint_of(primal, cache, {k % len(ptypes) for k in argnums})
    top = Function(entry_name(primal, argnums, with_value, as_tuple), ptypes, T.NONE, primal.loc,
                   names)
    b = top.entry

    def emit(op, operands, t=T.NONE, attr=None):
        return b.append(Instr(op, operands, t, attr, primal.loc))

    params = list(top.params)
    shadows, arrays = {}, []
    for k, p in enumerate(params):
        if not is_float_array(p.type):
            continue
        dims = [emit("dim", [p], T.I64, d) for d in range(p.type.ndim)]
        z = emit("call", dims, p.type.with_layout("C"), zeros_function(p.type, cache))
        if p.type.layout != "C":
            ops = []
            for d in dims:
                ops += [Const(0, T.I64), d, Const(1, T.I64)]
            z = emit("view", [z, *ops], p.type, "s" * p.type.ndim)
        for q, other in arrays:
            same = emit("overlap", [p, other], T.BOOL)
            emit("check", [same], T.NONE, ExcInfo(
                "ValueError", f"script.grad: arguments '{names[q]}' and '{names[k]}' share "
                              "memory; the gradient needs separate arrays"))
        arrays.append((k, p))
        shadows[k] = z
    seed = Const(1.0, primal.ret_type)
    out = emit("call", [*params, *[shadows[k] for k in sorted(shadows)], seed], adj.ret_type, adj)
    scalar_slot = {k: n + 1 for n, k in enumerate(k for k, t in enumerate(ptypes) if is_float(t))}
    grads = []
    for k in argnums:
        k %= len(ptypes)
        if k in shadows:
            grads.append(shadows[k])
        else:
            grads.append(emit("extract", [out], ptypes[k], scalar_slot[k]))
    result = grads[0] if not as_tuple else emit("tuple", grads, T.TupleType([g.type for g in grads]))
    if with_value:
        value = emit("extract", [out], primal.ret_type, 0)
        result = emit("tuple", [value, result], T.TupleType([value.type, result.type]))
    top.ret_type = result.type
    emit("ret", [result])
    return top
