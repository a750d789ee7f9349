"""`scriptc dump` shows gradient objects (`g = script.grad(f)` at the top of a file) at every
stage, as it shows `@script` functions: the entry and adjoint IR before and after the passes,
the passes one by one, the CFG, LLVM IR and assembly; and reports a gradient that cannot be
built as a compile error at its line."""

from __future__ import annotations

import re

import pytest

from test_cli import run

GRADS = '''\
import math
import script


@script.script
def f(x: float, n: int) -> float:
    s = 0.0
    for i in range(n):
        s += math.sin(x * i)
    return s


@script.script
def loss(w, k: float):
    t = 0.0
    for i in range(w.shape[0]):
        t += k * w[i] * w[i]
    return t


@script.script
def count(x: float) -> int:
    return int(x)


df = script.grad(f)
vg = script.value_and_grad(f)
dloss = script.grad(loss, (0, 1))
dcount = script.grad(count)
dloss(__import__("numpy").ones(3), 2.0)        # a signature made by a call, as for functions
'''


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    d = tmp_path_factory.mktemp("gradcli")
    (d / "grads.py").write_text(GRADS)
    return d


def functions(text: str) -> list[str]:
    return re.findall(r"^func @(\S+)\(", text, re.M)


def test_dump_lists_gradients_after_their_functions(work):
    p = run("dump", "grads.py", cwd=work, check_rc=1)      # dcount: an int result
    names = functions(p.stdout)
    assert names.index("f.f64_i64") < names.index("f$grad.f64_i64") < \
        names.index("f$value_and_grad.f64_i64")
    assert "f.f64_i64.adj_0" in names
    assert "loss$grad_0_1.A1Cf64_f64" in names      # its adjoint, small, inlined into it
    built = run("dump", "grads.py", "dloss", "--stage", "ssa", cwd=work, check_rc=0)
    assert "loss.A1Cf64_f64.adj_0_1" in functions(built.stdout)
    assert len(names) == len(set(names))                    # one module: each name once
    assert "cannot differentiate count: its result is i64, not a float" in p.stderr


@pytest.mark.parametrize("stage", ["ssa", "opt"])
def test_ir_stages_parse_as_one_module(work, stage):
    from script.ir.parser import parse_module
    p = run("dump", "grads.py", "df", "vg", "--stage", stage, cwd=work, check_rc=0)
    module = parse_module(p.stdout)
    assert {"f$grad.f64_i64", "f$value_and_grad.f64_i64"} <= set(module.functions)
    if stage == "ssa":
        assert "poll" not in p.stdout                      # before the interrupt checks
    else:
        assert "poll" in p.stdout


def test_llvm_and_asm_stages(work):
    llvm = run("dump", "grads.py", "vg", "--stage", "llvm", cwd=work, check_rc=0)
    assert llvm.stdout.startswith("; script: vg(float, int) -> tuple[float, float]\n")
    assert "define " in llvm.stdout
    asm = run("dump", "grads.py", "dloss", "--stage", "asm", cwd=work, check_rc=0)
    assert "script: dloss(" in asm.stdout.splitlines()[0] and len(asm.stdout.splitlines()) > 10


def test_print_after_opt_level_and_dot(work):
    trace = run("dump", "grads.py", "df", "--print-after", "dce", cwd=work, check_rc=0)
    headers = re.findall(r"^// IR after (\w+)", trace.stdout, re.M)
    assert headers and set(headers) == {"dce"}
    o0 = run("dump", "grads.py", "df", "--opt", "0", cwd=work, check_rc=0)
    assert "f$grad.f64_i64" in o0.stdout
    dot = run("dump", "grads.py", "df", "--format", "dot", cwd=work, check_rc=0)
    assert dot.stdout.startswith('digraph "cfg" {') and "f$grad.f64_i64" in dot.stdout


def test_ast_stage_is_the_differentiated_function(work):
    p = run("dump", "grads.py", "df", "--stage", "ast", cwd=work, check_rc=0)
    assert "FunctionDef(\n  name='f'" in p.stdout


def test_a_gradient_that_cannot_be_built_is_a_compile_error(work):
    p = run("dump", "grads.py", "dcount", "--stage", "ssa", cwd=work, check_rc=1)
    assert "grads.py:" in p.stderr and "its result is i64, not a float" in p.stderr
