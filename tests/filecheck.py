"""A small FileCheck, after LLVM's, for checking printed IR.

Directives are comment lines ``// CHECK...: pattern`` (anywhere in the check file):

- ``CHECK:``       the pattern matches somewhere after the previous match;
- ``CHECK-NEXT:``  it matches on the line right after the previous match's line;
- ``CHECK-NOT:``   it does not match between the previous match and the next one (or the
                   end of the current label's section);
- ``CHECK-LABEL:`` like CHECK, and it splits the output: the checks after a label look only
                   between that label's match and the next label's.

A pattern is literal text, except ``{{regex}}``. Leading and trailing whitespace of a
pattern is ignored and a run of spaces in it matches any run of spaces or tabs, so the
printer's column padding never matters. A pattern matches within one line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_DIRECTIVE = re.compile(r"^\s*//\s*CHECK(?P<kind>-NEXT|-NOT|-LABEL)?:(?P<pattern>.*)$")


class CheckFailure(AssertionError):
    pass


@dataclass(frozen=True)
class Check:
    kind: str          # "CHECK", "CHECK-NEXT", "CHECK-NOT" or "CHECK-LABEL"
    pattern: str
    lineno: int        # in the check file, 1-based
    regex: re.Pattern


def compile_pattern(pattern: str) -> re.Pattern:
    parts = re.split(r"\{\{(.*?)\}\}", pattern.strip())
    out = []
    for k, part in enumerate(parts):
        if k % 2:
            out.append(f"(?:{part})")
        else:
            out.append(r"[ \t]+".join(re.escape(w) for w in re.split(r"[ \t]+", part)))
    return re.compile("".join(out))


def parse_checks(text: str) -> list[Check]:
    checks = []
    for n, line in enumerate(text.splitlines(), 1):
        m = _DIRECTIVE.match(line)
        if m is None and re.match(r"^\s*//\s*CHECK[-\w]*:", line):
            raise ValueError(f"line {n}: unknown directive {line.strip()!r}")
        if m:
            kind = "CHECK" + (m.group("kind") or "")
            pattern = m.group("pattern")
            if not pattern.strip():
                raise ValueError(f"line {n}: empty {kind} pattern")
            checks.append(Check(kind, pattern.strip(), n, compile_pattern(pattern)))
    return checks


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset)


def _show(text: str, at: int, check: Check, what: str) -> str:
    lines = text.split("\n")
    mark = _line_of(text, at)
    body = "\n".join(f"{'>>' if k == mark else '  '} {k + 1:3} | {line}"
                     for k, line in enumerate(lines))
    return (f"{check.kind} on check line {check.lineno}: {what}\n"
            f"  pattern: {check.pattern}\n  output (>> where the search started):\n{body}")


def filecheck(output: str, checks: list[Check]) -> None:
    """Raise `CheckFailure`, explaining which check failed where, unless `output` passes."""
    if not checks:
        raise ValueError("no CHECK lines")
    # Sections: each label matched in order from the previous label's match.
    bounds = []
    pos = 0
    for c in checks:
        if c.kind == "CHECK-LABEL":
            m = c.regex.search(output, pos)
            if m is None:
                raise CheckFailure(_show(output, pos, c, "label not found"))
            bounds.append(m.start())
            pos = m.end()
    ends = {id(c): len(output) for c in checks}
    label_index = -1
    for c in checks:
        if c.kind == "CHECK-LABEL":
            label_index += 1
        end = bounds[label_index + 1] if label_index + 1 < len(bounds) else len(output)
        ends[id(c)] = end

    pos, prev_end, nots = 0, None, []
    for c in checks:
        end = ends[id(c)]
        if c.kind == "CHECK-NOT":
            nots.append(c)
            continue
        m = c.regex.search(output, pos, end if c.kind != "CHECK-LABEL" else len(output))
        if m is None:
            raise CheckFailure(_show(output, pos, c, "no match"))
        if c.kind == "CHECK-NEXT":
            if prev_end is None:
                raise ValueError(f"check line {c.lineno}: CHECK-NEXT without a previous match")
            if _line_of(output, m.start()) != _line_of(output, prev_end) + 1:
                raise CheckFailure(_show(output, pos, c, "not on the next line"))
        _check_nots(output, nots, pos, m.start())
        nots = []
        pos, prev_end = m.end(), m.end()
    if nots:
        _check_nots(output, nots, pos, ends[id(nots[0])])


def _check_nots(output: str, nots: list[Check], start: int, end: int) -> None:
    for c in nots:
        m = c.regex.search(output, start, end)
        if m is not None:
            raise CheckFailure(_show(output, m.start(), c, "matched where it must not"))
