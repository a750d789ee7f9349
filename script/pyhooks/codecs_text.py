"""`s.encode(...)`, `b.decode(...)`, `int(b, base)` and `float(b)` in compiled code, run by
CPython's codecs and number parsers.

Compiled code holds bytes as the text object of their code points (types.BytesType): the
`str_py.str_encode` / `bytes_decode` ops hand the runtime that text as a str (each code
point one byte: its Latin-1 decoding) and the codec's arguments as one str
``"encoding\\0errors"``; the runtime calls these functions with the GIL. What they raise
(`UnicodeDecodeError`, `LookupError` for an unknown codec, ...) is CPython's own.
"""

from __future__ import annotations


def _codec(args: str) -> tuple[str, str]:
    encoding, _, errors = args.partition("\0")
    return encoding, errors


def str_encode(s: str, args: str) -> str:
    """The bytes of ``s.encode(encoding, errors)``, as their Latin-1 text."""
    encoding, errors = _codec(args)
    return s.encode(encoding, errors).decode("latin-1")


def bytes_int(text: str, base: int) -> int:
    """``int(b, base)`` of the bytes whose Latin-1 text is `text` (its errors name the bytes)."""
    return int(text.encode("latin-1"), base)


def bytes_float(text: str) -> float:
    return float(text.encode("latin-1"))


def bytes_decode(text: str, args: str) -> str:
    """``b.decode(encoding, errors)`` of the bytes whose Latin-1 text is `text`."""
    encoding, errors = _codec(args)
    return text.encode("latin-1").decode(encoding, errors)
