"""The textual IR parser: exact round trips, positions in errors, never a lark traceback."""

from __future__ import annotations

import math
import shutil
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from script.errors import LoadError, SourceLoc
from script.ir import types as T
from script.ir.core import Const, Function, Instr, set_terminator
from script.ir.parser import IRParseError, parse_function, parse_module
from script.ir.printer import format_function, format_module

ROOT = Path(__file__).resolve().parent.parent

LOOP = textwrap.dedent("""\
    func @count(%0: i64) -> i64 "count.py":1 {
    bb0:
      br bb1(0:i64)
    bb1(%1: i64):
      %2 = cmp.lt %1, %0 : bool                    ; 2:10
      cbr %2, bb2, bb3
    bb2:
      %3 = add %1, 1:i64 : i64                     ; 3:8
      br bb1(%3)
    bb3:
      ret %1                                       ; 4:4
    }
    """)


def test_printed_text_round_trips_exactly():
    assert format_function(parse_function(LOOP)) == LOOP


def test_locations_and_names():
    f = parse_function(LOOP)
    assert f.name == "count" and f.loc == SourceLoc("count.py", 1, 0)
    add = f.blocks[2].instrs[0]
    assert add.opname == "add" and add.loc == SourceLoc("count.py", 3, 8)
    assert f.blocks[1].preds == [f.blocks[0], f.blocks[2]]


def test_instruction_locations_without_a_file_use_the_filename():
    text = LOOP.replace(' "count.py":1', "")
    f = parse_function(text, filename="dump.ir")
    assert f.loc is None
    assert f.blocks[2].instrs[0].loc == SourceLoc("dump.ir", 3, 8)
    assert format_function(f) == text


def test_module_calls_functions_defined_later():
    text = textwrap.dedent("""\
        func @main(%0: i64) -> i64 {
        bb0:
          %1 = call @helper(%0) : i64
          ret %1
        }

        func @helper(%0: i64) -> i64 {
        bb0:
          ret %0
        }
        """)
    m = parse_module(text)
    assert m.functions["main"].callees() == [m.functions["helper"]]
    assert format_module(m) == text


def test_parse_function_resolves_callees_given():
    helper = parse_function("func @h() -> none {\nbb0:\n  ret\n}\n")
    text = "func @f() -> none {\nbb0:\n  call @h()\n  ret\n}\n"
    f = parse_function(text, callees={"h": helper})
    assert f.blocks[0].instrs[0].attr is helper
    with pytest.raises(IRParseError, match="unknown function @h"):
        parse_function(text)


def test_parse_function_wants_exactly_one():
    with pytest.raises(IRParseError, match="expected one function, found 0"):
        parse_function("")


def _const_function(values):
    f = Function("k", [], T.TupleType([c.type for c in values]))
    t = f.entry.append(Instr("tuple", values, T.TupleType([c.type for c in values])))
    set_terminator(f.entry, "ret", [t])
    return f


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(
    st.floats().map(lambda x: Const(x, T.F64)),
    st.sampled_from([math.nan, -math.nan]).map(lambda x: Const(x, T.F64)),
    st.floats(width=32).map(lambda x: Const(x, T.F32)),
    st.integers(-2**63, 2**63 - 1).map(lambda x: Const(x, T.I64)),
    st.integers(0, 2**64 - 1).map(lambda x: Const(x, T.U64)),
    st.integers(-128, 127).map(lambda x: Const(x, T.I8)),
    st.booleans().map(lambda x: Const(x, T.BOOL))), min_size=1, max_size=8))
def test_constants_round_trip_bit_for_bit(values):
    f = _const_function(values)
    text = format_function(f)
    g = parse_function(text)
    assert format_function(g) == text
    for a, b in zip(values, g.blocks[0].instrs[0].operands):
        assert a.type == b.type
        if isinstance(a.value, float) and not math.isnan(a.value):
            assert struct.pack("d", a.value) == struct.pack("d", b.value)
        elif isinstance(a.value, float):     # a NaN keeps its sign bit (math.copysign sees it)
            assert math.copysign(1.0, a.value) == math.copysign(1.0, b.value)
        elif not isinstance(a.value, float):
            assert a.value == b.value


BAD = [
    ("func @f() -> i64 {\nbb0:\n  ret 1:i64 2:i64\n}\n", 3, 13, "unexpected"),
    ("func @f() -> i64 {\nbb0:\n  %1 = frobnicate 1:i64 : i64\n  ret %1\n}\n", 3, 8,
     "unknown op 'frobnicate'"),
    ("func @f() -> i64 {\nbb0:\n  br bb7\n}\n", 3, 6, "unknown block bb7"),
    ("func @f() -> i64 {\nbb0:\n  ret %4\n}\n", 3, 7, "unknown value %4"),
    ("func @f() -> i64 {\nbb0:\n  ret 1.5:i64\n}\n", 3, 7, "1.5 is not an integer"),
    ("func @f() -> bool {\nbb0:\n  ret 1:bool\n}\n", 3, 7, "no numeric constants of type bool"),
    ("func @f() -> i64 {\nbb0:\n  %1 = extract.x %0 : i64\n}\n", 3, 8, "extract needs an index"),
    ("func @f() -> i64 {\nbb0:\n  %1 = add.eq 1:i64, 1:i64 : i64\n}\n", 3, 8,
     "add takes no attribute"),
    ("func @f() -> i64 {\nbb0:\n  %1 = cmp 1:i64, 1:i64 : bool\n}\n", 3, 8, "cmp needs an attribute"),
    ("func @f() -> none {\nbb0:\n  %1 = ret : i64\n}\n", 3, 3, "ret has no result"),
    ("func @f() -> none {\nbb0:\n  raise Oops\n}\n", 3, 9, "unknown exception Oops"),
    ("func @f() -> none {\nbb0:\n  ret\nbb0:\n  ret\n}\n", 4, 1, "block bb0 is defined twice"),
    ("func @f() -> none {\nbb0:\n  br bb1\nbb1:\n}\n", 4, 1, "bb1 does not end in a terminator"),
    ("func @f(%0: i64) -> none {\nbb0(%1: i64):\n  ret\n}\n", 2, 1,
     "entry block's parameters are written in the function header"),
    ("func @f() -> none {\n}\n", 1, 6, "at least one block"),
    ("func @f() -> none {\nbb0:\n  ret\n}\nfunc @f() -> none {\nbb0:\n  ret\n}\n", 5, 6,
     "function @f is defined twice"),
    ('func @f() -> none {\nbb0:\n  raise ValueError "\\q"\n}\n', 3, 20, "malformed string"),
    ("func @f() -> none {\nbb0:\n  ret\n", 4, 1, "unexpected end of input"),
    ("func @f() -> none {\nbb0:\n  ret ?\n}\n", 3, 7, "unexpected character '?'"),
    ('func @"\\q"() -> none {\nbb0:\n  ret\n}\n', 1, 6, "malformed string"),
]


@pytest.mark.parametrize("text,line,col,message", BAD)
def test_errors_point_at_the_problem(text, line, col, message):
    with pytest.raises(IRParseError) as info:
        parse_module(text, filename="bad.ir")
    e = info.value
    assert isinstance(e, LoadError)
    assert message in e.message, str(e)
    assert (e.line, e.col) == (line, col), str(e)
    rendered = str(e).split("\n")
    assert rendered[0].startswith(f"bad.ir:{line}:{col}: ")
    if len(rendered) > 1:
        assert rendered[2] == "    " + " " * (col - 1) + "^"


def test_deeply_nested_types_are_a_load_error():
    n = 5000
    text = "func @f() -> " + "(" * n + "i64" + ",)" * n + " {\nbb0:\n  ret\n}\n"
    with pytest.raises(IRParseError, match="nested too deeply"):
        parse_module(text)


def test_verifier_errors_come_out_as_load_errors():
    text = "func @f(%0: i64) -> i64 {\nbb0:\n  %1 = add %0, 1.0:f64 : i64\n  ret %1\n}\n"
    with pytest.raises(IRParseError, match="add of i64, f64") as info:
        parse_function(text)
    assert "<<< here" in str(info.value)
    assert parse_function(text, verify=False).name == "f"


@settings(max_examples=300, deadline=None)
@given(st.integers(0, len(LOOP) - 1), st.integers(0, 5), st.text(max_size=3))
def test_mangled_text_never_escapes_as_another_error(at, cut, insert):
    text = LOOP[:at] + insert + LOOP[at + cut:]
    try:
        parse_module(text)
    except IRParseError as e:
        assert e.line is None or e.line >= 1
    # Anything else (a lark exception, an AssertionError from core.py) fails the test.


def test_importing_the_parser_does_not_import_lark():
    code = "import sys, script.ir.parser; print('lark' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_built_parser_is_cached():
    from script.ir.parser import _lark
    assert _lark() is _lark()


def test_grammar_is_found_inside_the_package():
    from script.ir.parser import _grammar_path
    path = _grammar_path()
    assert path.parent.name == "grammar" and path.parent.parent.name == "script"
    assert path.read_text() == (ROOT / "grammar" / "ir.lark").read_text()


@pytest.mark.slow
def test_non_editable_install_can_parse(tmp_path):
    """`pip install .` (not editable) into a fresh venv ships the grammar with the package."""
    src = tmp_path / "src"                  # a copy, so the build leaves nothing in the tree
    for name in ("pyproject.toml", "README.md"):
        if (ROOT / name).exists():
            src.mkdir(exist_ok=True)
            shutil.copy(ROOT / name, src / name)
    for name in ("script", "grammar"):
        shutil.copytree(ROOT / name, src / name, symlinks=True,
                        ignore=shutil.ignore_patterns("__pycache__"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", str(src)],
                   check=True, cwd=tmp_path)
    code = ("import script.ir.parser as p, sys; "
            "assert 'site-packages' in p.__file__, p.__file__; "
            "f = p.parse_function(sys.stdin.read()); print(f.name)")
    out = subprocess.run([str(python), "-c", code], input=LOOP, capture_output=True, text=True,
                         cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "count"
