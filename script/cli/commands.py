"""One function per subcommand: `fn(args, session) -> exit status`.

Each validates its options first (UsageError, before the user's file runs), imports the file
(`script.cli.target`), and reports compile errors one by one on stderr, going on with the
other functions; the status is 1 if any failed.
"""

from __future__ import annotations

import os

from script.cli.errors import EXIT_OK, EXIT_USER_CODE, CliError, UsageError
from script.cli.signature import parse_option
from script.cli.target import Target, import_file, select, split_file_name


def dump(args, session) -> int:
    from script.cli.dump import Dumper, check_options
    check_options(args.stage, args.format, args.print_after, args.arch)
    args.file, args.functions = split_file_name(args.file, args.functions)
    sigs = [parse_option(s) for s in args.sig]
    loaded = import_file(args.file)
    targets = _for_stage(select(loaded, args.functions, sigs, args.opt, gradients=True), args,
                         session)
    failures = 0
    if not args.functions:
        for error in loaded.decoration_errors:
            session.report(str(error))
            failures += 1
    if not targets and not failures:
        raise UsageError(f"{args.file} has no @script functions; name a function to compile a "
                         "plain one (with --sig if it is not annotated)")
    if args.stage != "ast":
        targets = _drop_unsigned(targets, args, session)
        if not targets and not failures:
            raise UsageError("nothing to dump: no function has a signature (see the notes above)")
    dumper = Dumper(args.stage, args.format, args.print_after, session.out, session.out_painter,
                    session.report, args.arch)
    failures += dumper.run(targets)
    return EXIT_USER_CODE if failures else EXIT_OK


def _for_stage(targets: list[Target], args, session) -> list[Target]:
    """The targets that have `args.stage`: only kernels have PTX, and kernels have no CPU
    assembly. Naming one that does not is a usage error; others are left out (with a note
    for kernels, which a plain `dump FILE` lists too)."""
    if args.stage == "ptx":
        for t in targets:
            if not t.is_kernel and t.name in args.functions:
                raise UsageError(f"--stage ptx: {t.name} is not a kernel (@script.kernel); PTX "
                                 "exists only for kernels (use --stage llvm or asm for CPU code)")
        kept = [t for t in targets if t.is_kernel]
        if targets and not kept:
            raise UsageError(f"--stage ptx: {args.file} has no kernels (@script.kernel)")
        return kept
    if args.stage == "asm":
        for t in targets:
            if t.is_kernel and t.name in args.functions:
                raise UsageError(f"--stage asm: {t.name} is a kernel; its GPU code is "
                                 "--stage ptx (and --stage llvm its LLVM IR)")
            if t.is_kernel:
                session.report(f"{args.file}: note: skipped kernel {t.name} (no CPU assembly "
                               "stage; use --stage ptx)")
        return [t for t in targets if not t.is_kernel]
    return targets


def _drop_unsigned(targets: list[Target], args, session) -> list[Target]:
    """Unannotated functions without a signature: an error if named, else a note."""
    kept = []
    for t in targets:
        for note in t.notes if t.name in args.functions else ():
            session.report(f"{args.file}: {note}")
        if not t.missing_sig:
            kept.append(t)
            continue
        params = t.info.param_names
        example = ", ".join(["f64"] * len(params))
        hint = (f"{t.name}({', '.join(params)}) is not annotated: give its argument types with "
                f"--sig '{t.name}=TYPES' (e.g. --sig '{t.name}={example}')")
        if t.name in args.functions:
            raise UsageError(hint)
        session.report(f"{args.file}: note: skipped {hint}")
    return kept


def check(args, session) -> int:
    from script.cli.check import check_files, summary
    sigs = [parse_option(s) for s in args.sig]
    result = check_files(args.files, sigs)
    for e in result.failed_files:
        session.report(e.message if e.bare else f"scriptc: error: {e.message}")
    for e in result.errors:
        session.report(str(e))
    for note in result.notes:
        session.report(note)
    session.out.write(summary(result) + "\n")
    statuses = [e.status for e in result.failed_files] + [EXIT_USER_CODE] * bool(result.errors)
    return max(statuses, default=EXIT_OK)


def compile(args, session) -> int:  # noqa: A001 - the subcommand's name
    from script.cli.archive import compile_targets, saved_module
    args.file, args.functions = split_file_name(args.file, args.functions)
    sigs = [parse_option(s) for s in args.sig]
    saved_module()                      # fail before running the user's file
    loaded = import_file(args.file)
    for error in loaded.decoration_errors:
        session.report(str(error))
    targets = _drop_unsigned(select(loaded, args.functions, sigs), args, session)
    out = args.output or os.path.splitext(os.path.basename(args.file))[0] + ".smod"
    if compile_targets(targets, out, session.report, len(loaded.decoration_errors)):
        return EXIT_USER_CODE
    n = sum(len(t.keys) for t in targets)
    k = sum(t.is_kernel for t in targets)
    what = f"{len(targets) - k} function{'s' * (len(targets) - k != 1)}"
    if k:
        what += f" and {k} kernel{'s' * (k != 1)}"
    session.out.write(f"saved {what} ({n} signature{'s' * (n != 1)}) to {out}\n")
    return EXIT_OK


def aot(args, session) -> int:
    from script.cli.aot import build, exports
    args.file, args.functions = split_file_name(args.file, args.functions)
    sigs = [parse_option(s) for s in args.sig]
    name = os.path.splitext(os.path.basename(args.file))[0]
    args.output = args.output or f"lib{name}.so"
    args.header = args.header or f"{name}.h"
    loaded = import_file(args.file)
    for error in loaded.decoration_errors:
        session.report(str(error))
    targets = _drop_unsigned(select(loaded, args.functions, sigs), args, session)
    items = exports(targets, session.report)
    if items is None or loaded.decoration_errors:
        return EXIT_USER_CODE
    if not items:
        raise UsageError("nothing to export: no function has a signature (annotate them or give --sig)")
    build(args, items)
    session.out.write(f"wrote {args.output} and {args.header} ({len(items)} function"
                      f"{'s' * (len(items) != 1)}: {', '.join(i.c_name for i in items)})\n")
    return EXIT_OK


def inspect(args, session) -> int:
    from script.cli.archive import load, loaded_functions
    module = load(args.file)
    if args.stage is None:
        if args.functions:
            raise UsageError("naming functions needs --stage (the listing shows them all)")
        session.out.write(str(module).rstrip("\n") + "\n")
        return EXIT_OK
    functions = loaded_functions(module)
    for name in args.functions:
        if name not in functions:
            raise UsageError(f"{args.file} has no function {name!r} "
                             f"(it has {', '.join(functions) or 'none'})")
    from script.cli.archive import stage_text
    kind = "ir" if args.stage in ("ssa", "opt") else args.stage
    kernels = getattr(module, "__kernels__", ())
    names = args.functions or [n for n in functions if args.stage != "ptx" or n in kernels]
    if not names:
        raise CliError(f"{args.file}: --stage ptx: the archive has no kernels")
    if args.stage == "ptx":
        for name in names:
            if name not in kernels:
                raise UsageError(f"--stage ptx: {name} is not a kernel; PTX exists only for "
                                 "kernels (saved with @script.kernel)")
    if args.arch is not None and args.stage not in ("ptx", "llvm"):
        raise UsageError(f"--arch chooses the architecture of kernels' PTX: use it with --stage "
                         f"ptx or llvm, not {args.stage}")
    for i, name in enumerate(names):
        try:
            text = stage_text(functions[name], args.stage, args.arch)
        except Exception as e:  # noqa: BLE001 - whatever the loader cannot show
            raise CliError(f"{args.file}: cannot show {name} at stage {args.stage}: {e}") from None
        text = session.out_painter.paint(text.rstrip("\n"), kind)
        session.out.write(("\n" if i else "") + text + "\n")
    return EXIT_OK


def demo(args, session) -> int:
    from script.demo import main as run_demo
    return run_demo()
