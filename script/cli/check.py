"""`scriptc check`: type-check every `@script` function of some files, reporting every error.

A function is checked by running the frontend (parsing, name resolution, SSA construction
and type inference, which is where every `CompileError` comes from) for each signature:
its annotations, a `--sig`, or the argument types of calls the file itself makes at import
time. Neither the IR passes nor LLVM run, so checking is fast. Callees are checked through
their callers; an error is reported once however many callers reach it.

The frontend stops at the first error in a function, so each function reports at most one
error per signature; every function of every file is checked. Errors are printed sorted by
file and position, in ``file:line:col: message`` form with the source line and a caret.

An unannotated function that has no signature is not checked, and says so in a note; it does
not make the check fail (give it a `--sig NAME="..."`, or annotate it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from script.cli.errors import CliError
from script.cli.signature import SigOption
from script.cli.target import import_file, select
from script.errors import STRICT_NAMES, CompileError


@dataclass
class CheckResult:
    errors: list = field(default_factory=list)      # CompileErrors, deduplicated
    notes: list = field(default_factory=list)       # strings
    checked: int = 0                                 # (function, signature) pairs
    files: int = 0
    failed_files: list = field(default_factory=list)  # CliErrors from importing

    def add(self, error: CompileError) -> None:
        if all(str(error) != str(e) for e in self.errors):
            self.errors.append(error)


def check_files(paths: list[str], sigs: list[SigOption]) -> CheckResult:
    """Every error of the files' functions; an undefined name is one (STRICT_NAMES), though
    a compiled call raises CPython's NameError only where the name is read."""
    token = STRICT_NAMES.set(True)
    try:
        return _check_files(paths, sigs)
    finally:
        STRICT_NAMES.reset(token)


def _check_files(paths: list[str], sigs: list[SigOption]) -> CheckResult:
    from script.frontend.specialize import specialize
    result = CheckResult()
    for path in paths:
        result.files += 1
        try:
            loaded = import_file(path)
            targets = select(loaded, [], _sigs_for(loaded, sigs))
        except CliError as e:
            result.failed_files.append(e)
            continue
        for error in loaded.decoration_errors:
            result.add(error)
        for t in targets:
            if t.missing_sig:
                params = ", ".join(t.info.param_names)
                result.notes.append(f"{path}: note: {t.name}({params}) not checked: it is not "
                                    f"annotated; give its types with --sig '{t.name}=...'")
            for key in t.keys:
                result.checked += 1
                try:
                    specialize(t.info, key)
                except CompileError as e:
                    result.add(e)
    result.errors.sort(key=_position)
    return result


def _sigs_for(loaded, sigs: list[SigOption]) -> list[SigOption]:
    """With several files, a `--sig NAME=...` applies to the files that define NAME."""
    return [s for s in sigs if s.func is None or hasattr(loaded.module, s.func)]


def _position(error: CompileError):
    loc = error.loc
    return ("", 0, 0) if loc is None else (loc.file, loc.line, loc.col)


def summary(result: CheckResult) -> str:
    n = len(result.errors) + len(result.failed_files)
    files = f"{result.files} file{'s' if result.files != 1 else ''}"
    checked = f"{result.checked} signature{'s' if result.checked != 1 else ''} checked"
    if n == 0:
        return f"ok: {files}, {checked}, no errors"
    return f"{n} error{'s' if n != 1 else ''} in {files} ({checked})"
