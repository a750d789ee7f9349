"""Python's `random` module in compiled code, written in the compiled subset itself.

Each function draws from the compiled `random` generator (mt19937: one state per process,
separate from the interpreter's) exactly as CPython 3.11's `random.Random` draws from its
own: `seed` is init_by_array on the int's 32-bit words, `random` genrand_res53, integers
`_randbelow` by getrandbits rejection, `gauss` keeps `gauss_next`. Ints are int64:
``getrandbits(64)`` wraps to a negative int where CPython gives one above 2**63, and a
range wider than int64 wraps as int arithmetic does. random_calls.py maps the user's calls
here, by name.
"""

from __future__ import annotations

import bisect
import functools
import math
import re
from random import NV_MAGICCONST, TWOPI, Random

from script.frontend.mt19937 import (GAUSS, HAS_GAUSS, INSTANCE_STATE, RANDOM_STATE, init_by_array, next32,
                                     next_double, next_pair, rebound)
from script.frontend.pymessages import printf_escape
from script.ir import types as T
from script.ir.core import Const


class CPythonCheck:
    """``NAME(cond, *ints)`` in library code: raise what `thunk` makes CPython raise, when
    `cond` holds. The message is CPython's own, read when first needed (it changes between
    versions); each number in it that equals ``samples[k]`` becomes the k-th int."""

    def __init__(self, thunk, samples=()):
        self.thunk = thunk
        self.samples = samples

    @functools.cached_property
    def message(self) -> tuple[str, str, list[int]]:
        """(exception name, printf format, which int each ``%lld`` takes)."""
        try:
            self.thunk()
        except Exception as e:              # noqa: BLE001 - whatever CPython raises
            exc, text = type(e).__name__, str(e)
        else:
            raise AssertionError("expected an exception")
        order = []

        def number(m):
            if int(m.group()) not in self.samples:
                return m.group()
            order.append(self.samples.index(int(m.group())))
            return "%lld"
        return exc, re.sub(r"-?\d+", number, printf_escape(text)), order

    def __script_call__(self, low, node):
        exc, fmt, order = self.message
        cond, *ints = [low.expr(a) for a in node.args]
        args = [low.coerce(ints[k], T.I64, node) for k in order]
        low.raise_if(cond, exc, fmt if args else fmt.replace("%%", "%"), node, args)
        return Const(None, T.NONE)


class InterpreterCall:
    """``NAME(...)`` in library code: what the interpreter's `random` computes for one of
    STR_PY's ``random_*`` functions (random.seed resets its Gaussian, which only the
    interpreter holds; gauss reads and writes it)."""

    def __init__(self, name: str):
        self.name = name

    def __script_call__(self, low, node):
        args = [low.coerce(low.expr(a), T.I64, node) for a in node.args]
        result = T.F64 if self.name == "random_gauss" else T.BOOL
        return low.emit("str_py", args, result, self.name, low.loc(node))


INTERPRETER_SEED = InterpreterCall("random_seed")
INTERPRETER_GAUSS = InterpreterCall("random_gauss")
SHARED = True           # whether RANDOM_STATE is the interpreter's (not in `INSTANCE`'s copies)

_BITS_NEGATIVE = CPythonCheck(lambda: Random(0).getrandbits(-1))
_EMPTY_STOP = CPythonCheck(lambda: Random(0).randrange(-1234567), (-1234567,))
_EMPTY_RANGE = CPythonCheck(lambda: Random(0).randrange(7654321, -1234567), (7654321, -1234567, -8888888))
_ZERO_STEP = CPythonCheck(lambda: Random(0).randrange(1, 2, 0))
_EMPTY_STEPPED = CPythonCheck(lambda: Random(0).randrange(7654321, -1234567, 3), (7654321, -1234567, 3))
_NO_STOP = CPythonCheck(lambda: Random(0).randrange(5, step=2))
_EMPTY_SEQUENCE = CPythonCheck(lambda: Random(0).choice([]))
_SAMPLE_SIZE = CPythonCheck(lambda: Random(0).sample([1], 2))
_BOTH_WEIGHTS = CPythonCheck(lambda: Random(0).choices([1], [1], cum_weights=[1]))
_WEIGHT_COUNT = CPythonCheck(lambda: Random(0).choices([1], [1, 2]))
_WEIGHT_TOTAL = CPythonCheck(lambda: Random(0).choices([1], [0]))
_WEIGHT_FINITE = CPythonCheck(lambda: Random(0).choices([1], [math.inf]))


def seed(a: int) -> None:
    if SHARED:
        INTERPRETER_SEED(a)
        return
    n = -a if a < 0 else a              # abs(); -2**63 stays negative, its words are right
    hi = (n >> 32) & 0xffffffff
    init_by_array(RANDOM_STATE(), n & 0xffffffff, hi, 2 if hi != 0 else 1)


def random() -> float:
    return next_double(RANDOM_STATE())


def getrandbits(k: int) -> int:
    _BITS_NEGATIVE(k < 0)
    if k > 64:
        raise OverflowError("getrandbits() of more than 64 bits does not fit in int64")
    return _getrandbits(RANDOM_STATE(), k)


def _getrandbits(mt, k: int) -> int:
    """CPython's getrandbits for 0 <= k <= 64: whole words, the last one shifted down."""
    if k == 0:
        return 0
    if k <= 32:
        return int(next32(mt)) >> (32 - k)
    low, high = next_pair(mt)
    return int(low) | (int(high >> (64 - k)) << 32)


def _randbelow(mt, n: int) -> int:
    """A random int in [0, n) for n > 0: getrandbits(n.bit_length()) until below n."""
    k = n.bit_length()
    r = _getrandbits(mt, k)
    while r >= n:
        r = _getrandbits(mt, k)
    return r


def randrange(start: int, stop=None, step: int = 1) -> int:
    mt = RANDOM_STATE()
    if stop is None:
        _NO_STOP(step != 1)
        _EMPTY_STOP(start <= 0, start)
        return _randbelow(mt, start)
    width = stop - start
    if step == 1:
        _EMPTY_RANGE(width <= 0, start, stop, width)
        return start + _randbelow(mt, width)
    _ZERO_STEP(step == 0)
    n = (width + step - 1) // step if step > 0 else (width + step + 1) // step
    _EMPTY_STEPPED(n <= 0, start, stop, step)
    return start + step * _randbelow(mt, n)


def randint(a: int, b: int) -> int:
    return randrange(a, b + 1)


def uniform(a: float, b: float) -> float:
    return a + (b - a) * next_double(RANDOM_STATE())


def gauss(mu: float = 0.0, sigma: float = 1.0) -> float:
    if SHARED:
        return mu + INTERPRETER_GAUSS() * sigma
    mt = RANDOM_STATE()
    cached = mt[GAUSS]
    if mt[HAS_GAUSS][0] != 0:
        mt[HAS_GAUSS][0] = 0
        return mu + cached[0] * sigma
    x2pi = next_double(mt) * TWOPI
    g2rad = math.sqrt(-2.0 * math.log(1.0 - next_double(mt)))
    cached[0] = math.sin(x2pi) * g2rad
    mt[HAS_GAUSS][0] = 1
    return mu + math.cos(x2pi) * g2rad * sigma


def normalvariate(mu: float = 0.0, sigma: float = 1.0) -> float:
    mt = RANDOM_STATE()
    while True:
        u1 = next_double(mt)
        u2 = 1.0 - next_double(mt)
        z = NV_MAGICCONST * (u1 - 0.5) / u2
        if z * z / 4.0 <= -math.log(u2):
            return mu + z * sigma


def expovariate(lambd: float) -> float:
    return -math.log(1.0 - next_double(RANDOM_STATE())) / lambd


def choice(seq):
    n = len(seq)
    _EMPTY_SEQUENCE(n == 0)
    return seq[_randbelow(RANDOM_STATE(), n)]


def shuffle(x) -> None:
    mt = RANDOM_STATE()
    for i in range(len(x) - 1, 0, -1):
        j = _randbelow(mt, i + 1)
        x[i], x[j] = x[j], x[i]


def sample(population, k: int):
    """CPython 3.11's Random.sample without counts: a pool for a small population, else
    a set of the indices taken (random_calls.py checks that the population is a sequence)."""
    mt = RANDOM_STATE()
    n = len(population)
    _SAMPLE_SIZE(not 0 <= k <= n)
    setsize = 21
    if k > 5:
        setsize += 4 ** math.ceil(math.log(k * 3, 4))
    result = []
    if n <= setsize:
        pool = list(population)
        for i in range(k):
            j = _randbelow(mt, n - i)
            result.append(pool[j])
            pool[j] = pool[n - i - 1]
    else:
        selected = set()
        for i in range(k):
            j = _randbelow(mt, n)
            while j in selected:
                j = _randbelow(mt, n)
            selected.add(j)
            result.append(population[j])
    return result


def choices(population, weights=None, *, cum_weights=None, k: int = 1):
    """CPython 3.11's Random.choices: `floor(random() * n)` without weights, else a bisect
    of the cumulative weights."""
    mt = RANDOM_STATE()
    if cum_weights is None:
        if weights is None:
            n = len(population) + 0.0
            return [population[math.floor(next_double(mt) * n)] for i in range(k)]
        cum = list(weights)
        for i in range(1, len(cum)):
            cum[i] = cum[i - 1] + cum[i]
        return _weighted(mt, population, cum, k)
    _BOTH_WEIGHTS(weights is not None)
    return _weighted(mt, population, list(cum_weights), k)


def _weighted(mt, population, cum, k: int):
    n = len(population)
    _WEIGHT_COUNT(len(cum) != n)
    total = cum[-1] + 0.0
    _WEIGHT_TOTAL(total <= 0.0)
    _WEIGHT_FINITE(not math.isfinite(total))
    hi = n - 1
    return [population[bisect.bisect(cum, next_double(mt) * total, 0, hi)] for i in range(k)]


# What `random.Random(seed)` in compiled code draws with: the functions above over a state
# of compiled code's own, one per process (random_calls.py).
INSTANCE = rebound(globals(), RANDOM_STATE=INSTANCE_STATE, SHARED=False)
