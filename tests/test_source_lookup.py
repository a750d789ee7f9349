"""Source of functions defined where no file exists: IPython/Jupyter cells and Python 3.13's
REPL keep it in `linecache` (frontend/source.py `_cached_lines`); `python -c` keeps none, and
the CompileError says so and what to do."""

import linecache
import os
import subprocess
import sys
import textwrap

import pytest

import script

CELL = textwrap.dedent('''
    import script

    @script.script
    def squares(n: int) -> int:
        s = 0
        for i in range(n):
            s += i * i
        return s

    def wrong(n: int) -> int:
        return n + exec("n")
''')


def run_cell(name: str, register) -> dict:
    """Exec CELL compiled under the file name `name` after `register(code)` put its source
    where an interactive shell would."""
    code = compile(CELL, name, "exec")
    register(code)
    namespace = {"__name__": "__main__"}
    exec(code, namespace)
    return namespace


def check_compiles(ns: dict, name: str) -> None:
    assert ns["squares"](10) == sum(i * i for i in range(10))
    with pytest.raises(script.CompileError) as e:
        script.script(ns["wrong"])(1)        # (compiled on its first call)
    text = str(e.value)
    assert text.startswith(f"{name}:12:") and 'return n + exec("n")' in text and "^" in text, text


def test_an_ipython_cell(monkeypatch):
    name = "<ipython-input-3-5f1c2a>"
    entry = (len(CELL), None, CELL.splitlines(True), name)        # how IPython's compiler caches a cell
    monkeypatch.setitem(linecache.cache, name, entry)
    check_compiles(run_cell(name, lambda code: None), name)


def test_the_python_3_13_0_repl(monkeypatch):
    name = "<python-input-4>"

    def register(code):      # 3.13.0's linecache._register_code: keyed by the input's code object
        monkeypatch.setitem(linecache.cache, code, (len(CELL), None, CELL.splitlines(True), name))
    ns = run_cell(name, register)
    monkeypatch.delitem(linecache.cache, name, raising=False)
    check_compiles(ns, name)
    assert linecache.getline(name, 12).strip() == 'return n + exec("n")'   # errors and tracebacks show it now
    linecache.cache.pop(name, None)


def test_a_later_repl_with_getlines_from_code(monkeypatch):
    name = "<python-input-5>"
    cells = {}
    monkeypatch.setattr(linecache, "_getlines_from_code",
                        lambda code: CELL.splitlines(True) if code.co_filename in cells else [], raising=False)
    ns = run_cell(name, lambda code: cells.setdefault(name, code))
    check_compiles(ns, name)
    linecache.cache.pop(name, None)


def test_no_source_at_all_says_what_to_do():
    program = "import script\n@script.script\ndef f(n: int) -> int:\n    return n\n"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    r = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode != 0
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("script.errors.CompileError: <string>:2:")
    assert "cannot read the source of 'f'" in last and "`python -c`" in last
    assert "Put it in a .py file" in last and "linecache" in last
