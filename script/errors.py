"""The errors `script` raises, and the source locations they point at.

`CompileError` is a mistake in the user's code: it renders as ``file:line:col: message``,
then the source line, then a caret under the column. `VerifyError` is a compiler bug (a
broken IR invariant). `LoadError` is a saved module that cannot be trusted.
"""

from __future__ import annotations

from contextvars import ContextVar


class SourceLoc:
    """A position in user source: 1-based line, 0-based column (as `ast` gives them).
    Immutable; compares and hashes by value. (A plain class: `dataclasses` would import
    `inspect` and cost `import script` several milliseconds.)"""

    __slots__ = ("file", "line", "col")

    def __init__(self, file: str, line: int, col: int = 0):
        object.__setattr__(self, "file", file)
        object.__setattr__(self, "line", line)
        object.__setattr__(self, "col", col)

    def __setattr__(self, name, value):
        raise AttributeError("SourceLoc is immutable")

    def _key(self):
        return (self.file, self.line, self.col)

    def __eq__(self, other):
        return isinstance(other, SourceLoc) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return f"SourceLoc(file={self.file!r}, line={self.line}, col={self.col})"

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col + 1}"

    def source_line(self) -> str:
        import linecache
        return linecache.getline(self.file, self.line).rstrip("\n")


def render_at(loc: SourceLoc | None, message: str) -> str:
    """`file:line:col: message`, then the source line and a caret, as compilers print."""
    if loc is None:
        return message
    text = f"{loc}: {message}"
    line = loc.source_line()
    if line:
        stripped = line.lstrip()
        indent = len(line) - len(stripped)
        caret_col = max(loc.col - indent, 0)
        text += f"\n    {stripped}\n    {' ' * caret_col}^"
    return text


class ScriptError(Exception):
    """Base of every error `script` raises on purpose."""


# `CompileError.reason`: why, where a caller acts on it rather than showing the message.
MIXED_NUMBERS = "mixed numbers"      # an int met a float where compiled code keeps one type
# Set by `scriptc check`: an undefined name is reported as the CompileError it is, not
# compiled into the NameError CPython raises where it is read (frontend lower_stmt `lookup`).
STRICT_NAMES: ContextVar[bool] = ContextVar("STRICT_NAMES", default=False)


class CompileError(ScriptError):
    """The user's function is outside the compiled subset or does not type-check. `reason`
    (None, or a constant above) says why to code that acts on it: the dispatcher compiles
    again with lists of int|float arguments for MIXED_NUMBERS."""

    def __init__(self, message: str, loc: SourceLoc | None = None, notes: tuple[str, ...] = (),
                 reason: str | None = None):
        self.message = message
        self.loc = loc
        self.notes = tuple(notes)
        self.reason = reason
        text = render_at(loc, message)
        for note in self.notes:
            text += "\n" + note
        super().__init__(text)


class VerifyError(ScriptError):
    """An IR invariant is broken: always a compiler bug, never the user's."""


class LoadError(ScriptError):
    """A saved module (or IR text) is malformed, corrupt or from an incompatible version."""


class CudaError(RuntimeError):
    """The CUDA driver failed, or no GPU is usable where one was asked for (script.cuda)."""

    __module__ = "script.cuda"      # where users find it (and old pickles name it)
