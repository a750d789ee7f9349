"""Imports inside a compiled function's body (bound when the function is compiled to what
the statement imports, as module-level names are read), Optional[T] and bare container
annotations (docs/language.md)."""

import pytest
from hypothesis import given, settings, strategies as st

import script
from difftest import check_all_levels


def uses_imports(x):
    import math
    import numpy as np
    from math import sqrt as root, pi
    import os.path

    def inner(y):
        from math import floor
        return floor(y)
    return math.cos(x) + np.sin(x) + root(abs(x)) + pi + inner(x) + len(os.path.sep)


def relative_import(x):
    from . import difftest_helper_missing  # noqa: F401
    return x


def missing(x):
    from no_such_module_here import q
    return q(x)


@settings(max_examples=30, deadline=None)
@given(st.floats(-1e6, 1e6))
def test_imports_in_the_body(x):
    check_all_levels(uses_imports, x)


def test_a_failing_import_is_a_compile_error_at_its_line():
    with pytest.raises(script.CompileError, match="cannot import no_such_module_here") as info:
        script.script(missing)(1.0)
    assert "from no_such_module_here import q" in str(info.value)
    with pytest.raises(script.CompileError, match="cannot import"):
        script.script(relative_import)(1.0)


def test_cached_function_with_imports_compiles(tmp_path, monkeypatch):
    # what an import binds is not part of the cache key: such a function is compiled each
    # time, never taken from a stale entry
    monkeypatch.setenv("SCRIPT_CACHE_DIR", str(tmp_path))
    src = "def g(x: float) -> float:\n    import math\n    return math.sqrt(x)\n"
    (tmp_path / "cached_imports_mod.py").write_text(src)
    monkeypatch.syspath_prepend(str(tmp_path))
    import cached_imports_mod
    f = script.script(cache=True)(cached_imports_mod.g)
    assert f(4.0) == 2.0
    assert not list(tmp_path.glob("*.cache"))


def optional_annotations(x: "Optional[float]", y: "int | None" = None) -> "Optional[int]":
    if x is None:
        return None
    if y is not None:
        return int(x) + y
    return int(x)


def bare_annotations(xs: list, d: dict, t: tuple) -> float:
    return sum(xs) + len(d) + t[0]


Optional = __import__("typing").Optional


@settings(max_examples=20, deadline=None)
@given(st.one_of(st.none(), st.floats(-1e6, 1e6)), st.one_of(st.none(), st.integers(-100, 100)))
def test_optional_and_bare_annotations(x, y):
    check_all_levels(optional_annotations, x, y)
    check_all_levels(bare_annotations, [1.5, 2.0], {1: 2}, (3.0, 4))
