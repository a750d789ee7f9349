"""`scriptc dump`: one stage of the compiler for each selected function and signature.

Stages: ``ast`` (the function's syntax tree, `ast.dump`), ``ssa`` (typed SSA from the
frontend), ``opt`` (after script's passes), ``llvm`` (LLVM IR after LLVM's optimizer),
``asm`` (machine code for this CPU), ``ptx`` (kernels only).

For kernels (`@script.kernel`) ``ssa``, ``opt``, ``llvm`` and ``ptx`` show the GPU
compilation: the IR PTX is made from (bounds checks as on the GPU), the NVPTX LLVM IR and
the PTX for ``--arch`` (default: the kernel's, else the GPU's, else sm_80); ``asm`` (CPU
code) does not apply to them, nor ``ptx`` to ordinary functions.

``ssa`` and ``opt`` run only the frontend and the IR passes, never LLVM, so they work on a
function whose later stages fail; their output is one module in the text form the IR parser
reads (a callee shared by several functions is printed once). `--print-after` writes the IR
after a pass (or after every pass) before the stage's output. ``--format dot`` draws the
``ssa`` or ``opt`` IR as a control-flow graph (see `script.cli.dot`).
"""

from __future__ import annotations

import ast
import io
import platform

from script.cli.color import Painter
from script.cli.errors import UsageError
from script.cli.target import Target
from script.errors import CompileError

STAGES = ("ast", "ssa", "opt", "llvm", "asm", "ptx")
IR_STAGES = ("ssa", "opt")


def check_options(stage: str, fmt: str, print_after: str | None, arch: str | None = None) -> None:
    """Reject option combinations before anything is imported or compiled."""
    if arch is not None:
        if stage not in ("ptx", "llvm"):
            raise UsageError(f"--arch chooses the GPU architecture of kernels: use it with "
                             f"--stage ptx or llvm, not {stage}")
        from script.backend.nvptx.abi import check_arch
        try:
            check_arch(arch)
        except ValueError as e:
            raise UsageError(f"--arch: {e}") from None
    if fmt == "dot" and stage not in IR_STAGES:
        raise UsageError(f"--format dot draws script's IR: use it with --stage ssa or opt, not {stage}")
    if print_after is not None:
        if stage in ("ast", "ssa"):
            raise UsageError(f"--print-after shows the IR passes, which run after --stage {stage}; "
                             "use --stage opt, llvm or asm")
        from script.ir.passes import PASSES
        if print_after != "all" and print_after not in PASSES:
            raise UsageError(f"--print-after: no pass {print_after!r}; passes: all, "
                             + ", ".join(PASSES))


def build_ir(target: Target, key: tuple, stage: str, print_after: str | None = None,
             trace: io.StringIO | None = None):
    """The IR module of `target` at `key` after the frontend ("ssa") or the passes ("opt").

    The steps of `compile_specialization` (script.ir.passes `STEPS["function"]`) through
    "closure", on fresh copies of the frontend's cached functions, with the function
    object's level and pass list; without its checks (the IR of what a compile refuses is
    shown) and without outlining `prange` loops (`parallel` is not an option of dump). A
    gradient's IR is its entry and adjoint functions (script.autodiff.gradient_ir).
    """
    if target.is_gradient:
        from script.autodiff import gradient_ir
        return gradient_ir(target.fn, key, stage, print_after, trace)
    from script.compiler import function_steps, step_unit
    from script.frontend.specialize import closure_of, specialize
    from script.ir.clone import clone_functions
    from script.ir.core import Module
    from script.ir.passes import run_steps
    ssa_functions = closure_of(specialize(target.info, key))
    funcs = clone_functions(ssa_functions)
    d = target.fn.__dict__
    unit = step_unit(Module(funcs), funcs[0], d["_opt"], d["_passes"], print_after=print_after,
                     stream=trace)
    return run_steps("function", unit, function_steps(target.info, ssa_functions),
                     stop="verify" if stage == "ssa" else "closure", checks=False).module


class Dumper:
    """Writes each target's stage to `out`; compile errors go to `report`. Counts failures."""

    def __init__(self, stage: str, fmt: str, print_after: str | None, out, painter: Painter, report,
                 arch: str | None = None):
        self.stage, self.fmt, self.print_after, self.arch = stage, fmt, print_after, arch
        self.out, self.painter, self.report = out, painter, report
        self.printed: set[str] = set()       # IR functions already written (shared callees)
        self.graph: list = []                # functions for --format dot
        self.failures = 0
        self.printed_anything = False

    def run(self, targets: list[Target]) -> int:
        for target in targets:
            if self.stage == "ast":
                self.write(ast.dump(target.info.node, indent=2) + "\n", "ast")
                continue
            for key in target.keys:
                try:
                    self.one(target, key)
                except CompileError as e:
                    self.failures += 1
                    self.report(str(e))
        if self.graph:
            from script.cli.dot import format_dot
            self.out.write(format_dot(self.graph))
        return self.failures

    def one(self, target: Target, key: tuple) -> None:
        if target.is_kernel:
            self.one_kernel(target.fn, target.name, key)
            return
        if self.print_after is not None:
            trace = io.StringIO()
            build_ir(target, key, "opt", self.print_after, trace)
            self.write(trace.getvalue(), "ir")
        if self.stage in IR_STAGES:
            self.write_module(build_ir(target, key, self.stage))
            return
        fn = target.fn.compile(*key)
        spec = fn.__dict__["_specializations"][key]
        self.write(f"{_comment(self.stage)} script: {target.name}{_signature(spec)}\n"
                   + spec.ir(self.stage).rstrip("\n") + "\n", self.stage, separate=True)

    def one_kernel(self, kernel, name: str, key: tuple) -> None:
        """A kernel's GPU compilation at the stage (script.cuda.kernel.Kernel)."""
        from script.frontend.typeinfer import format_signature
        if self.print_after is not None:
            trace = io.StringIO()
            kernel._module(key, gpu=True, print_after=self.print_after, stream=trace)
            self.write(trace.getvalue(), "ir")
        if self.stage in IR_STAGES:
            self.write_module(kernel._module(key, gpu=True, stage=self.stage))
            return
        code = kernel.compile_ptx(key, self.arch)
        text = code.text if self.stage == "ptx" else code.llvm_ir
        comment = "//" if self.stage == "ptx" else ";"
        self.write(f"{comment} script: kernel {name}{format_signature(key)} for {code.arch}\n"
                   + text.rstrip("\n") + "\n", self.stage, separate=True)

    def write_module(self, module) -> None:
        fresh = [f for name, f in module.functions.items() if name not in self.printed]
        self.printed.update(f.name for f in fresh)
        if self.fmt == "dot":
            self.graph.extend(fresh)
            return
        from script.ir.printer import format_function
        self.write("\n".join(format_function(f) for f in fresh), "ir", separate=True)

    def write(self, text: str, kind: str, separate: bool = False) -> None:
        if not text:
            return
        if separate and self.printed_anything:
            self.out.write("\n")
        self.out.write(self.painter.paint(text, kind))
        self.out.flush()
        self.printed_anything = True


def _signature(spec) -> str:
    from script.frontend.typeinfer import format_signature, python_type_name
    return f"{format_signature(spec.arg_types)} -> {python_type_name(spec.ret_type)}"


def _comment(stage: str) -> str:
    """The line-comment marker of LLVM IR, or of this CPU's assembler."""
    if stage == "llvm":
        return ";"
    return "//" if platform.machine().lower() in ("arm64", "aarch64") else "#"
