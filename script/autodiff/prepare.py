"""The primal function the adjoint is built from: the user's function for one signature,
optimized, with every call that can be inlined inlined.

Why inline: a callee inlined is differentiated with its caller's tape, in place, whatever it
writes. A call that stays (a recursive function: NumPy's pairwise `sum`) is differentiated
by calling the callee's own adjoint in the reverse sweep, which runs the callee again, so it
must read memory as it was (script.autodiff.adjoint checks). Why `gemm` becomes false: matmul is
a BLAS call with a loop beside it for when BLAS declines; the loop is what can be
differentiated.
"""

from __future__ import annotations

from script.errors import CompileError
from script.ir import types as T
from script.ir.core import Const, Function, replace_all_uses_with

MAX_INLINE_ROUNDS = 64
# Passes not run on the primal: loop versioning copies a loop (bounds checks out of one
# copy), so its exit has two loops as predecessors and its counter must be taped rather
# than stepped back (adjoint.py `_find_counters`). It runs on the gradient instead.
KEPT_OUT = ("versioning",)


def primal_function(info, arg_types: tuple, opt: int) -> Function:
    """The optimized IR of `info` for `arg_types`, its non-recursive calls inlined. Runs under
    the frontend's lock, as script.compiler does."""
    from script.compiler import disabled_passes, verify_enabled
    from script.ir.passes import run_pipeline
    from script.dispatcher import make_function_infos
    from script.frontend.specialize import closure_of, specialize
    from script.ir.clone import clone_functions
    from script.ir.core import Module
    make_function_infos()
    func = specialize(info, arg_types, True)
    built = closure_of(func)
    funcs = clone_functions(built)
    module = Module(funcs)
    from script.frontend.cuda_lowering import reject_kernel_ops
    reject_kernel_ops(module)
    from script.frontend.list_args import reject_argument_list_writes
    reject_argument_list_writes(built)       # as script.compiler does (the functions as built)
    from script.frontend.frozen import reject_const_array_writes
    reject_const_array_writes(module)
    for f in funcs:
        _drop_gemm(f)
    if verify_enabled():
        from script.ir.verifier import verify_module
        verify_module(module, after="frontend")
    options = dict(level=max(opt, 1), verify=verify_enabled(),
                   disabled=tuple(set(disabled_passes()) | set(KEPT_OUT)))
    for f in funcs:
        run_pipeline(f, **options)
    entry = funcs[0]
    if _inline_all(entry):
        run_pipeline(entry, **options)
    return entry


def _drop_gemm(func: Function) -> None:
    """Every `gemm` gives false (BLAS declined), so the product is the loop beside it."""
    for b in func.blocks:
        for i in list(b.instrs):
            if i.opname == "gemm":
                replace_all_uses_with(i, Const(False, T.BOOL))
                i.erase()


def is_recursive(func: Function) -> bool:
    """Whether `func` can reach itself through calls."""
    from script.ir.analysis import calls_reach
    return any(calls_reach(c, func) for c in func.callees())


def _inline_all(func: Function) -> bool:
    """Inline every call of a non-recursive callee into `func`, repeatedly. Returns whether
    anything changed."""
    from script.ir.passes.inline import _is_caught, inline_call
    changed = False
    for _ in range(MAX_INLINE_ROUNDS):
        calls = [i for b in func.blocks for i in b.instrs
                 if i.opname == "call" and i.attr is not func and not is_recursive(i.attr)
                 and not _is_caught(i)]
        if not calls:
            return changed
        for call in calls:
            inline_call(func, call, call.attr)
        changed = True
    raise CompileError("script.grad: calls nested too deeply to inline", func.loc)
