"""Text files read in compiled code, and `os.path`: written in the compiled subset.

`open(path)` (file_calls.py lowers it) reads the whole file at once through CPython
(`str_py.read_text`: script.pyhooks.files), so its text, encoding and errors are CPython's,
and makes a `TextFile` record over that text. `read`, `readline`, `readlines`, `close` and
the `closed`, `name` and `mode` attributes answer as CPython's text file does (a read after
`close()`: its ValueError). Iterating over a file (`for line in f`) takes every line left at
once; a read of the file after that raises a RuntimeError saying so, since CPython's file
would go on from where the loop stopped, which compiled code does not know.
"""

from __future__ import annotations

from script.lib.python.relib import pack, unpack
from script.lib.python.strlib import _py

_AFTER_ITERATION = ("reading a file after iterating over it is not supported in compiled code: the "
                    "loop took every line left at once (read the lines into a list first)")


class TextFile:
    def __init__(self, text: str, name: str, mode: str):
        self.text = text
        self.at = 0
        self.name = name
        self.mode = mode
        self.closed = False
        self.iterated = False

    def _check(self) -> None:
        if self.closed:
            raise ValueError("I/O operation on closed file.")
        if self.iterated:
            raise RuntimeError(_AFTER_ITERATION)

    def read(self, size: int = -1) -> str:
        self._check()
        start = self.at
        end = len(self.text) if size < 0 else min(len(self.text), start + size)
        self.at = end
        return self.text[start:end]

    def readline(self, size: int = -1) -> str:
        self._check()
        start = self.at
        k = self.text.find("\n", start)
        end = len(self.text) if k < 0 else k + 1
        if 0 <= size < end - start:
            end = start + size
        self.at = end
        return self.text[start:end]

    def readlines(self, hint: int = -1) -> list[str]:
        self._check()
        lines = []
        total = 0
        while self.at < len(self.text):
            line = self.readline()
            lines.append(line)
            total += len(line)
            if 0 < hint <= total:
                break
        return lines

    def _lines_for_loop(self) -> list[str]:
        lines = self.readlines()
        self.iterated = True
        return lines

    def __iter__(self):
        return iter(self._lines_for_loop())

    def close(self) -> None:
        self.closed = True

    def readable(self) -> bool:
        self._check()
        return True

    def writable(self) -> bool:
        self._check()
        return False


RECORDS = (TextFile,)       # classes compiled code makes records of (builtins_lowering)


def open_text(path: str, options: str, mode: str) -> TextFile:
    """`open(path, mode, encoding=..., errors=...)` (`options`: files.read_text's)."""
    return TextFile(_py("read_text", path, options), path, mode)


def path_str(name: str, args: list[str]) -> str:
    """`os.path.<name>(*args)` of a function answering a str."""
    return unpack(_py("os_path", pack([name] + args)))[0]


def path_bool(name: str, args: list[str]) -> bool:
    return unpack(_py("os_path", pack([name] + args)))[0] == "1"


def path_pair(name: str, args: list[str]) -> tuple[str, str]:
    parts = unpack(_py("os_path", pack([name] + args)))
    return parts[0], parts[1]
