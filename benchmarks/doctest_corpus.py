"""Compile the doctested functions of a tree of plain-Python files and compare with CPython.

    python benchmarks/doctest_corpus.py DIR [DIR ...] [--jobs 2] [--json out.json] [-v]

For each file (in a child process, with a time limit), every function defined in it whose
docstring has examples is run twice over its own examples: as CPython runs it, then with the
module's name bound to ``script.script(fn)`` (so recursive calls and other functions of the
module call the compiled one), each side in its own instance of the module (the examples of
one side do not see what the other's wrote into module-level lists). Each example's printed output, value and exception (type and
message) are compared. A function is

- ``pass``: every example gives CPython's answer;
- ``compile``: a CompileError (refused when compiled, at a line);
- ``refused``: an error at run time naming what compiled code does not do (a TypeError at
  the call naming what it does not take, an OverflowError beyond int64);
- ``differ``: some example gives another answer, without an error of the compiler: the
  worst outcome, listed one by one.

The corpus is public code, not written for this test: it is not part of the repository
(fetch one, e.g. a collection of algorithm implementations in plain Python, and point this
script at its directories). Nothing here decides a test; it measures.
"""

from __future__ import annotations

import argparse
import contextlib
import doctest
import importlib.util
import io
import json
import linecache
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

_REFUSED = ("not supported in compiled code", "compiled code", "has no specialization", "; it accepts")


def _run_examples(examples, globs, name: str = "") -> list:
    """The outcome of each example: its output (display of a value included) or its error.
    Each example's source is in `linecache` under its file name, as doctest's runner has it,
    so that a function or lambda an example defines has its source."""
    out = []
    for k, ex in enumerate(examples):
        buf = io.StringIO()
        filename = f"<doctest {name}[{k}]>"
        linecache.cache[filename] = (len(ex.source), None, ex.source.splitlines(True), filename)
        try:
            code = compile(ex.source, filename, "single")
            with contextlib.redirect_stdout(buf):
                exec(code, globs)  # noqa: S102 - the corpus's own examples
            out.append(("ok", buf.getvalue()))
        except BaseException as e:  # noqa: BLE001 - an example's error is its answer
            if isinstance(e, (KeyboardInterrupt, SystemExit, _Timeout)):
                raise           # a time limit is the function's outcome, not an example's answer
            out.append(("error", buf.getvalue(), type(e).__name__, str(e)))
    return out


def _classify(cpython: list, compiled: list) -> tuple[str, str]:
    from script.errors import CompileError
    for a, b in zip(cpython, compiled):
        if b[0] == "error" and b[2] == CompileError.__name__:
            return "compile", b[3].splitlines()[0] if b[3] else ""
    for a, b in zip(cpython, compiled):
        if a == b:
            continue
        if b[0] == "error" and any(t in b[3] for t in _REFUSED):
            # a run-time refusal naming compiled code (a TypeError at the call, `int ** -k`'s
            # ValueError), also where CPython's own error came later
            return "refused", b[3].splitlines()[0]
        if b[0] == "error" and b[2] in ("OverflowError",) and a[0] == "ok":
            return "refused", b[3].splitlines()[0]
        return "differ", f"CPython {a!r} compiled {b!r}"[:400]
    return "pass", ""


def _load(name: str, path: str):
    """A new instance of the module at `path`, executed (its output dropped), as `name` in
    sys.modules."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    with contextlib.redirect_stdout(io.StringIO()):
        spec.loader.exec_module(module)
    return module


def probe_file(path: str, timeout_each: float = 60.0) -> list:
    """[(qualified name, outcome, detail)] for the doctested functions of the file at `path`."""
    import signal

    import script
    name = "corpus_" + os.path.splitext(os.path.basename(path))[0]
    sys.path.insert(0, os.path.dirname(path))
    try:
        # Two instances of the module: CPython's examples run in one, the compiled function's
        # in the other, so that what one side's examples write into the module's objects
        # (`mincut(test_graph)` empties the graph) the other side's examples do not see.
        twin = _load(name, path)
        module = _load(name, path)
    except BaseException as e:  # noqa: BLE001 - a file that does not import is skipped
        return [(path, "skip", f"import: {type(e).__name__}: {e}"[:200])]
    results = []
    finder = doctest.DocTestFinder(recurse=False)
    for attr, fn in list(vars(module).items()):
        if not callable(fn) or getattr(fn, "__module__", None) != name or not hasattr(fn, "__code__"):
            continue
        if fn.__code__.co_flags & 0x20 or fn.__code__.co_flags & 0x80:     # generators, coroutines
            continue
        tests = [t for t in finder.find(fn, attr, globs={}) if t.examples]
        if not tests:
            continue
        examples = tests[0].examples
        signal.alarm(int(timeout_each))
        try:
            cpython = _run_examples(examples, dict(vars(module)), attr)
            twin_fn = getattr(twin, attr)
            try:
                compiled_fn = script.script(twin_fn)
            except Exception as e:  # noqa: BLE001 - a decoration error is the outcome
                results.append((attr, "compile" if type(e).__name__ == "CompileError" else "refused",
                                str(e).splitlines()[0] if str(e) else type(e).__name__))
                continue
            setattr(twin, attr, compiled_fn)
            sys.modules[name] = twin
            try:
                compiled = _run_examples(examples, dict(vars(twin)), attr)
            finally:
                setattr(twin, attr, twin_fn)
                sys.modules[name] = module
            results.append((attr, *_classify(cpython, compiled)))
        except _Timeout:
            results.append((attr, "timeout", ""))
        finally:
            signal.alarm(0)
    return results


class _Timeout(BaseException):
    pass


def _on_alarm(signum, frame):
    raise _Timeout()


def _child(path: str) -> None:
    import signal
    signal.signal(signal.SIGALRM, _on_alarm)
    print(json.dumps(probe_file(path)))


def _probe_in_child(path: str, timeout: float, runner: str = __file__, child_args: tuple = ()) -> list:
    """The rows of `runner --child path [child_args]`, run in a child process with a time limit."""
    env = dict(os.environ)
    try:
        p = subprocess.run([sys.executable, runner, "--child", path, *child_args], capture_output=True, text=True,
                           timeout=timeout, env=env, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return [(path, "timeout", "file")]
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("[")]
    if p.returncode != 0 or not lines:
        return [(path, "crash", f"rc {p.returncode}: {p.stderr[-300:]}")]
    return [(f"{os.path.relpath(path)}::{n}", o, d) for n, o, d in json.loads(lines[-1])]


def add_arguments(ap: argparse.ArgumentParser, timeout: float) -> None:
    """The options every corpus runner takes."""
    ap.add_argument("dirs", nargs="*")
    ap.add_argument("--child")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=timeout, help="seconds per file")
    ap.add_argument("--json")
    ap.add_argument("-v", "--verbose", action="store_true")


def run_corpus(files: list, runner: str, args, unit: str = "functions", child_args: tuple = ()) -> list:
    """Probe each file in a child process of `runner` (`args.jobs` at a time), print each
    differ (and with -v every outcome but pass) and a summary, write the rows to `args.json`."""
    start = time.time()
    with ThreadPoolExecutor(args.jobs) as pool:
        rows = [r for rs in pool.map(lambda f: _probe_in_child(f, args.timeout, runner, child_args), files) for r in rs]
    counts: dict = {}
    for _, outcome, _ in rows:
        counts[outcome] = counts.get(outcome, 0) + 1
    functions = sum(v for k, v in counts.items() if k not in ("skip",))
    for name, outcome, detail in rows:
        if outcome == "differ" or args.verbose and outcome not in ("pass", "skip"):
            print(f"{outcome:8} {name}: {detail}")
    print(f"{len(files)} files, {functions} {unit} in {time.time() - start:.0f} s: " +
          ", ".join(f"{k} {v} ({100 * v / max(functions, 1):.0f}%)" for k, v in sorted(counts.items())
                    if k != "skip") + f"; {counts.get('skip', 0)} files skipped")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=0)
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(ap, timeout=240.0)
    args = ap.parse_args(argv)
    if args.child:
        _child(args.child)
        return 0
    run_corpus(corpus_files(args.dirs), __file__, args)
    return 0


def corpus_files(dirs, skip=()) -> list:
    """The .py files given and those under the directories given (not tests, not dunder
    files, not the module names in `skip`), in a fixed order."""
    files = []
    for d in dirs:
        if os.path.isfile(d):
            files.append(d)
            continue
        for root, _, names in os.walk(d):
            files += [os.path.join(root, n) for n in sorted(names)
                      if n.endswith(".py") and not n.startswith(("test_", "__")) and n[:-3] not in skip]
    return files

if __name__ == "__main__":
    sys.exit(main())
