"""CPython's own messages for the errors compiled code raises, read from this interpreter.

Messages change between Python versions ("integer division or modulo by zero" became
"integer modulo by zero"), so they are taken from the running CPython the first time they are
needed rather than written down.
"""

from __future__ import annotations

import functools


def _message_of(thunk) -> str:
    return str(_raised_by(thunk))


def _raised_by(thunk) -> Exception:
    try:
        thunk()
    except Exception as e:     # noqa: BLE001 - we want whatever CPython raises
        return e
    raise AssertionError("expected an exception")


@functools.lru_cache(maxsize=None)
def message(kind: str) -> str:
    return _message_of(_THUNKS[kind])


@functools.lru_cache(maxsize=None)
def args_text(kind: str) -> str:
    """The message of error `kind` as a check carries it: its text, or, when its arguments
    are not one str (``10.0 ** 400.0``: ``OverflowError(34, 'Numerical result out of range')``),
    the mark and repr that keep them (frontend.messages `args_message`)."""
    e = _raised_by(_THUNKS[kind])
    if len(e.args) == 1 and isinstance(e.args[0], str):
        return str(e)
    return "\x01*" + repr(e.args)


def _thunks() -> dict:
    zero, fzero, one = 0, 0.0, 1
    thunks = {
        "int_truediv": lambda: one / zero,
        "float_truediv": lambda: 1.0 / fzero,
        "int_floordiv": lambda: one // zero,
        "int_mod": lambda: one % zero,
        "float_floordiv": lambda: 1.0 // fzero,
        "float_mod": lambda: 1.0 % fzero,
        "int_divmod": lambda: divmod(one, zero),
        "float_divmod": lambda: divmod(1.0, fzero),
        "zero_neg_pow": lambda: fzero ** -1.0,
        "float_pow_overflow": lambda: 10.0 ** 400.0,
        "negative_shift": lambda: one << -one,
        "nan_to_int": lambda: int(float("nan")),
        "inf_to_int": lambda: int(float("inf")),
        "range_zero_step": lambda: range(0, 1, 0),
        "math_domain": lambda: __import__("math").sqrt(-1.0),
        "math_range": lambda: __import__("math").exp(1000.0),
        "min_empty": lambda: min(()),
        "max_empty": lambda: max(()),
    }
    return thunks


_THUNKS = _thunks()


@functools.lru_cache(maxsize=None)
def unbound_local(name: str) -> str:
    def f():
        if False:
            x = 0  # noqa: F841
        return x  # noqa: F821
    return _message_of(f).replace("'x'", f"'{name}'")


@functools.lru_cache(maxsize=None)
def unbound_free(name: str) -> str:
    """CPython's NameError for a closure's read of an enclosing variable not assigned yet."""
    def f():
        def g():
            return x  # noqa: F821
        if False:
            x = 0  # noqa: F841
        return g()
    return _message_of(f).replace("'x'", f"'{name}'")


def printf_escape(text: str) -> str:
    """`text` as a printf format with no conversions."""
    return text.replace("%", "%%")
