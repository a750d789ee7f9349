"""The command line: `scriptc` and `python -m script`.

Subcommands: `demo` (compile the bundled examples against CPython and show their IR).
"""

from __future__ import annotations

import argparse
import sys


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="scriptc", description="script: compile typed Python functions to native code.",
        epilog="example: python -m script demo")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.add_parser("demo", help="compile the bundled examples, compare with CPython, show IR")
    args = parser.parse_args(argv)
    if args.command == "demo":
        from script.demo import main as demo
        return demo()
    parser.print_help(sys.stderr)
    return 2
