"""A statement that always raises (`p1 % 0.0`: a ZeroDivisionError for every value) inside a
`try` whose clauses do not catch it: the frontend sent it to no handler and emitted no
`raise` either, leaving a block without a terminator (an internal VerifyError, a crash in
sccp, or LLVM's parse error at opt=0). Found by generated programs (seed 34100: 1564, 2630,
2744). Fixed in script/frontend/exceptions.py (try_raise_unbound raises out when no clause
catches the exception)."""
import math


def main(p0, p1):
    try:
        v1 = p1 % 0.0
    except IndexError:
        pass
    except IndexError:
        v1 = math.inf
    return p0


def inputs():
    return [(15.36, 1e-300), (1.0, 0.0), (-2.0, 3.5)]
