"""Module-level NumPy arrays read by compiled code are frozen constants (script/frontend/
frozen.py), against CPython."""

import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import script
import frozen_kernels as K
from difftest import check_all_levels
from script.errors import CompileError

SET = settings(max_examples=30, deadline=None)


@SET
@given(st.integers(-4, 3), st.integers(-5, 4))
def test_reads_of_global_arrays(i, j):
    check_all_levels(K.lookup, i, j)
    check_all_levels(K.table_rows, j)
    check_all_levels(K.return_view, j)
    check_all_levels(K.through_callee, i)


@SET
@given(st.integers(0, 5))
def test_global_arrays_in_array_expressions(n):
    check_all_levels(K.weighted, np.arange(4.0) * n)


def test_returned_global_is_a_copy():
    f = script.script(K.return_global)
    a = f()
    assert np.array_equal(a, K.TABLE) and a.flags.writeable and a.base is None
    a[0, 0] = 100.0                        # the constant of the code is not touched
    assert f()[0, 0] == K.TABLE[0, 0]
    row, ints = script.script(K.return_view)(1)
    assert np.array_equal(row, K.TABLE[:, 1]) and np.array_equal(ints, K.INTS[::-2])


@pytest.mark.parametrize("fn", [K.writes_global, K.writes_through_callee])
def test_writing_a_global_array_is_a_compile_error(fn):
    with pytest.raises(CompileError, match="global array is a constant") as info:
        script.script(fn)(1)
    assert "frozen_kernels.py" in str(info.value)


def test_unsupported_globals_are_compile_errors(tmp_path):
    path = tmp_path / "bad_global.py"
    path.write_text("import numpy as np\nOBJ = np.array(['a', 'b'])\n\ndef f(i):\n    return OBJ[i]\n")
    ns = {}
    exec(compile(path.read_text(), str(path), "exec"), ns)
    with pytest.raises(CompileError, match="cannot freeze"):
        script.script(ns["f"])(0)


def test_a_global_array_the_module_binds_again_is_refused(tmp_path):
    # a frozen copy would keep the first value where CPython reads the name at each call
    path = tmp_path / "rebound_array.py"
    path.write_text("import numpy as np\nimport script\nA = np.zeros(2)\n\n@script.script\ndef f():\n"
                    "    return A.sum()\n\nfirst = f()\nA = np.ones(2)\n")
    with pytest.raises(CompileError, match="global array 'A' is bound again") as info:
        exec(compile(path.read_text(), str(path), "exec"), {})
    assert "rebound_array.py:7" in str(info.value)


def test_saved_module_carries_the_frozen_array(tmp_path):
    f = script.script(K.lookup)
    f(1, 2)
    path = str(tmp_path / "frozen.smod")
    script.save({"lookup": f}, path)
    code = (f"import script\nm = script.load({path!r})\n"
            "print(m.lookup(1, 2), m.lookup(-1, 0))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, PYTHONPATH=""), cwd=str(tmp_path))
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [str(float(K.lookup(1, 2))), str(float(K.lookup(-1, 0)))]
