"""Everything outside the subset is a CompileError at the right line, never a traceback
from inside the compiler."""

import inspect
import re

import numpy as np
import pytest

import bad_kernels
import script
from script.errors import CompileError

_MARK = re.compile(r"#\s*error:\s*(.*)$")


def _cases():
    cases = []
    for name, fn in inspect.getmembers(bad_kernels, inspect.isfunction):
        if fn.__module__ != bad_kernels.__name__:
            continue
        lines, first = inspect.getsourcelines(fn)
        for offset, line in enumerate(lines):
            m = _MARK.search(line)
            if m:
                cases.append(pytest.param(fn, first + offset, m.group(1).strip(), id=name))
                break
    return cases


ARGS = {"uses_list_of_none": (np.zeros(2),), "uses_string_method": ("ab",),
        "uses_string_minus": ("ab",)}


@pytest.mark.parametrize("fn,line,text", _cases())
def test_rejected_at_the_marked_line(fn, line, text):
    with pytest.raises(CompileError) as info:
        f = script.script(fn)
        f(*ARGS.get(fn.__name__, (3,)))
    err = info.value
    assert text in err.message, err.message
    assert err.loc is not None and err.loc.line == line, f"{err.loc} (expected line {line})"
    rendered = str(err)
    assert rendered.startswith(f"{bad_kernels.__file__}:{line}:")
    assert any(line.strip() == "^" for line in rendered.splitlines())   # a caret under the column


def test_type_conflict_names_both_lines():
    with pytest.raises(CompileError) as info:
        script.script(bad_kernels.type_conflict)(1)
    text = str(info.value)
    assert "'y'" in text and "f64" in text and "bool" in text
    src, first = inspect.getsourcelines(bad_kernels.type_conflict)
    assert f":{first + 2}:" in text and f":{first + 4}:" in text


def test_source_unavailable_is_a_compile_error():
    ns = {}
    exec("def f(x):\n    return x\n", ns)
    with pytest.raises(CompileError, match="cannot read the source"):
        script.script(ns["f"])(1)
