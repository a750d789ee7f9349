"""`scriptc aot`: a shared library and a C header of a file's functions, for C and C++
callers without Python (the library: script.aot; the manual: docs/cli.md).

Each function is compiled again for its signatures without interrupt checks (Ctrl-C is the C
program's business) and with its other options; a function that cannot be exported (a
kernel, one without a signature, one that needs the Python runtime) is reported by name with
the reason, and nothing is written.
"""

from __future__ import annotations

import os

from script.cli.errors import UsageError, UserCodeError
from script.cli.target import Target, wrap_function
from script.errors import CompileError


def exports(targets: list[Target], report) -> list | None:
    """The `script.aot.Export`s of `targets`, compiled; None when any failed (reported)."""
    from script.aot import Export, c_names
    out, failed = [], False
    for t in targets:
        if t.is_kernel:
            report(f"scriptc: error: cannot export {t.name}: it is a kernel (@script.kernel), "
                   "which runs on a GPU; scriptc aot exports CPU functions")
            failed = True
            continue
        d = t.fn.__dict__
        fn = wrap_function(t.fn.py_func, opt=d["_opt"], passes=d["_passes"],
                           boundscheck=d.get("_boundscheck", True), fastmath=d.get("_fastmath", False),
                           parallel=d.get("_parallel", False), interruptible=False)
        for c_name, key in zip(c_names(t.name, t.keys), t.keys):
            try:
                fn.compile(*key)
            except CompileError as e:
                report(str(e))
                failed = True
                continue
            out.append(Export(c_name, fn, key))
    return None if failed else out


def build(args, items: list) -> None:
    """Write the library and header. Functions that cannot be exported are a user error that
    names each of them with its reason."""
    from script.aot import NotExportable, build_library
    names = [item.c_name for item in items]
    for name in names:
        if names.count(name) > 1:
            raise UsageError(f"two exported functions would both be called {name} in C")
    try:
        build_library(items, args.output, args.header, os.path.basename(args.file))
    except NotExportable as e:
        raise UserCodeError("\n".join(f"scriptc: error: {line}" for line in e.message.splitlines()),
                            bare=True) from None
    except (RuntimeError, OSError) as e:
        raise UserCodeError(str(e)) from None
