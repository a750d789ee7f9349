"""Reading text files and `os.path` for compiled code, by CPython itself.

`read_text` is `open(path, encoding=..., errors=...).read()`: the whole text as CPython's
text layer gives it (the locale's encoding when none is named, universal newlines), or what
`open` and the codec raise (`FileNotFoundError: [Errno 2] No such file or directory: 'x'`,
`UnicodeDecodeError`, ...). `os_path` runs one function of `os.path` on strs packed as
netstrings (lib/python/textio.py) and packs its answer the same way. The runtime calls both
with the GIL (`str_py.read_text`, `str_py.os_path`).
"""

from __future__ import annotations

import os.path

from script.pyhooks.netstrings import pack, unpack

# The functions of os.path compiled code calls: name -> kind of answer ("str", "bool", "pair").
PATH_FUNCTIONS = {
    "join": "str", "dirname": "str", "basename": "str", "abspath": "str", "realpath": "str",
    "normpath": "str", "expanduser": "str", "exists": "bool", "isfile": "bool", "isdir": "bool",
    "isabs": "bool", "split": "pair", "splitext": "pair",
}


def _option(text: str) -> str | None:
    """"" is None; "=x" is the str "x" (any str may be an encoding's name, even "")."""
    return text[1:] if text else None


def read_text(path: str, options: str) -> str:
    encoding, _, errors = options.partition("\0")
    with open(path, encoding=_option(encoding), errors=_option(errors)) as f:
        return f.read()


def os_path(packed: str) -> str:
    """`packed`: the function's name, then its arguments; the answer: a str, "1"/"" for a
    bool, or the two strs of a pair, packed."""
    name, *args = unpack(packed)
    if name not in PATH_FUNCTIONS:
        raise ValueError(f"os.path.{name} is not callable from compiled code")
    result = getattr(os.path, name)(*args)
    parts = list(result) if isinstance(result, tuple) else ["1" if result is True else "" if result is False else result]
    return pack(parts)
