"""Compile every function of a tree of plain-Python modules and compare one entry point with CPython.

    python benchmarks/module_corpus.py DIR [DIR ...] [--entry compute] [--lib eulerlib]
                                       [--jobs 2] [--json out.json] [-v]
    python benchmarks/module_corpus.py DIR [DIR ...] --main [--cpython-limit 5] [--jobs 2] ...

The sibling of doctest_corpus.py (whose child processes, time limits and classification it
uses) for code that has no examples but one entry point per file, such as Project Euler
solutions (`def compute(): ... return str(ans)`). For each file that defines the entry point
(in a child process): the entry point is called with no arguments as CPython runs it (files
for which CPython needs more than --cpython-limit seconds are skipped); then in a new instance
of the module, and of each helper module named by --lib that it imports, with every plain
function defined in them replaced by ``script.script(fn)`` (so that calls between them go to
compiled code). Its printed output, value (repr and type) and exception (type and message) are
compared; a file is ``pass``, ``compile``, ``refused``, ``differ`` or ``timeout`` as in
doctest_corpus.py, or ``crash`` when the compiler itself raised an exception that is not a
CompileError (an internal error, reported with its innermost frame).

`--main` is for whole scripts (Rosetta Code's solutions: functions, then module-level code
that calls them and prints). Each file runs as ``__main__`` in CPython, twice (a file whose
two runs print differently, or that CPython runs past --cpython-limit, or whose CPython run
needs what is not here — a package, a file, stdin, a name of Python 2 — is skipped, as is one whose source reads
stdin or imports the network, threads, a GUI, time or unseeded randomness: main_skip_reason);
then once more with every plain top-level function replaced by ``script.script(fn)`` as its
`def` runs (_Compiling). Methods stay Python, as they are for the other modes: a class's
methods are compiled with the compiled functions that call them. The printed output (memory
addresses masked) and the exception (type and message) are compared; an error the compiler
raised is the outcome even where the script's own `try` swallowed it (_compile_errors).

`--int-overflow raise` (the default) compiles with ``int_overflow="raise"``, so that a result
beyond int64 is counted as refused rather than hidden by the rerun in plain Python that the
default of script.script gives.

The corpus is public code, not part of the repository. Nothing here decides a test; it measures.
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import io
import json
import os
import signal
import sys
import threading
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doctest_corpus import (_classify, _load, _on_alarm, _Timeout, add_arguments, corpus_files,  # noqa: E402
                            run_corpus)

_SCRIPT_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "script") + os.sep


def _call(fn) -> tuple:
    """The outcome of `fn()` in the form doctest_corpus compares: its output and value, or
    its output and error."""
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            value = fn()
        return ("ok", buf.getvalue(), repr(value), type(value).__name__)
    except BaseException as e:  # noqa: BLE001 - the error is the answer
        if isinstance(e, (KeyboardInterrupt, SystemExit, _Timeout)):
            raise
        return ("error", buf.getvalue(), type(e).__name__, str(e), _compiler_frame(e))


def _compiler_frame(e: BaseException) -> str:
    """'file:line in function' of the innermost frame of `e`'s traceback when it is in the
    compiler (script/, but not the dispatcher, which raises what compiled code raised) and `e`
    is not the CompileError the compiler raises by design, else ''."""
    from script.errors import CompileError
    if isinstance(e, CompileError):
        return ""
    frames = traceback.extract_tb(e.__traceback__)
    if not frames or not frames[-1].filename.startswith(_SCRIPT_DIR) or \
            frames[-1].filename == os.path.join(_SCRIPT_DIR, "dispatcher.py"):
        return ""
    f = frames[-1]
    return f"{os.path.relpath(f.filename, os.path.dirname(_SCRIPT_DIR))}:{f.lineno} in {f.name}"


def _within(seconds: float, run):
    """`run()`, or _Timeout after `seconds`. The limit is a SIGINT sent by a timer thread:
    compiled code runs without the GIL and polls only for SIGINT (Ctrl-C), so SIGALRM's
    Python handler would not run before it returns."""
    timer = threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        return run()
    finally:
        timer.cancel()


def _compile_all(module, options: dict) -> None:
    """Replace each plain function defined in `module` by its compiled version."""
    import script
    for attr, fn in list(vars(module).items()):
        if inspect.isfunction(fn) and fn.__module__ == module.__name__:
            setattr(module, attr, script.script(fn, **options))


def probe_file(path: str, entry: str, libs: list, cpython_limit: float, compiled_limit: float,
               options: dict) -> list:
    """[(entry, outcome, detail)] for the module at `path`."""
    name = os.path.splitext(os.path.basename(path))[0]
    folder = os.path.dirname(os.path.abspath(path))
    sys.path.insert(0, folder)
    try:
        plain = _load(name, path)
    except BaseException as e:  # noqa: BLE001 - a file that does not import is skipped
        return [(entry, "skip", f"import: {type(e).__name__}: {e}"[:200])]
    if not callable(getattr(plain, entry, None)):
        return [(entry, "skip", f"no {entry}()")]
    try:
        cpython = _within(cpython_limit, lambda: _call(getattr(plain, entry)))
    except _Timeout:
        return [(entry, "skip", f"CPython over {cpython_limit:g} s")]
    # New instances of the helpers first, so that the module's `import eulerlib` binds them.
    for lib in libs:
        lib_path = os.path.join(folder, lib + ".py")
        if os.path.exists(lib_path):
            _compile_all(_load(lib, lib_path), options)
    compiled_module = _load(name, path)
    _compile_all(compiled_module, options)
    try:
        compiled = _within(compiled_limit, lambda: _call(getattr(compiled_module, entry)))
    except _Timeout:
        return [(entry, "timeout", f"compiled over {compiled_limit:g} s")]
    if compiled[0] == "error" and compiled[4]:
        return [(entry, "crash", f"{compiled[2]}: {compiled[3]} at {compiled[4]}"[:400])]
    return [(entry, *_classify([cpython[:4]], [compiled[:4]]))]


# The imports that make a script's output depend on more than its source, or need what a
# child process here lacks (a network, a screen, a terminal).
_UNFIT_IMPORTS = {
    "network": {"socket", "urllib", "urllib2", "http", "httplib", "requests", "ftplib", "smtplib",
                "telnetlib", "xmlrpc", "webbrowser", "ssl"},
    "threads": {"threading", "thread", "_thread", "multiprocessing", "concurrent", "asyncio"},
    "GUI": {"tkinter", "Tkinter", "turtle", "pygame", "wx", "PyQt4", "PyQt5", "curses", "msvcrt", "pylab",
            "matplotlib", "PIL", "Image"},
    "time": {"time", "datetime", "timeit", "calendar", "sched"},
    "processes": {"subprocess", "os", "signal", "shutil"},
}


def main_skip_reason(source: str) -> str:
    """Why the script `source` is not probed ('' when it is): not Python 3, reads stdin,
    imports one of _UNFIT_IMPORTS, or `random` without seeding it."""
    import ast
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return "syntax (Python 2)"
    modules = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules.add(node.module.split(".")[0])
        elif isinstance(node, ast.Name) and node.id in ("input", "raw_input") or \
                isinstance(node, ast.Attribute) and node.attr == "stdin":
            return "stdin"
    for why, names in _UNFIT_IMPORTS.items():
        if modules & names:
            return why
    if "random" in modules and "seed(" not in source:
        return "random"
    return ""


class _Compiling(dict):
    """The locals of a script's module-level code: every name lives in `self.scope` (the
    module's globals, so that functions see what module code binds), and a plain function
    defined at the top level of the file is stored as ``script.script(fn)``."""

    def __init__(self, scope: dict, path: str, options: dict):
        super().__init__()
        self.scope, self.path, self.options = scope, path, options

    def __getitem__(self, name):
        return self.scope[name]

    def __contains__(self, name):
        return name in self.scope

    def __delitem__(self, name):
        del self.scope[name]

    def __setitem__(self, name, value):
        if inspect.isfunction(value) and value.__code__.co_filename == self.path and \
                value.__qualname__ == value.__name__ == name and not value.__code__.co_flags & 0x2A0:
            import script               # (generators, coroutines and async generators stay Python)
            value = script.script(value, **self.options)
        self.scope[name] = value


@contextlib.contextmanager
def _compile_errors(errors: list):
    """Record in `errors` each error the dispatcher raises when it compiles a specialization
    (a CompileError, its TypeError naming what it does not take, or an internal error), also
    where the script's own `try` catches it."""
    from script import dispatcher
    original = dispatcher._compile_for

    def recording(*args, **kwargs):
        try:
            return original(*args, **kwargs)
        except Exception as e:
            errors.append(e)
            raise
    dispatcher._compile_for = recording
    try:
        yield
    finally:
        dispatcher._compile_for = original


def _run_main(path: str, code, options: dict | None) -> tuple:
    """The outcome (as _call gives it) of running `code` as ``__main__``: plain, or with its
    top-level functions compiled with `options`. Memory addresses in the output are masked."""
    import re
    import types
    module = types.ModuleType("__main__")
    module.__file__ = path
    scope = vars(module)
    scope["__builtins__"] = __builtins__
    saved = sys.modules["__main__"], sys.argv, sys.stdin
    sys.modules["__main__"], sys.argv, sys.stdin = module, [path], io.StringIO()
    try:
        if options is None:
            out = _call(lambda: exec(code, scope))
        else:
            out = _call(lambda: exec(code, scope, _Compiling(scope, path, options)))
    finally:
        sys.modules["__main__"], sys.argv, sys.stdin = saved
    return (out[0], re.sub(r"0x[0-9a-fA-F]{6,}", "0x?", out[1]), *out[2:])


def probe_main(path: str, cpython_limit: float, compiled_limit: float, options: dict) -> list:
    """[(path, outcome, detail)] for the script at `path` run as __main__ (--main)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        source = f.read()
    why = main_skip_reason(source)
    if why:
        return [("main", "skip", why)]
    code = compile(source, path, "exec")
    os.chdir(os.path.dirname(os.path.abspath(path)))
    try:
        runs = [_within(cpython_limit, lambda: _run_main(path, code, None)) for _ in range(2)]
    except _Timeout:
        return [("main", "skip", f"CPython over {cpython_limit:g} s")]
    if runs[0] != runs[1]:
        return [("main", "skip", "CPython's two runs differ")]
    cpython = runs[0]
    if cpython[0] == "error" and cpython[2] in ("ImportError", "ModuleNotFoundError", "FileNotFoundError",
                                                 "EOFError", "SystemExit", "NameError"):
        return [("main", "skip", f"CPython: {cpython[2]}: {cpython[3]}"[:200])]
    errors: list = []
    try:
        with _compile_errors(errors):
            compiled = _within(compiled_limit, lambda: _run_main(path, code, options))
    except _Timeout:
        return [("main", "timeout", f"compiled over {compiled_limit:g} s")]
    if errors:          # the compiler's first error, wherever the script caught it
        e = errors[0]
        compiled = ("error", compiled[1], type(e).__name__, str(e), _compiler_frame(e))
    if compiled[0] == "error" and compiled[4]:
        return [("main", "crash", f"{compiled[2]}: {compiled[3]} at {compiled[4]}"[:400])]
    return [("main", *_classify([cpython[:4]], [compiled[:4]]))]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(ap, timeout=300.0)
    ap.add_argument("--entry", default="compute", help="the function called with no arguments")
    ap.add_argument("--lib", action="append", default=None,
                    help="a helper module of the same folder whose functions are compiled too "
                         "(default: eulerlib); --lib '' for none")
    ap.add_argument("--cpython-limit", type=float, default=10.0, help="skip files CPython takes longer on")
    ap.add_argument("--compiled-limit", type=float, default=120.0, help="compile and run time per file")
    ap.add_argument("--int-overflow", default="raise", choices=("raise", "python"))
    ap.add_argument("--main", action="store_true", help="run each file as __main__ (whole scripts)")
    args = ap.parse_args(argv)
    libs = [lib for lib in (args.lib if args.lib is not None else ["eulerlib"]) if lib]
    if args.child:
        signal.signal(signal.SIGINT, _on_alarm)
        options = {"int_overflow": args.int_overflow}
        if args.main:
            print(json.dumps(probe_main(args.child, args.cpython_limit, args.compiled_limit, options)))
            return 0
        print(json.dumps(probe_file(args.child, args.entry, libs, args.cpython_limit, args.compiled_limit,
                                    {"int_overflow": args.int_overflow})))
        return 0
    run_corpus(corpus_files(args.dirs, [] if args.main else libs), __file__, args, unit="files", child_args=_child_options(args))
    return 0


def _child_options(args) -> list:
    out = ["--entry", args.entry, "--cpython-limit", str(args.cpython_limit),
           "--compiled-limit", str(args.compiled_limit), "--int-overflow", args.int_overflow]
    if args.main:
        out.append("--main")
    for lib in (args.lib if args.lib is not None else []):
        out += ["--lib", lib]
    return out


if __name__ == "__main__":
    sys.exit(main())
