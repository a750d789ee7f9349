"""ANSI colours for IR text and diagnostics, when the output is a terminal.

`--color auto` (the default) colours a stream only if it is a TTY, `NO_COLOR` is unset and
`TERM` is not ``dumb``; `always` and `never` force it. Colouring is one regex per kind of
text, applied line by line with a single substitution, so escapes never nest. Text written
with colours off is byte for byte what the library prints (`f.ir(stage)`, `str(error)`).
"""

from __future__ import annotations

import os
import re

RESET = "\033[0m"
BOLD, DIM = "\033[1m", "\033[2m"
RED, GREEN, BLUE, MAGENTA, CYAN = (f"\033[{n}m" for n in (31, 32, 34, 35, 36))

_SCALAR = r"(?:bool|none|[iu](?:8|16|32|64)|f(?:32|64))"
_RULES = {
    # script's IR: source locations dim, functions bold, blocks blue, types cyan, messages green
    "ir": (re.compile(rf"(?P<dim>;\s*\d+:\d+\s*$)|(?P<bold>^func\b|@[\w.$]+)|(?P<blue>\bbb\d+\b)"
                      rf"|(?P<green>\"(?:[^\"\\]|\\.)*\")|(?P<cyan>(?<=[\s(:]){_SCALAR}\b)"),
           {"dim": DIM, "bold": BOLD, "blue": BLUE, "green": GREEN, "cyan": CYAN}),
    "llvm": (re.compile(r"(?P<dim>;.*$)|(?P<bold>^(?:define|declare)\b|^[\w.$-]+:|@[\w.$]+)"
                        r"|(?P<green>c?\"(?:[^\"\\]|\\.)*\")"),
             {"dim": DIM, "bold": BOLD, "green": GREEN}),
    "asm": (re.compile(r"(?P<dim>(?:#|//).*$|^\s+\.\w+.*$)|(?P<bold>^[\w.$]+:)"),
            {"dim": DIM, "bold": BOLD}),
    # dot and ast output are never coloured: other tools read them
}
_LOCATION = re.compile(r"^(\S.*?:\d+:\d+:)( .*)$")


def use_color(mode: str, stream) -> bool:
    if mode == "always":
        return True
    if mode == "never":
        return False
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class Painter:
    """Colours text of one kind ("ir", "llvm", "asm", "diagnostic"), or leaves it alone."""

    def __init__(self, enabled: bool):
        self.enabled = enabled

    def paint(self, text: str, kind: str) -> str:
        if not self.enabled:
            return text
        if kind == "diagnostic":
            return "\n".join(self._diagnostic_line(line) for line in text.split("\n"))
        rule = _RULES.get(kind)
        if rule is None:
            return text
        regex, colors = rule

        def sub(m: re.Match) -> str:
            return colors[m.lastgroup] + m.group() + RESET

        return "\n".join(regex.sub(sub, line) for line in text.split("\n"))

    @staticmethod
    def _diagnostic_line(line: str) -> str:
        if line.startswith("scriptc: error:"):
            return f"{BOLD}{RED}scriptc: error:{RESET}{line[len('scriptc: error:'):]}"
        m = _LOCATION.match(line)
        if m:
            return f"{BOLD}{m.group(1)}{RESET}{BOLD}{RED}{m.group(2)}{RESET}"
        if line.strip() == "^":
            return line.replace("^", f"{GREEN}{BOLD}^{RESET}")
        if line.startswith(("note:", "  note:")):
            return f"{CYAN}{line}{RESET}"
        return line
