"""The one pass driver: `STEPS`, the ordered steps of each target around the pipeline, run
by `run_steps` with the functions its callers supply."""

from __future__ import annotations

import textwrap

import pytest

from script.errors import VerifyError
from script.ir import types as T
from script.ir.core import Const, Instr, Module
from script.ir.parser import parse_function
from script.ir.passes import STEPS, Unit, run_step, run_steps

LOOP = textwrap.dedent("""\
    func @f(%0: i64) -> i64 {
    bb0:
      %4 = add 2:i64, 3:i64 : i64
      br bb1(0:i64)
    bb1(%1: i64):
      %2 = cmp.lt %1, %0 : bool
      cbr %2, bb2, bb3
    bb2:
      %3 = add %1, 1:i64 : i64
      br bb1(%3)
    bb3:
      ret %1
    }
    """)


def names(target):
    return [s.name for s in STEPS[target]]


def test_the_tables_keep_the_compilers_order():
    assert names("function") == [
        "prange", "reject_kernel_ops", "reject_argument_list_writes", "reject_boxed_instances",
        "reject_iterator_return", "reject_const_array_writes", "verify", "optimize", "closure", "interrupts"]
    assert names("kernel") == ["wrap_ints", "check_kernel", "verify", "optimize", "closure"]


def test_the_callers_supply_every_step_the_ir_does_not_have():
    from script.compiler import function_steps
    assert set(function_steps(None, [])) == set(names("function")) - {"verify", "optimize"}


def recorder(target, calls, **replace):
    def step(name):
        return replace.get(name, lambda unit: calls.append(name))
    fns = {n: step(n) for n in names(target) if n not in ("verify", "optimize")}
    fns["closure"] = lambda unit: (calls.append("closure"), unit.module)[1]
    return fns


def unit(**kw):
    f = parse_function(LOOP)
    return Unit(Module([f]), f, **kw)


def test_steps_run_in_order_with_their_options():
    calls = []
    run_steps("function", unit(options=frozenset({"interruptible"})), recorder("function", calls))
    assert calls == ["reject_kernel_ops", "reject_argument_list_writes", "reject_boxed_instances",
                     "reject_iterator_return", "reject_const_array_writes", "closure", "interrupts"]
    calls.clear()
    run_steps("function", unit(options=frozenset({"parallel"})), recorder("function", calls),
              checks=False, stop="closure")
    assert calls == ["prange", "closure"]
    calls.clear()
    run_steps("kernel", unit(), recorder("kernel", calls), start="optimize")
    assert calls == ["closure"]


def test_a_step_without_a_function_or_a_function_without_a_step_is_an_error():
    fns = recorder("kernel", [])
    del fns["check_kernel"]
    with pytest.raises(AssertionError, match="no function for the kernel steps check_kernel"):
        run_steps("kernel", unit(), fns)
    with pytest.raises(AssertionError, match="interrupts: no such kernel step"):
        run_steps("kernel", unit(), {**recorder("kernel", []), "interrupts": print})


def break_ir(unit):
    block = unit.entry.blocks[-1]
    block.insert(0, Instr("add", [Const(1, T.I64), Const(1.0, T.F64)], T.I64))


def test_the_verifier_names_the_step_that_broke_the_ir():
    fns = recorder("function", [], interrupts=break_ir)
    with pytest.raises(VerifyError, match="after interrupts in @f"):
        run_steps("function", unit(options=frozenset({"interruptible"}), verify=True), fns)
    fns = recorder("function", [], prange=break_ir)      # before the verify step: its input
    with pytest.raises(VerifyError, match="after frontend in @f"):
        run_steps("function", unit(options=frozenset({"parallel"}), verify=True), fns)
    run_steps("function", unit(options=frozenset({"parallel"})), fns, stop="verify")   # off


def test_one_step_alone():
    u = run_step("function", "optimize", unit(verify=True))
    assert u.stats == {"sccp.constants": 1}       # the pipeline ran: 2 + 3 folded
    with pytest.raises(VerifyError, match="after interrupts in @f"):
        run_step("function", "interrupts", unit(verify=True), break_ir)


def test_the_compilers_one_step_wrappers(monkeypatch):
    from script.compiler import add_interrupt_checks, optimize_module
    monkeypatch.setenv("SCRIPT_VERIFY", "1")
    module = unit().module
    assert optimize_module(module, 2) == {"sccp.constants": 1}
    add_interrupt_checks(module)        # script.autodiff's code is always interruptible
    assert any(i.opname == "poll" for i in module.functions["f"].instructions())
