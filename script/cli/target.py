"""The user's file: importing it as Python would, and choosing what to compile in it.

`import_file` runs the file as a module named after it, with its directory first on
`sys.path` while it runs, under `deferred_compilation()` (so one broken function does not
stop the import, and annotated functions compile only when asked) and with its prints sent
to stderr (stdout carries only scriptc's own output). A syntax error, an exception while
importing, or a compile error raised by the file's own top-level code become a
`UserCodeError` with a short message, never a traceback from inside scriptc.

`select` turns FUNC names and `--sig` options into `Target`s: a function object (or a
kernel, `@script.kernel`) and the argument-type signatures to compile it for.
"""

from __future__ import annotations

import contextlib
import importlib.machinery
import importlib.util
import inspect
import os
import sys
import traceback
from dataclasses import dataclass, field

from script.cli.errors import UsageError, UserCodeError
from script.cli.signature import SigOption, fit_to_arity
from script.errors import CompileError, SourceLoc, render_at


@dataclass
class LoadedFile:
    path: str                          # as the user wrote it
    module: object
    decoration_errors: list            # CompileErrors of `@script` lines in this file


@dataclass
class Target:
    name: str
    fn: object                         # a script function object
    keys: list = field(default_factory=list)     # argument-type tuples to compile
    missing_sig: bool = False          # unannotated, and no signature was given or seen
    notes: list = field(default_factory=list)    # for stderr: options that did not apply

    @property
    def info(self):
        """The FunctionInfo of the function, of a gradient's primal for a gradient."""
        if self.is_kernel:
            return self.fn._info
        from script.dispatcher import function_info
        return function_info(self.primal)

    @property
    def is_gradient(self) -> bool:
        """Whether `fn` is a gradient object (script.grad, script.value_and_grad)."""
        from script.autodiff import is_gradient
        return is_gradient(self.fn)

    @property
    def primal(self):
        """The script function compiled from source: `fn`, or the function it differentiates."""
        if self.is_gradient:
            from script.autodiff import primal_of
            return primal_of(self.fn)
        return self.fn

    @property
    def is_kernel(self) -> bool:
        from script.cuda.kernel import is_kernel
        return is_kernel(self.fn)


def split_file_name(path: str, names: list[str]) -> tuple[str, list[str]]:
    """`FILE:NAME` (a file that exists, then a function name) as `FILE` and `[NAME, *names]`;
    anything else unchanged."""
    head, sep, name = path.rpartition(":")
    if sep and head and name.isidentifier() and not os.path.exists(path) and os.path.exists(head):
        return head, [name] + [n for n in names if n != name]
    return path, names


def import_file(path: str) -> LoadedFile:
    if not os.path.exists(path):
        raise UsageError(f"{path}: no such file")
    if os.path.isdir(path):
        raise UsageError(f"{path}: is a directory; give a Python file")
    from script.dispatcher import deferred_compilation
    name = os.path.splitext(os.path.basename(path))[0]
    directory = os.path.dirname(os.path.abspath(path))
    added = directory not in sys.path
    if added:
        sys.path.insert(0, directory)
    loader = importlib.machinery.SourceFileLoader(name, path)
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    registered = name not in sys.modules
    if registered:
        sys.modules[name] = module
    try:
        with deferred_compilation() as errors, contextlib.redirect_stdout(sys.stderr):
            loader.exec_module(module)
    except BaseException as e:  # noqa: BLE001 - whatever the user's file raises is reported
        if registered:
            sys.modules.pop(name, None)
        if isinstance(e, KeyboardInterrupt):
            raise
        raise _import_failure(path, e) from None
    finally:
        if added:           # the user's modules must not shadow those scriptc imports later
            sys.path.remove(directory)
    mine = [e for e in errors if e.loc is None or _same_file(e.loc.file, path)]
    return LoadedFile(path, module, mine)


def _import_failure(path: str, e: BaseException) -> UserCodeError:
    if isinstance(e, SyntaxError):
        loc = SourceLoc(e.filename or path, e.lineno or 1, max((e.offset or 1) - 1, 0))
        return UserCodeError(render_at(loc, f"{type(e).__name__}: {e.msg}"), bare=True)
    if isinstance(e, CompileError):
        return UserCodeError(str(e), bare=True)
    what = f"{type(e).__name__}: {e}" if str(e) else type(e).__name__
    if isinstance(e, SystemExit):
        what = f"the file called sys.exit({e.code!r}) while being imported"
    lines = [f"importing {path} failed: {what}"]
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for frame in traceback.extract_tb(e.__traceback__):
        if frame.filename.startswith("<") or os.path.abspath(frame.filename).startswith(here):
            continue
        lines.append(f"  {frame.filename}:{frame.lineno}, in {frame.name}")
        if frame.line:
            lines.append(f"    {frame.line}")
    return UserCodeError("\n".join(lines))


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def script_functions(loaded: LoadedFile, gradients: bool = False) -> dict:
    """The file's module-level `@script` functions and `@script.kernel` kernels defined in
    it, in source order; with `gradients`, also the gradient objects (`script.grad`) of its
    functions, each after the function it differentiates."""
    from script.autodiff import is_gradient, primal_of
    from script.cuda.kernel import is_kernel
    from script.dispatcher import is_script_function
    found = []
    for name, obj in vars(loaded.module).items():
        py_func = primal_of(obj).py_func if gradients and is_gradient(obj) else \
            obj.py_func if is_script_function(obj) or is_kernel(obj) else None
        if py_func is not None and _same_file(py_func.__code__.co_filename, loaded.path):
            found.append((py_func.__code__.co_firstlineno, is_gradient(obj), name, obj))
    found.sort(key=lambda item: item[:2])
    return {name: obj for _, _, name, obj in found}


def select(loaded: LoadedFile, names: list[str], sigs: list[SigOption],
           opt: int | None = None, gradients: bool = False) -> list[Target]:
    """Targets for FUNC names (all `@script` functions when none) and `--sig` options.

    A named plain Python function of the file is compiled as if decorated. A `--sig NAME=…`
    naming a plain function adds it when no names are given. `opt` recompiles at that level.
    `gradients`: gradient objects of the file's functions are targets too (`scriptc dump`).
    """
    found = script_functions(loaded, gradients)
    wanted = list(names) or list(found) + [s.func for s in sigs if s.func and s.func not in found]
    wanted = list(dict.fromkeys(wanted))
    for s in sigs:
        if s.func is not None and s.func not in wanted:
            raise UsageError(f"--sig {s.text!r} names {s.func!r}, which is not among the functions "
                             f"to compile ({', '.join(wanted) or 'none'})")
    targets = []
    for name in wanted:
        fn = found[name] if name in found else _function_named(loaded, name, found)
        target = _with_signatures(Target(name, fn), sigs)
        if target.is_kernel:
            if opt is not None and opt != fn.opt:
                target.fn = fresh_kernel(fn, opt=opt)
        elif target.is_gradient:
            primal = target.primal
            if opt is not None and opt != primal.__dict__["_opt"]:
                from script.autodiff import regradient
                target.fn = regradient(fn, wrap_function(primal.py_func, opt=opt,
                                                         passes=primal.__dict__["_passes"]))
        elif opt is not None and opt != fn.__dict__["_opt"]:
            target.fn = wrap_function(fn.py_func, opt=opt, passes=fn.__dict__["_passes"])
        targets.append(target)
    return targets


def _function_named(loaded: LoadedFile, name: str, found: dict):
    obj = getattr(loaded.module, name, None)
    if obj is None:
        known = ", ".join(found) or "none"
        raise UsageError(f"{loaded.path} has no function {name!r} (its @script functions: {known})")
    if not inspect.isfunction(obj):
        raise UsageError(f"{name!r} in {loaded.path} is not a function (its type is "
                         f"{type(obj).__name__})")
    return wrap_function(obj)


def wrap_function(py_func, **options):
    """A new script function object for `py_func`, compiling nothing yet."""
    import script
    from script.dispatcher import deferred_compilation
    with deferred_compilation() as errors:
        fn = script.script(py_func, **options)
    if errors:
        raise UserCodeError(str(errors[0]), bare=True)
    return fn


def fresh_kernel(kernel, **options):
    """A new kernel object for `kernel`'s Python function, with its options but `options`."""
    from script.cuda.kernel import Kernel
    merged = {"arch": kernel.arch, "boundscheck": kernel.boundscheck, "opt": kernel.opt, **options}
    return Kernel(kernel.py_func, **merged)


def _with_signatures(target: Target, sigs: list[SigOption]) -> Target:
    info = target.info
    named = [s for s in sigs if s.func == target.name]
    bare = [s for s in sigs if s.func is None]
    if named:
        target.keys = [_fit(target, s) for s in named]
    elif info.is_annotated or getattr(info, "hinted_signature", None) is not None:
        target.keys = [tuple(info.param_types) if info.is_annotated else info.hinted_signature]
        if bare:
            target.notes.append(f"note: --sig {bare[0].text!r} ignored for {target.name}, which is "
                                "annotated")
    elif bare:
        target.keys = [_fit(target, s) for s in bare]
    else:                               # made by top-level calls (launches)
        target.keys = list(target.fn.signatures if target.is_kernel
                           else target.fn.__dict__["_specializations"])
        target.missing_sig = not target.keys
    return target


def _fit(target: Target, sig: SigOption) -> tuple:
    """`sig`'s types for `target`: arity checked, defaults filled in, annotations respected."""
    from script.frontend.typeinfer import python_type_name, typeof
    info = target.info
    params = info.param_names
    types = list(fit_to_arity(sig.types, len(params)))
    for p in params[len(types):]:
        if p not in info.defaults:
            break
        ann = info.param_types[params.index(p)]
        types.append(ann if ann is not None else typeof(info.defaults[p]))
    if len(types) != len(params) or None in types:
        raise UsageError(f"--sig {sig.text!r} gives {len(sig.types)} type(s), but "
                         f"{target.name}({', '.join(params)}) takes {len(params)}")
    for p, ann, t in zip(params, info.param_types, types):
        if ann is not None and ann != t:
            raise UsageError(f"--sig {sig.text!r}: parameter {p!r} of {target.name} is annotated "
                             f"{python_type_name(ann)}, not {python_type_name(t)}")
    return tuple(types)
