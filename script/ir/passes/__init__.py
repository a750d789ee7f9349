"""The optimization pipeline: which passes run, in what order, at each level.

Every pass is a module here whose file name is its name, with
``run(func, stats=None) -> bool`` (did it change anything; `stats`, a `Counter`, receives
what it did). Modules whose names start with ``_`` are helpers shared by passes, not passes.

`PIPELINES` is the one ordered table: for each optimization level, a tuple of steps, where
a step is a pass name, a `Fixpoint` (passes run in order, again and again while any of
them changes something, at most `limit` times) or a `Then` (passes run only when the one
before them changed something). `ORDER` lists "a before b, because…"
pairs; `_check_order` asserts at import that every level respects them.

`STEPS` is the other table: for each target ("function", "kernel"), the ordered steps that
take the frontend's module to the backend's, the pipeline being one of them ("optimize").
Steps are names; `run_steps` is the one driver, and the callers (script.compiler,
script.cuda.compile) hand it the functions of the steps that are not the IR's own (the
frontend's checks, `closure`), so that script.ir never imports the frontend.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from functools import partial
from typing import IO, Callable, Iterable

from script.ir.core import Function, Module
from script.ir.passes import (bce, constfold, cse, dce, defer, fixedlen, inline, jam, licm,
                              masked, ranges, sccp, simplify_cfg, speculate, strength, uncaught,
                              unswitch, versioning)

PASSES = {
    "inline": inline,
    "fixedlen": fixedlen,
    "constfold": constfold,
    "sccp": sccp,
    "dce": dce,
    "simplify_cfg": simplify_cfg,
    "cse": cse,
    "licm": licm,
    "bce": bce,
    "strength": strength,
    "versioning": versioning,
    "defer": defer,
    "unswitch": unswitch,
    "jam": jam,
    "uncaught": uncaught,
    "masked": masked,
    "ranges": ranges,
    "speculate": speculate,
}


@dataclass(frozen=True)
class Fixpoint:
    """Run `passes` in order until a whole round changes nothing, at most `limit` rounds."""

    passes: tuple[str, ...]
    limit: int = 4


@dataclass(frozen=True)
class Then:
    """Run the pass `first`; only when it changed the function (and counted `when` among
    its stats, when given), run `passes` in order: passes worth running again on what
    `first` made, and not otherwise."""

    first: str
    passes: tuple[str, ...]
    when: str | None = None


_CLEANUP = ("constfold", "dce", "simplify_cfg")

# Passes that kernels skip: on a GPU a branch on a value may split a block's threads, and a
# copy of a loop per side would give them different barriers to wait at (`unswitch`); `jam`
# serves CPU vectors.
CPU_ONLY = ("unswitch", "jam")

PIPELINES: dict[int, tuple] = {
    # -O0: the IR as the frontend built it, less the overflow checks of masked results
    # (which are part of what int arithmetic means: a masked hash never raises).
    0: ("masked",),
    # -O1: cheap local cleanup, once.
    1: ("masked", "strength", *_CLEANUP),
    # -O2 (default): propagate constants across the CFG to a fixpoint, then remove
    # redundancy, hoist, and clean up what that exposed.
    2: (
        "inline",
        "fixedlen",
        Fixpoint(("sccp", "constfold", "dce", "simplify_cfg", "uncaught"), limit=4),
        "masked",
        "strength",
        "cse",
        "licm",
        Fixpoint(("constfold", "bce", "dce", "simplify_cfg"), limit=3),
        "versioning",
        "ranges",
        "speculate",
        "constfold",
        "defer",
        Fixpoint(_CLEANUP, limit=2),
        # An innermost loop copied per value of a flag has its branches folded in each
        # copy, where ranges then decides what the flag's tests guarded (the histogram's
        # clamped bin is in [0, n) when n >= 1, so its bounds check becomes ``n <= 0``),
        # and a check it leaves on a value fixed for the loop is unswitched in turn.
        Then("unswitch", ("ranges", "unswitch"), when="innermost_branches"),
        Fixpoint(_CLEANUP, limit=2),
        "jam",
        Fixpoint(_CLEANUP, limit=2),
    ),
    # -O3: everything inside one fixpoint, with more rounds.
    3: (
        "inline",
        "fixedlen",
        Fixpoint(("sccp", "constfold", "dce", "simplify_cfg", "uncaught", "masked", "strength", "cse",
                  "licm"), limit=8),
        Fixpoint(("constfold", "bce", "dce", "simplify_cfg"), limit=4),
        "versioning",
        "ranges",
        "speculate",
        "constfold",
        "defer",
        Fixpoint(_CLEANUP, limit=2),
        # An innermost loop copied per value of a flag has its branches folded in each
        # copy, where ranges then decides what the flag's tests guarded (the histogram's
        # clamped bin is in [0, n) when n >= 1, so its bounds check becomes ``n <= 0``),
        # and a check it leaves on a value fixed for the loop is unswitched in turn.
        Then("unswitch", ("ranges", "unswitch"), when="innermost_branches"),
        Fixpoint(_CLEANUP, limit=2),
        "jam",
        Fixpoint(_CLEANUP, limit=2),
    ),
}

ORDER = (
    ("inline", "sccp",
     "constants passed as arguments meet the callee's branches only once it is inlined"),
    ("inline", "fixedlen",
     "a list made in an inlined callee and indexed by the caller is one list_new once inlined"),
    ("fixedlen", "sccp",
     "a list's length forwarded as a constant (`[0]` has 1) folds `[0] * n`'s length to n"),
    ("sccp", "constfold",
     "sccp leaves peephole chances (x + 0 once x's operand is known) that constfold takes"),
    ("constfold", "dce",
     "folding leaves the folded instructions' operands and dead branches' blocks unused"),
    ("dce", "simplify_cfg",
     "dce drops dead parameters and instructions, leaving empty blocks to thread and merge"),
    ("simplify_cfg", "cse",
     "merged blocks and fewer parameters expose more equal instructions to one table"),
    ("cse", "bce",
     "bce matches the loop bound and an index check's dim as one value, which CSE makes"),
    ("cse", "licm",
     "licm then hoists one copy of a repeated invariant instead of each duplicate"),
    ("sccp", "strength",
     "an exponent that only propagation makes constant (an inlined callee's argument) is "
     "rewritten only once sccp has made it one"),
    ("bce", "versioning",
     "a check bce proves never fails costs nothing, one left to versioning costs a copy of "
     "its loop"),
    ("licm", "versioning",
     "a loop-invariant leaf of a check (a row index) is seen as invariant once hoisted, and "
     "the guard is built from values outside the loop"),
    ("constfold", "uncaught",
     "an exception is known to be caught by no clause once its exc_match tests are folded"),
    ("simplify_cfg", "uncaught",
     "a handler that catches nothing is a block of one reraise once jumps are threaded"),
    ("uncaught", "bce",
     "the bounds checks of a try body are checks again, which bce can prove"),
    ("versioning", "defer",
     "the copy of a loop versioning makes without bounds or index checks is one defer can "
     "change (left with overflow or float checks only)"),
    ("bce", "defer",
     "a loop keeping a bounds check keeps its other checks where they are (the order of the "
     "two errors); bce first removes the bounds checks it proves"),
    ("strength", "cse",
     "the multiplications of x ** 2 and an x * x written out become one value, hoisted once"),
    ("inline", "masked",
     "a helper's product is masked by its caller (`mix(h, c) & MASK`) only once inlined"),
    ("masked", "ranges",
     "a check the masks drop needs no interval; ranges then works on fewer checks"),
    ("cse", "ranges",
     "a loop bound and the length a check compares with are one value once CSE merged them"),
    ("versioning", "ranges",
     "versioning recognises the range checks of stepped loops, which ranges would fold in "
     "part (a positive step); ranges then works on both copies"),
    ("ranges", "defer",
     "a check ranges proves needs no deferring"),
    ("constfold", "jam",
     "the checks ranges proved never fail are gone, not side effects that stop the jam"),
    ("versioning", "unswitch",
     "the copies versioning makes of a row's inner loop are chosen once for all rows when "
     "the outer loop is unswitched on versioning's guard"),
    ("unswitch", "jam",
     "an outer loop unswitched on the inner loop's versioning guard has one inner loop per "
     "copy, which jam takes"),
    ("defer", "jam",
     "an inner loop whose checks were deferred to its exit is one that jam can run for "
     "several rows at once (the rows' errors raised in order after it)"),
    ("ranges", "speculate",
     "an arm whose checks ranges removed is left to LLVM, which speculates plain arms itself"),
)


def _flatten(steps) -> list[str]:
    names = []
    for step in steps:
        if isinstance(step, Then):
            names.extend((step.first, *step.passes))
        else:
            names.extend(step.passes if isinstance(step, Fixpoint) else (step,))
    return names


def _check_order() -> None:
    for level, steps in PIPELINES.items():
        names = _flatten(steps)
        for name in names:
            assert name in PASSES, f"level {level} names unknown pass {name!r}"
        for a, b, because in ORDER:
            if a in names and b in names:
                assert names.index(a) < names.index(b), (
                    f"level {level}: {a} must run before {b}, because {because}")


_check_order()


class _Runner:
    """Runs passes on one function, doing what the options of `run_pipeline` ask.

    A pass that changed nothing is not run again until another pass changes the function:
    passes are deterministic functions of the IR, so it would change nothing again (the
    last round of a fixpoint and a cleanup after passes that found nothing to do cost a
    third of the pipeline's time on a typical function). `version` counts the changes;
    `idle[name]` is the version at which `name` last ran and changed nothing."""

    def __init__(self, verify, print_after, stream, disabled, stats, timings):
        self.verify = verify
        self.print_after = print_after
        self.stream = stream if stream is not None else sys.stderr
        self.disabled = set(disabled)
        self.stats = stats
        self.timings = timings
        self.version = 0
        self.idle: dict[str, int] = {}
        self.counts = Counter()         # the stats of the last pass run

    def run_pass(self, func: Function, name: str) -> bool:
        if name in self.disabled or self.idle.get(name) == self.version:
            return False
        counts = self.counts = Counter()
        start = time.perf_counter()
        changed = PASSES[name].run(func, counts)
        elapsed = time.perf_counter() - start
        if self.timings is not None:
            self.timings[name] = self.timings.get(name, 0.0) + elapsed
        if self.stats is not None:
            for key, n in counts.items():
                if n:
                    self.stats[f"{name}.{key}"] = self.stats.get(f"{name}.{key}", 0) + n
        if self.verify and changed:     # (an unchanged function was verified already;
            from script.ir.verifier import verify_function     # run_pipeline verifies the end too)
            verify_function(func, after=name)
        if self.print_after in ("all", name):
            from script.ir.printer import format_function
            mark = "" if changed else " (no change)"
            self.stream.write(f"// IR after {name}{mark}\n{format_function(func)}")
        if changed:
            self.version += 1
        else:
            self.idle[name] = self.version
        return changed

    def run_steps(self, func: Function, steps) -> bool:
        changed = False
        for step in steps:
            if isinstance(step, Fixpoint):
                for _ in range(step.limit):
                    round_changed = False
                    for name in step.passes:
                        round_changed = self.run_pass(func, name) or round_changed
                    changed = changed or round_changed
                    if not round_changed:
                        break
            elif isinstance(step, Then):
                if self.run_pass(func, step.first):
                    changed = True
                    if step.when is None or self.counts[step.when]:
                        for name in step.passes:
                            self.run_pass(func, name)
            else:
                changed = self.run_pass(func, step) or changed
        return changed


def _check_names(names: Iterable[str], what: str) -> None:
    unknown = sorted(set(names) - set(PASSES))
    if unknown:
        raise ValueError(f"unknown pass {', '.join(unknown)} in {what}; known: {', '.join(PASSES)}")


def run_pipeline(func: Function, level: int = 2, *, passes=None, verify: bool = False,
                 print_after: str | None = None, stream: IO[str] | None = None,
                 disabled=(), stats: dict | None = None, timings: dict | None = None,
                 verified: bool = False) -> bool:
    """Optimize `func` in place; returns whether anything changed.

    `level` picks a row of `PIPELINES`; `passes` (a list of names) runs exactly those, once
    each, instead. `verify` runs the verifier on the input, after every pass that changed
    the function (naming the pass in the error) and on the result. `print_after` ("all" or a pass name) writes the function after each run of that
    pass to `stream` (stderr by default), headed by a ``// IR after NAME`` line. `disabled`
    names passes to skip. `stats` receives ``"pass.what": count`` sums, `timings`
    ``pass: seconds`` sums. `verified` says the caller has verified `func` as it is now
    (`run_steps`, whose "verify" step comes right before "optimize"): the input is not verified
    again.
    """
    if passes is None and level not in PIPELINES:
        raise ValueError(f"no optimization level {level}; levels are {sorted(PIPELINES)}")
    steps = tuple(passes) if passes is not None else PIPELINES[level]
    _check_names(_flatten(steps), "the pipeline")
    _check_names(disabled, "disabled")
    if print_after not in (None, "all"):
        _check_names([print_after], "print_after")
    runner = _Runner(verify, print_after, stream, disabled, stats, timings)
    from script.ir.verifier import verify_function
    if verify and not verified:
        verify_function(func, after="input")
    changed = runner.run_steps(func, steps)
    if verify:      # (a pass that changed the function and said it had not is caught here)
        verify_function(func, after="the pipeline")
    return changed


def run_module_pipeline(module: Module, level: int = 2, **options) -> bool:
    """`run_pipeline` on every function of `module`; returns whether any changed."""
    changed = False
    for func in module.functions.values():
        changed = run_pipeline(func, level, **options) or changed
    return changed


@dataclass(frozen=True)
class Step:
    """One named step of a `STEPS` table. `kind` says what it does to the module: "check"
    (raises a CompileError or changes nothing), "transform" (changes the IR; verified after
    it), "optimize" (the pipeline, which verifies after each of its passes), "select"
    (returns the module that replaces the unit's: which functions it holds, not their IR),
    "verify" (the verifier on what the frontend and the steps before it made). `when`
    names the `Unit.options` flag without which the step does not run."""

    name: str
    kind: str
    when: str | None = None


STEPS: dict[str, tuple[Step, ...]] = {
    "function": (
        Step("prange", "transform", when="parallel"),     # script.ir.parallel
        Step("reject_kernel_ops", "check"),               # cuda.* belongs in @script.kernel functions
        Step("reject_argument_list_writes", "check"),     # what cannot be written back to the caller
        Step("reject_boxed_instances", "check"),          # class instances stay in compiled code
        Step("reject_iterator_return", "check"),          # map(...) would come back a list
        Step("reject_const_array_writes", "check"),       # global arrays are constants of the code
        Step("verify", "verify"),
        Step("optimize", "optimize"),
        Step("closure", "select"),                        # callees inlined everywhere are gone
        Step("interrupts", "transform", when="interruptible"),   # script.ir.interrupts
    ),
    "kernel": (
        Step("wrap_ints", "transform"),                   # int64 wraps, as in CUDA C
        Step("check_kernel", "check"),                    # what GPU code cannot do
        Step("verify", "verify"),
        Step("optimize", "optimize"),
        Step("closure", "select"),
    ),
}

_KINDS = ("check", "transform", "optimize", "select", "verify")


def _check_steps() -> None:
    for target, steps in STEPS.items():
        names = [s.name for s in steps]
        assert len(set(names)) == len(names), f"{target}: a step is named twice"
        assert all(s.kind in _KINDS for s in steps), f"{target}: unknown step kind"
        assert not set(names) & set(PASSES), f"{target}: a step is named as a pass"


_check_steps()


@dataclass
class Unit:
    """What the steps of one compilation work on: the module, its entry function, the
    pipeline's options (as `run_pipeline`'s: `level`, `passes`, `verify`, `disabled`,
    `print_after`, `stream`, `stats`) and the flags `Step.when` reads (`options`)."""

    module: Module
    entry: Function
    level: int = 2
    passes: tuple | None = None
    options: frozenset = frozenset()
    verify: bool = False
    disabled: tuple = ()
    print_after: str | None = None
    stream: IO[str] | None = None
    stats: dict | None = field(default_factory=dict)
    # The module passed the verifier (the "verify" step, or the check after a transform) and
    # no step has changed it since: the pipeline need not verify its input again.
    verified: bool = False


def _verify(unit: Unit) -> None:
    from script.ir.verifier import verify_module
    verify_module(unit.module, after="frontend")


def _optimize(unit: Unit, verified: bool = False) -> None:
    """The pipeline on each function; `verified`: the module was verified and has not changed
    since (a pass changes only the function it runs on, so the functions after the first are
    still as verified when their turn comes)."""
    for f in unit.module.functions.values():
        run_pipeline(f, level=unit.level, passes=unit.passes, verify=unit.verify,
                     disabled=unit.disabled, print_after=unit.print_after, stream=unit.stream,
                     stats=unit.stats, verified=verified)


_OWN = {"verify": _verify, "optimize": _optimize}


def run_steps(target: str, unit: Unit, functions: dict[str, Callable], *,
              start: str | None = None, stop: str | None = None, checks: bool = True) -> Unit:
    """Run the steps of `STEPS[target]` on `unit`, in order, from `start` through `stop`
    (step names; the whole table by default), leaving out the "check" steps when `checks`
    is false (`scriptc dump` shows the IR of what a compile would refuse). `functions` maps
    every step that is not the IR's own ("verify", "optimize") to its function, which takes
    the unit. With `unit.verify`, the verifier runs at the "verify" step and after every
    "transform" step that follows it (the steps before it are what it checks) and after
    every pass of "optimize". Returns `unit`."""
    steps = STEPS[target]
    names = [s.name for s in steps]
    table = {**functions, **_OWN}
    missing = [n for n in names if n not in table]
    assert not missing, f"no function for the {target} steps {', '.join(missing)}"
    unknown = sorted(set(functions) - set(names))
    assert not unknown, f"{', '.join(unknown)}: no such {target} step"
    verified_from = names.index("verify")
    if target == "kernel":
        unit.disabled = tuple(dict.fromkeys((*unit.disabled, *CPU_ONLY)))
    first = names.index(start) if start is not None else 0
    last = names.index(stop) if stop is not None else len(names) - 1
    for k in range(first, last + 1):
        step, function = steps[k], table[steps[k].name]
        if step.name == "optimize":
            function = partial(_optimize, verified=unit.verified)
        _run_step(step, unit, function, k > verified_from, checks)
    return unit


def run_step(target: str, name: str, unit: Unit, function: Callable | None = None) -> Unit:
    """The one step `name` of `STEPS[target]` on `unit`, whatever its `when` (verified after
    it as in `run_steps` when it is a transform): what `optimize_module` and `add_interrupt_checks` do for code
    that is not a user's function (script.autodiff)."""
    step = next(s for s in STEPS[target] if s.name == name)
    _run_step(step, unit, function or _OWN[name], True, True, asked=True)
    return unit


def _run_step(step: Step, unit: Unit, function: Callable, verify_after: bool, checks: bool,
              asked: bool = False) -> None:
    """Runs `step` unless its `when`, `checks` or `unit.verify` leave it out, and keeps
    `unit.verified` up to date."""
    if step.when is not None and step.when not in unit.options and not asked:
        return
    if step.kind == "check" and not checks:
        return
    if step.kind == "verify" and not unit.verify:
        return
    result = function(unit)
    if step.kind == "select":
        unit.module = result
    elif step.kind == "transform" and verify_after and unit.verify:
        from script.ir.verifier import verify_function
        for f in unit.module.functions.values():
            verify_function(f, after=step.name)
    unit.verified = step.kind == "verify" or (step.kind == "check" and unit.verified) \
        or (step.kind == "transform" and verify_after and unit.verify)
