"""`script.grad` and `script.value_and_grad`: reverse-mode derivatives of compiled functions,
built as a transformation of the typed SSA IR (docs/grad.md).

The object returned is a compiled function like any other (the heap type of
script.dispatcher): one specialization per argument signature, compiled on the first call
with it, its IR shown by ``g.ir("opt")``. Each specialization is compiled from the primal's
optimized IR (prepare.py), its adjoint (adjoint.py, activity.py, rules.py) and an entry
function (entry.py), through the IR passes and the backend as script.compiler does.
"""

from __future__ import annotations

import threading

_reentry = threading.local()


def grad(f, argnums=0):
    """The gradient of compiled function `f` (whose result is a float) with respect to its
    arguments `argnums` (an int, or a tuple of them): a compiled function taking `f`'s
    arguments and returning the gradient (a float for a float argument, an array of the
    argument's shape for a float array; a tuple of them for a tuple `argnums`)."""
    return _gradient_function(f, argnums, False)


def value_and_grad(f, argnums=0):
    """As `grad`, but the compiled function returns ``(f(*args), gradient)``."""
    return _gradient_function(f, argnums, True)


def _gradient_function(f, argnums, with_value: bool):
    from script.dispatcher import function_type, is_script_function
    from script.loadpath import new_instance
    if not is_script_function(f):
        raise TypeError(f"script.grad: {f!r} is not a function compiled with @script")
    if "_packed" in f.__dict__:
        raise TypeError(f"script.grad: {f.__name__} takes *args; differentiate a function with "
                        "named parameters")
    single = isinstance(argnums, int) and not isinstance(argnums, bool)
    nums = (argnums,) if single else tuple(argnums) if isinstance(argnums, (tuple, list)) else None
    if not nums or not all(isinstance(k, int) and not isinstance(k, bool) for k in nums):
        raise TypeError("script.grad: argnums must be an int or a non-empty tuple of ints")
    target = []

    def trampoline(*args, **kwargs):
        return target[0](*args, **kwargs)

    obj = new_instance(function_type(), trampoline)
    kind = "value_and_grad" if with_value else "grad"
    obj.__dict__.update(_specializations={}, py_func=None, __wrapped__=f,
                        _gradient=(nums, with_value, single),
                        __name__=f"{kind}({f.__name__})", __qualname__=f"{kind}({f.__qualname__})",
                        __doc__=f"The gradient of {f.__qualname__} (script.{kind}).",
                        __module__=f.__module__)
    target.append(_fallback(obj, f, nums, with_value, not single))

    def compile(*types):
        """Compile the gradient for these argument types (Python or script types) now."""
        from script.dispatcher import _signature_key, function_info
        _specialization(obj, f, function_info(f), _signature_key(f, types), nums, with_value,
                        not single)
        return obj

    obj.__dict__["compile"] = compile      # the heap type's own would compile f itself
    return obj


def is_gradient(obj) -> bool:
    """Whether `obj` is a function object `grad` or `value_and_grad` returned."""
    from script.dispatcher import function_type
    return type(obj) is function_type() and "_gradient" in obj.__dict__


def primal_of(obj):
    """The compiled function a gradient object differentiates."""
    return obj.__dict__["__wrapped__"]


def regradient(obj, f):
    """A new gradient object like `obj` (same argnums, with or without the value), of `f`
    (the primal compiled with other options: `scriptc dump --opt`)."""
    nums, with_value, single = obj.__dict__["_gradient"]
    return _gradient_function(f, nums[0] if single else nums, with_value)


def gradient_ir(obj, key: tuple, stage: str, print_after: str | None = None, stream=None):
    """The IR module of gradient object `obj` for argument types `key`: as the entry and
    adjoint are built ("ssa") or after the passes and the interrupt checks ("opt"), as a
    compiled specialization holds them, without LLVM. `print_after` and `stream` as
    script.ir.passes.run_pipeline takes them (`scriptc dump --print-after`)."""
    from script.dispatcher import function_info
    from script.frontend.specialize import COMPILE_LOCK
    f = primal_of(obj)
    nums, with_value, single = obj.__dict__["_gradient"]
    with COMPILE_LOCK:
        ssa, module = _gradient_module(function_info(f), key, nums, with_value, not single,
                                       f.__dict__.get("_opt", 2), stage == "ssa", print_after,
                                       stream)
    from script.ir.core import Module
    return Module(ssa) if stage == "ssa" else module


def _fallback(obj, f, argnums: tuple, with_value: bool, as_tuple: bool):
    signature = None

    def fallback(*args, **kwargs):
        nonlocal signature
        from script.dispatcher import _types_for, function_info
        info = function_info(f)
        if signature is None:
            import inspect
            signature = inspect.signature(info.py_func)
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"{obj.__name__}: {e}") from None
        bound.apply_defaults()
        values = list(bound.arguments.values())
        key, coerced = _types_for(f, info, values)
        _specialization(obj, f, info, key, argnums, with_value, as_tuple)
        if getattr(_reentry, "active", False):
            raise TypeError(f"{obj.__name__}: arguments of types {key} do not match its "
                            "compiled signature")
        _reentry.active = True
        try:
            return obj(*coerced)
        finally:
            _reentry.active = False

    return fallback


def _specialization(obj, f, info, key: tuple, argnums, with_value: bool, as_tuple: bool):
    from script.errors import CompileError
    from script.frontend.specialize import COMPILE_LOCK
    from script.loadpath import set_specializations
    specs = obj.__dict__["_specializations"]
    with COMPILE_LOCK:
        spec = specs.get(key)
        if spec is not None:
            return spec
        d = f.__dict__
        try:
            spec = compile_gradient(info, key, argnums, with_value, as_tuple, d.get("_opt", 2))
        except CompileError as e:
            raise e.with_traceback(None) from None
        specs[key] = spec
        set_specializations(obj, [s.native for s in specs.values()], len(key))
    return spec


def compile_gradient(info, key: tuple, argnums, with_value: bool, as_tuple: bool, opt: int):
    """The Specialization of the gradient of `info` for argument types `key`."""
    import time
    from script.compiler import Specialization, _gc_paused, llvm_level
    from script.backend import compile_native
    from script.dispatcher import numpy_scalar_params
    with _gc_paused():
        times: dict = {}
        ssa_functions, module = _gradient_module(info, key, argnums, with_value, as_tuple, opt,
                                                 times=times)
        top = next(iter(module.functions.values()))
        t2 = time.perf_counter()
        native = compile_native(module, top.name, opt_level=llvm_level(module, opt), nogil=True,
                                numpy_scalars=numpy_scalar_params(info.param_types, key))
        times["backend"] = time.perf_counter() - t2
    return Specialization(tuple(key), top.ret_type, module, ssa_functions, native, times)


def _gradient_module(info, key: tuple, argnums, with_value: bool, as_tuple: bool, opt: int,
                     ssa_only: bool = False, print_after: str | None = None, stream=None,
                     times: dict | None = None):
    """``(ssa_functions, module)``: the gradient's functions as built (copies), and the
    module after the IR passes and the interrupt checks (None when `ssa_only`). Runs under
    the frontend's lock."""
    import time
    from script.compiler import add_interrupt_checks, disabled_passes, verify_enabled
    from script.frontend.specialize import closure_of
    from script.ir.clone import clone_functions
    from script.ir.core import Module
    from script.ir.passes import run_pipeline
    from script.autodiff.entry import build_entry
    from script.autodiff.prepare import primal_function
    t0 = time.perf_counter()
    primal = primal_function(info, key, opt)
    top = build_entry(primal, argnums, with_value, list(info.param_names), as_tuple)
    funcs = closure_of(top)
    module = Module(funcs)
    if verify_enabled():
        from script.ir.verifier import verify_module
        verify_module(module, after="script.grad")
    ssa_functions = clone_functions(funcs)
    if ssa_only:
        return ssa_functions, None
    t1 = time.perf_counter()
    for f in module.functions.values():
        run_pipeline(f, level=opt, verify=verify_enabled(), disabled=disabled_passes(),
                     print_after=print_after, stream=stream)
    module = Module(closure_of(top))
    add_interrupt_checks(module)
    if times is not None:
        times.update(frontend=t1 - t0, passes=time.perf_counter() - t1)
    return ssa_functions, module
