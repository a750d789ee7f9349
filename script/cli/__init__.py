"""The command line: `scriptc` and `python -m script` (the same `main`).

Subcommands: `dump` (any stage of the compiler for the functions of a file, as text or as a
Graphviz CFG), `check` (type-check files, every error), `compile` (save to a ``.smod``
archive), `aot` (a shared
library and C header), `inspect` (what an archive holds), `demo` (the bundled examples against CPython).
docs/cli.md is the manual.

Output goes to stdout, diagnostics to stderr. Exit status: 0 success, 1 an error in the
user's code (compile error, syntax error, failing import, bad archive), 2 bad usage (see
`script.cli.errors`), 3 a bug in script itself (with its traceback).
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback

from script.cli.color import Painter, use_color
from script.cli.errors import EXIT_OK, EXIT_USAGE, EXIT_USER_CODE, CliError, UsageError
from script.errors import CompileError

EXIT_INTERNAL = 3

_EXAMPLES = """\
examples:
  scriptc dump kernels.py                       optimized IR of every @script function
  scriptc dump kernels.py poly --sig "f64, i64" --stage ssa
  scriptc dump kernels.py collatz --stage asm   machine code for this CPU
  scriptc dump kernels.py:saxpy --stage ptx --arch sm_90   a kernel's PTX
  scriptc dump kernels.py collatz --format dot | dot -Tsvg -o collatz.svg
  scriptc dump kernels.py --print-after licm    IR after one pass (or: all)
  scriptc check kernels.py other.py             every type error, file:line:col
  scriptc compile kernels.py -o kernels.smod --sig poly="float, int"
  scriptc aot kernels.py -o libkernels.so --header kernels.h   a C library
  scriptc inspect kernels.smod --stage opt
  scriptc inspect kernels.smod saxpy --stage ptx
  python -m script ...                          the same as scriptc ...

exit status: 0 ok, 1 error in the compiled code or the file, 2 bad usage, 3 compiler bug
"""

_SIG_HELP = ('argument types, e.g. "f64, i64", "int, (float, float)"; NAME=TYPES for one '
             "function; repeat for more signatures (see docs/cli.md)")


def _parser() -> argparse.ArgumentParser:
    from script.cli.dump import STAGES
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--color", choices=("auto", "always", "never"), default=argparse.SUPPRESS,
                        help="colour IR text and errors (auto: only on a terminal)")
    parser = argparse.ArgumentParser(
        prog="scriptc", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="script: compile typed Python functions to native code, and show every stage.",
        epilog=_EXAMPLES)
    parser.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                        help="colour IR text and errors (auto: only on a terminal)")
    parser.add_argument("--version", action="version", version=f"scriptc {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def command(name, help_, examples):
        return sub.add_parser(name, help=help_, description=help_, parents=[common],
                              formatter_class=argparse.RawDescriptionHelpFormatter,
                              epilog="examples:\n" + "".join(f"  {e}\n" for e in examples))

    p = command("dump", "print a stage of the compiler for functions of a file",
                ["scriptc dump kernels.py",
                 "scriptc dump kernels.py poly --sig 'float, int' --stage llvm",
                 "scriptc dump kernels.py collatz --stage ssa --format dot | dot -Tsvg -o cfg.svg",
                 "scriptc dump kernels.py collatz --opt 1 --print-after all",
                 "scriptc dump kernels.py:saxpy --stage ptx --arch sm_90"])
    p.add_argument("file", metavar="FILE.py", help="the Python file (FILE.py:FUNC names one "
                   "function or kernel)")
    p.add_argument("functions", nargs="*", default=[], metavar="FUNC",
                   help="functions or kernels to show (default: every @script function and "
                        "kernel in the file)")
    p.add_argument("--stage", choices=STAGES, default="opt",
                   help="what to print (default: opt; ptx: kernels only)")
    p.add_argument("--sig", "--signature", action="append", default=[], metavar="TYPES",
                   help=_SIG_HELP)
    p.add_argument("--arch", metavar="SM", default=None,
                   help="GPU architecture of kernels' PTX and LLVM IR, e.g. sm_90 (default: the "
                        "kernel's, else the GPU's, else sm_80)")
    p.add_argument("--opt", type=int, choices=(0, 1, 2, 3), default=None,
                   help="optimization level (default: each function's own, 2 unless set)")
    p.add_argument("--print-after", metavar="PASS", default=None,
                   help="also print the IR after this pass, or after every pass with 'all'")
    p.add_argument("--format", choices=("text", "dot"), default="text",
                   help="dot: a Graphviz control-flow graph of the ssa or opt IR")

    p = command("check", "type-check every @script function of files and print every error",
                ["scriptc check kernels.py", "scriptc check *.py --sig poly='float, int'"])
    p.add_argument("files", nargs="+", metavar="FILE.py")
    p.add_argument("--sig", action="append", default=[], metavar="TYPES", help=_SIG_HELP)

    p = command("compile", "compile the functions of a file and save them to a .smod archive",
                ["scriptc compile kernels.py -o kernels.smod",
                 "scriptc compile kernels.py poly -o poly.smod --sig 'float, int' --sig 'int, int'"])
    p.add_argument("file", metavar="FILE.py")
    p.add_argument("functions", nargs="*", default=[], metavar="FUNC",
                   help="functions to save (default: all)")
    p.add_argument("-o", "--output", metavar="OUT.smod", help="archive to write (default: FILE.smod)")
    p.add_argument("--sig", action="append", default=[], metavar="TYPES", help=_SIG_HELP)

    p = command("aot", "build a shared library and a C header of functions, callable from C "
                "without Python", ["scriptc aot kernels.py -o libkernels.so --header kernels.h",
                                   "scriptc aot kernels.py poly --sig 'float, int'"])
    p.add_argument("file", metavar="FILE.py")
    p.add_argument("functions", nargs="*", default=[], metavar="FUNC",
                   help="functions to export (default: all)")
    p.add_argument("-o", "--output", metavar="libNAME.so", help="library to write (default: libFILE.so)")
    p.add_argument("--header", metavar="NAME.h", help="C header to write (default: FILE.h); its "
                   "name prefixes the library's own symbols (NAME_error_message)")
    p.add_argument("--sig", action="append", default=[], metavar="TYPES", help=_SIG_HELP)

    p = command("inspect", "list the functions, signatures and target of a .smod archive",
                ["scriptc inspect kernels.smod", "scriptc inspect kernels.smod poly --stage opt",
                 "scriptc inspect kernels.smod saxpy --stage ptx"])
    p.add_argument("file", metavar="FILE.smod")
    p.add_argument("functions", nargs="*", default=[], metavar="FUNC",
                   help="functions to show with --stage")
    p.add_argument("--stage", choices=("ssa", "opt", "llvm", "asm", "ptx"), default=None,
                   help="also print this stage of the saved functions (ssa and opt: the saved "
                        "IR; ptx: the saved PTX of kernels; inspect links no code, so llvm and "
                        "asm exist only for a module loaded with script.load)")
    p.add_argument("--arch", metavar="SM", default=None,
                   help="with --stage ptx: this architecture's PTX (made from the saved IR "
                        "when it was not saved)")

    command("demo", "compile the bundled examples, compare with CPython, show IR",
            ["python -m script demo"])
    return parser


def _version() -> str:
    from script.store import __version__
    return __version__


class _Session:
    """Streams and colours for one command."""

    def __init__(self, color: str):
        self.out = sys.stdout
        self.out_painter = Painter(use_color(color, sys.stdout))
        self.err_painter = Painter(use_color(color, sys.stderr))

    def report(self, text: str) -> None:
        sys.stderr.write(self.err_painter.paint(text, "diagnostic") + "\n")
        sys.stderr.flush()


def main(argv=None) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:          # --help, --version, or argparse's usage error (2)
        return e.code if isinstance(e.code, int) else EXIT_USAGE
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    session = _Session(args.color)
    from script.cli import commands
    try:
        return getattr(commands, args.command)(args, session)
    except CliError as e:
        session.report(e.message if e.bare else f"scriptc: error: {e.message}")
        return e.status
    except CompileError as e:        # one the command did not catch itself: still the user's
        session.report(str(e))
        return EXIT_USER_CODE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:          # `scriptc dump ... | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except Exception:  # noqa: BLE001 - a bug in script: say so, with the traceback
        session.report("scriptc: internal error (a bug in script; please report it):\n"
                       + traceback.format_exc().rstrip())
        return EXIT_INTERNAL


__all__ = ["main", "UsageError"]
