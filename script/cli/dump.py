"""`scriptc dump`: one stage of the compiler for each selected function and signature.

Stages: ``ast`` (the function's syntax tree, `ast.dump`), ``ssa`` (typed SSA from the
frontend), ``opt`` (after script's passes), ``llvm`` (LLVM IR after LLVM's optimizer),
``asm`` (machine code for this CPU), ``ptx`` (kernels; the CUDA path does not exist yet).

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


def check_options(stage: str, fmt: str, print_after: str | None) -> None:
    """Reject option combinations before anything is imported or compiled."""
    if stage == "ptx":
        raise UsageError("--stage ptx: there are no kernels/CUDA path yet (@script.kernel is not "
                         "implemented); use --stage llvm or --stage asm for CPU code")
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

    Mirrors `script.compiler.compile_specialization` up to the backend, on fresh copies of
    the frontend's cached functions, with the function object's level and pass list.
    """
    from script.compiler import disabled_passes, verify_enabled
    from script.frontend.specialize import closure_of, specialize
    from script.ir.clone import clone_functions
    from script.ir.core import Module
    funcs = clone_functions(closure_of(specialize(target.info, key)))
    if verify_enabled():
        from script.ir.verifier import verify_module
        verify_module(Module(funcs), after="frontend")
    if stage == "ssa":
        return Module(funcs)
    from script.ir.passes import run_pipeline
    d = target.fn.__dict__
    for f in funcs:
        run_pipeline(f, level=d["_opt"], passes=d["_passes"], verify=verify_enabled(),
                     disabled=disabled_passes(), print_after=print_after, stream=trace)
    return Module(closure_of(funcs[0]))


class Dumper:
    """Writes each target's stage to `out`; compile errors go to `report`. Counts failures."""

    def __init__(self, stage: str, fmt: str, print_after: str | None, out, painter: Painter, report):
        self.stage, self.fmt, self.print_after = stage, fmt, print_after
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
        if self.print_after is not None:
            trace = io.StringIO()
            build_ir(target, key, "opt", self.print_after, trace)
            self.write(trace.getvalue(), "ir")
        if self.stage in IR_STAGES:
            module = build_ir(target, key, self.stage)
            fresh = [f for name, f in module.functions.items() if name not in self.printed]
            self.printed.update(f.name for f in fresh)
            if self.fmt == "dot":
                self.graph.extend(fresh)
                return
            from script.ir.printer import format_function
            self.write("\n".join(format_function(f) for f in fresh), "ir", separate=True)
            return
        fn = target.fn.compile(*key)
        spec = fn.__dict__["_specializations"][key]
        self.write(f"{_comment(self.stage)} script: {target.name}{_signature(spec)}\n"
                   + spec.ir(self.stage).rstrip("\n") + "\n", self.stage, separate=True)

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
