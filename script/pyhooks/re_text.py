"""CPython's `re` for compiled code (`str_py.re_call`: lib/python/relib.py).

The runtime calls `re_call` with the GIL and one str: a list of strs packed as netstrings
(``"6:search4:^a+b1:0..."``): the operation, the pattern, its flags (decimal), the string,
then the operation's own arguments. The answer is packed the same way: the parts of a split,
the matches of a findall (a tuple's groups one after another), a sub's result, or a match's
group spans as decimals and names (none: no match; for finditer, the number of parts of a
match first).
Whatever `re` raises (`re.error` for a bad pattern, ...) is raised as it is.
"""

from __future__ import annotations

import re

from script.pyhooks.netstrings import pack as _pack, unpack as _unpack


def _spans(m) -> list[str]:
    """A match as its group spans (start, end; -1, -1 for a group that did not take part),
    then each group's name ("" for group 0 and unnamed ones)."""
    names = [""] * (m.re.groups + 1)
    for name, k in m.re.groupindex.items():
        names[k] = name
    return [str(x) for span in m.regs for x in span] + names


def re_call(packed: str) -> str:
    op, pattern, flags, string, *rest = _unpack(packed)
    if op == "escape":
        return _pack([re.escape(pattern)])
    rx = re.compile(pattern, int(flags))
    if op in ("search", "match", "fullmatch"):
        m = getattr(rx, op)(string)
        return _pack([] if m is None else _spans(m))
    if op == "finditer":
        out: list[str] = []
        for m in rx.finditer(string):
            spans = _spans(m)
            if not out:
                out.append(str(len(spans)))
            out += spans
        return _pack(out)
    if op == "split":
        parts = rx.split(string, int(rest[0]))
        if any(p is None for p in parts):
            raise TypeError("re.split() gave None for a group that did not take part in the match, "
                            "which a compiled list[str] cannot hold")
        return _pack(parts)
    if op == "findall":
        if rx.groups > 1 and rest[0] == "1":
            raise TypeError("re.findall() of a pattern of several groups gives tuples: compiled code needs "
                            "the pattern as a constant to know that (it took this one for a pattern of at "
                            "most one group)")
        found = rx.findall(string)
        return _pack([g for t in found for g in t] if rx.groups > 1 else found)
    if op == "sub":
        return _pack([rx.sub(rest[0], string, int(rest[1]))])
    if op == "subn":
        text, n = rx.subn(rest[0], string, int(rest[1]))
        return _pack([text, str(n)])
    raise AssertionError(op)
