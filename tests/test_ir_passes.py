"""The pass pipeline: registration, ordering, options, statistics, speculation."""

from __future__ import annotations

import io
import pkgutil
import textwrap
from collections import Counter

import pytest

import script.ir.passes as passes
from script.errors import VerifyError
from script.ir import types as T
from script.ir.core import Const, Instr
from script.ir.parser import parse_function
from script.ir.passes import (PASSES, PIPELINES, Fixpoint, Then, run_module_pipeline,
                              run_pipeline)
from script.ir.semantics import is_speculatable
from script.ir.parser import parse_module
from script.ir.printer import format_function

LOOP = textwrap.dedent("""\
    func @f(%0: i64, %1: f64) -> f64 {
    bb0:
      %2 = add 2:i64, 3:i64 : i64
      br bb1(0:i64, 0.0:f64, %2)
    bb1(%3: i64, %4: f64, %5: i64):
      %6 = cmp.lt %3, %0 : bool
      cbr %6, bb2, bb3
    bb2:
      %7 = convert %5 : f64
      %8 = mul %1, %7 : f64
      %9 = add %4, %8 : f64
      %10 = add %3, 1:i64 : i64
      br bb1(%10, %9, %5)
    bb3:
      ret %4
    }
    """)


def test_every_pass_module_is_registered_under_its_own_name():
    modules = {m.name for m in pkgutil.iter_modules(passes.__path__)
               if not m.name.startswith("_")}
    assert modules == set(PASSES)
    for name, module in PASSES.items():
        assert module.__name__ == f"script.ir.passes.{name}"
        assert callable(module.run)


def test_every_pass_documents_what_it_assumes_and_preserves():
    for name, module in PASSES.items():
        doc = module.__doc__ or ""
        assert doc.startswith(f"{name}:"), name
        assert "Assumes:" in doc and "Preserves:" in doc, name


def test_every_level_runs_known_passes_in_a_checked_order():
    assert sorted(PIPELINES) == [0, 1, 2, 3]
    assert PIPELINES[0] == ("masked",)      # only what int arithmetic means: no optimization
    passes._check_order()


def test_an_order_violation_is_caught(monkeypatch):
    monkeypatch.setitem(PIPELINES, 9, ("licm", "cse"))
    with pytest.raises(AssertionError, match="cse must run before licm, because"):
        passes._check_order()


def test_pipeline_optimizes_and_reports():
    f = parse_function(LOOP)
    stats, timings = {}, {}
    assert run_pipeline(f, verify=True, stats=stats, timings=timings)
    assert stats["sccp.constants"] >= 1 and stats["licm.hoisted"] == 1
    assert stats["dce.params"] == 1
    assert set(timings) == set(PASSES)
    assert not run_pipeline(f, verify=True)          # a second run finds nothing to do


def test_explicit_pass_list_and_disabled():
    f = parse_function(LOOP)
    stats = {}
    run_pipeline(f, passes=["constfold"], stats=stats)
    assert stats == {"constfold.fold_constant": 1}
    f = parse_function(LOOP)
    stats = {}
    run_pipeline(f, 2, disabled=("licm", "sccp"), stats=stats)
    assert not any(k.startswith(("licm.", "sccp.")) for k in stats)


def test_print_after_writes_to_the_stream():
    out = io.StringIO()
    f = parse_function(LOOP)
    run_pipeline(f, 2, print_after="licm", stream=out)
    text = out.getvalue()
    assert text.startswith("// IR after licm\n") and text.count("// IR after") == 1
    assert text.endswith(format_function(f))
    out = io.StringIO()
    run_pipeline(parse_function(LOOP), 1, print_after="all", stream=out)
    assert [line for line in out.getvalue().splitlines() if line.startswith("//")] == [
        "// IR after masked (no change)", "// IR after strength (no change)", "// IR after constfold",
        "// IR after dce (no change)", "// IR after simplify_cfg"]


def test_bad_options_are_rejected():
    f = parse_function(LOOP)
    with pytest.raises(ValueError, match="unknown pass nope"):
        run_pipeline(f, passes=["nope"])
    with pytest.raises(ValueError, match="unknown pass nope"):
        run_pipeline(f, disabled=["nope"])
    with pytest.raises(ValueError, match="unknown pass nope"):
        run_pipeline(f, print_after="nope")
    with pytest.raises(ValueError, match="no optimization level 7"):
        run_pipeline(f, 7)


def test_verify_names_the_pass_that_broke_the_ir(monkeypatch):
    class Broken:
        @staticmethod
        def run(func, stats=None):
            block = func.blocks[-1]
            block.insert(0, Instr("add", [Const(1, T.I64), Const(1.0, T.F64)], T.I64))
            return True
    monkeypatch.setitem(PASSES, "broken", Broken)
    with pytest.raises(VerifyError, match="after broken in @f"):
        run_pipeline(parse_function(LOOP), passes=["broken"], verify=True)


def test_fixpoint_is_bounded():
    calls = []

    class Always:
        @staticmethod
        def run(func, stats=None):
            calls.append(1)
            return True
    import script.ir.passes as p
    p.PASSES["always"] = Always
    try:
        assert run_pipeline(parse_function(LOOP), passes=[Fixpoint(("always",), limit=3)])
    finally:
        del p.PASSES["always"]
    assert len(calls) == 3


def recorder(calls: list, name: str, changes: bool, counted: str | None = None):
    """A pass that appends `name` to `calls`, counts `counted` in its stats and returns
    `changes`."""
    class Pass:
        @staticmethod
        def run(func, stats=None):
            calls.append(name)
            if counted:
                stats[counted] += 1
            return changes
    return Pass


def test_then_runs_its_passes_only_after_its_first_pass_changed_something(monkeypatch):
    calls = []
    monkeypatch.setitem(PASSES, "idle", recorder(calls, "idle", False))
    monkeypatch.setitem(PASSES, "changer", recorder(calls, "changer", True))
    monkeypatch.setitem(PASSES, "after", recorder(calls, "after", True))
    assert not run_pipeline(parse_function(LOOP), passes=[Then("idle", ("after",))])
    assert calls == ["idle"]
    calls.clear()
    assert run_pipeline(parse_function(LOOP), passes=[Then("changer", ("after", "after"))])
    assert calls == ["changer", "after", "after"]


def test_then_with_when_runs_its_passes_only_when_the_first_pass_counted_it(monkeypatch):
    calls = []
    monkeypatch.setitem(PASSES, "plain", recorder(calls, "plain", True, "other"))
    monkeypatch.setitem(PASSES, "flagged", recorder(calls, "flagged", True, "cue"))
    monkeypatch.setitem(PASSES, "after", recorder(calls, "after", True))
    run_pipeline(parse_function(LOOP), passes=[Then("plain", ("after",), when="cue")])
    assert calls == ["plain"]
    calls.clear()
    run_pipeline(parse_function(LOOP), passes=[Then("flagged", ("after",), when="cue")])
    assert calls == ["flagged", "after"]


def test_module_pipeline_runs_every_function():
    m = parse_module(LOOP + "\n" + LOOP.replace("@f", "@g"))
    stats = Counter()
    assert run_module_pipeline(m, 2, verify=True, stats=stats)
    assert stats["licm.hoisted"] == 2


@pytest.mark.parametrize("text,expected", [
    ("floordiv %0, %1 : i64", False),
    ("floordiv %0, 3:i64 : i64", True),
    ("floordiv %0, -1:i64 : i64", False),
    ("floordiv %0, 0:i64 : i64", False),
    ("mod %0, 7:i64 : i64", True),
    ("pow %0, %1 : i64", False),
    ("pow %0, 2:i64 : i64", True),
    ("shl %0, %1 : i64", False),
    ("shr %0, 3:i64 : i64", True),
    ("shl %0, -3:i64 : i64", False),
    ("add %0, %1 : i64", True),
    ("convert %0 : f64", True),
    ("convert %2 : i64", False),
    ("convert 2.5:f64 : i64", True),
    ("convert 1e+300:f64 : i64", False),
    ("div %2, %2 : f64", True),
    ("floordiv %2, %2 : f64", True),
    ("math.log %2 : f64", True),
    ("call @f(%0, %1, %2) : i64", False),
])
def test_speculatable(text, expected):
    f = parse_function(f"func @f(%0: i64, %1: i64, %2: f64) -> i64 {{\nbb0:\n"
                       f"  %3 = {text}\n  ret %0\n}}\n")
    assert is_speculatable(f.entry.instrs[0]) is expected


def test_a_pass_that_found_nothing_runs_again_only_after_a_change(monkeypatch):
    calls = []
    monkeypatch.setitem(PASSES, "idle", recorder(calls, "idle", False))
    monkeypatch.setitem(PASSES, "changer", recorder(calls, "changer", True))
    run_pipeline(parse_function(LOOP), passes=["idle", "idle", "changer", "idle", "idle"])
    assert calls == ["idle", "changer", "idle"]


def test_llvm_level_is_lowered_only_for_register_only_code():
    from script.compiler import llvm_level
    scalar = parse_module(LOOP)
    assert [llvm_level(scalar, opt) for opt in (0, 1, 2, 3)] == [0, 1, 1, 3]
    assert llvm_level(parse_module(LOOP + "\n" + LOOP.replace("@f", "@g")), 2) == 2
    array = parse_module(textwrap.dedent("""\
        func @f(%0: f64[:]) -> f64 {
        bb0:
          %1 = dim.0 %0 : i64
          %2 = convert %1 : f64
          ret %2
        }
        """))
    assert llvm_level(array, 2) == 2
