"""Lists of strs packed in one str as netstrings (``"3:abc1:x0:"``): how compiled code hands
several strs to a pyhooks function, and takes several back, through one `str_py` operand
(re_text.py, files.py; the compiled side: lib/python/relib.py `pack`/`unpack`)."""

from __future__ import annotations


def unpack(s: str) -> list[str]:
    out, i = [], 0
    while i < len(s):
        j = s.index(":", i)
        k = int(s[i:j])
        out.append(s[j + 1:j + 1 + k])
        i = j + 1 + k
    return out


def pack(parts) -> str:
    return "".join(f"{len(p)}:{p}" for p in parts)
