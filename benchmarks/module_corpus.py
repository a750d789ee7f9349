"""Compile every function of a tree of plain-Python modules and compare one entry point with CPython.

    python benchmarks/module_corpus.py DIR [DIR ...] [--entry compute] [--lib eulerlib]
                                       [--jobs 2] [--json out.json] [-v]

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
    args = ap.parse_args(argv)
    libs = [lib for lib in (args.lib if args.lib is not None else ["eulerlib"]) if lib]
    if args.child:
        signal.signal(signal.SIGINT, _on_alarm)
        print(json.dumps(probe_file(args.child, args.entry, libs, args.cpython_limit, args.compiled_limit,
                                    {"int_overflow": args.int_overflow})))
        return 0
    run_corpus(corpus_files(args.dirs, libs), __file__, args, unit="files", child_args=_child_options(args))
    return 0


def _child_options(args) -> list:
    out = ["--entry", args.entry, "--cpython-limit", str(args.cpython_limit),
           "--compiled-limit", str(args.compiled_limit), "--int-overflow", args.int_overflow]
    for lib in (args.lib if args.lib is not None else []):
        out += ["--lib", lib]
    return out


if __name__ == "__main__":
    sys.exit(main())
