"""Functions that raise CPython's runtime errors, run by CPython and compiled on inputs that
raise (test_error_parity.py): the class and the text of each exception must agree."""

import math

import numpy as np


# ---- arithmetic ---------------------------------------------------------------------------

def int_floordiv(a: int, b: int) -> int:
    return a // b


def int_mod(a: int, b: int) -> int:
    return a % b


def int_truediv(a: int, b: int) -> float:
    return a / b


def float_div(x: float, y: float) -> float:
    return x / y


def float_floordiv(x: float, y: float) -> float:
    return x // y


def float_mod(x: float, y: float) -> float:
    return x % y


def int_divmod(a: int, b: int) -> int:
    q, r = divmod(a, b)
    return q * 10 + r


def float_divmod(x: float, y: float) -> float:
    q, r = divmod(x, y)
    return q + r


def int_pow_negative(a: int, b: int) -> float:
    return a ** b


def float_pow(x: float, y: float) -> float:
    return x ** y


def zero_pow_negative(x: float) -> float:
    return 0.0 ** x


# ---- math ---------------------------------------------------------------------------------

def sqrt_of(x: float) -> float:
    return math.sqrt(x)


def log_of(x: float) -> float:
    return math.log(x)


def log10_of(x: float) -> float:
    return math.log10(x)


def log2_of(x: float) -> float:
    return math.log2(x)


def acos_of(x: float) -> float:
    return math.acos(x)


def asin_of(x: float) -> float:
    return math.asin(x)


def exp_of(x: float) -> float:
    return math.exp(x)


def cosh_of(x: float) -> float:
    return math.cosh(x)


def pow_of(x: float, y: float) -> float:
    return math.pow(x, y)


def fmod_of(x: float, y: float) -> float:
    return math.fmod(x, y)


def factorial_of(n: int) -> int:
    return math.factorial(n)


def isqrt_of(n: int) -> int:
    return math.isqrt(n)


def int_of_float(x: float) -> int:
    return int(x)


def floor_of(x: float) -> int:
    return math.floor(x)


def ceil_of(x: float) -> int:
    return math.ceil(x)


def round_of(x: float) -> int:
    return round(x)


# ---- conversions of strs ------------------------------------------------------------------

def int_of_str(s: str) -> int:
    return int(s)


def float_of_str(s: str) -> float:
    return float(s)


def int_of_str_base(s: str, base: int) -> int:
    return int(s, base)


def chr_of(n: int) -> str:
    return chr(n)


def ord_of(s: str) -> int:
    return ord(s)


# ---- lists --------------------------------------------------------------------------------

def list_index(n: int, i: int) -> int:
    xs = [k * 2 for k in range(n)]
    return xs[i]


def list_store(n: int, i: int) -> int:
    xs = [0] * n
    xs[i] = 5
    return sum(xs)


def list_pop(n: int) -> int:
    xs = [k for k in range(n)]
    return xs.pop()


def list_pop_at(n: int, i: int) -> int:
    xs = [k for k in range(n)]
    return xs.pop(i)


def list_find(n: int, v: int) -> int:
    xs = [k * 3 for k in range(n)]
    return xs.index(v)


def list_remove(n: int, v: int) -> int:
    xs = [k * 3 for k in range(n)]
    xs.remove(v)
    return len(xs)


def list_del(n: int, i: int) -> int:
    xs = [k for k in range(n)]
    del xs[i]
    return len(xs)


def min_of_list(n: int) -> int:
    xs = [k for k in range(n)]
    return min(xs)


def max_of_list(n: int) -> float:
    xs = [k * 0.5 for k in range(n)]
    return max(xs)


def str_index(s: str, i: int) -> str:
    return s[i]


def str_find(s: str, t: str) -> int:
    return s.index(t)


def tuple_index(a: int, i: int) -> int:
    t = (a, a + 1, a + 2)
    return t[i]


def tuple_constant_index(a: int, which: int):
    """A constant index out of range raises when the line runs, as in CPython (a guard before
    it: linked_list/from_sequence.py's `if not elements: raise ...` then `elements[0]`)."""
    t = (a, a * 2.5)
    if which == 0:
        return t[1]
    if which == 1:
        return t[-3]
    try:
        return t[7]
    except IndexError as e:
        return str(e)


def first_of(xs):
    if not xs:
        raise ValueError("The Elements List is empty")
    return xs[0]


def unpack_list(n: int) -> int:
    xs = [k for k in range(n)]
    a, b = xs
    return a + b


def range_step(n: int, step: int) -> int:
    s = 0
    for i in range(0, n, step):
        s += i
    return s


# ---- dicts --------------------------------------------------------------------------------

def dict_int_key(n: int, k: int) -> int:
    d = {i: i * i for i in range(n)}
    return d[k]


def dict_str_key(s: str) -> int:
    d = {"a": 1, "b": 2}
    return d[s]


def dict_float_key(x: float) -> int:
    d = {0.5: 1, 1.5: 2}
    return d[x]


def dict_tuple_key(a: int, b: int) -> int:
    d = {(0, 0): 1, (1, 2): 2}
    return d[(a, b)]


def dict_del(n: int, k: int) -> int:
    d = {i: i for i in range(n)}
    del d[k]
    return len(d)


def dict_pop(n: int, k: int) -> int:
    d = {i: i for i in range(n)}
    return d.pop(k)


def dict_popitem(n: int) -> int:
    d = {i: i for i in range(n)}
    k, v = d.popitem()
    return k + v


def set_remove(n: int, k: int) -> int:
    s = {i for i in range(n)}
    s.remove(k)
    return len(s)


def set_pop(n: int) -> int:
    s = {i for i in range(n)}
    return s.pop()


# ---- arrays -------------------------------------------------------------------------------

def array_index(a, i: int) -> float:
    return a[i]


def array_store(a, i: int) -> float:
    a[i] = 1.0
    return a[0]


def array_index_2d(a, i: int, j: int) -> float:
    return a[i, j]


def array_min(a) -> float:
    return a.min()


def array_argmax(a) -> int:
    return int(np.argmax(a))


# ---- raise of user values -----------------------------------------------------------------

def raise_int(a: int) -> int:
    if a > 0:
        raise KeyError(a)
    raise ValueError(a)


def raise_float(x: float) -> int:
    raise ValueError(x)


def raise_bool(a: int) -> int:
    raise IndexError(a > 0)


def raise_tuple(a: int, x: float) -> int:
    raise KeyError((a, x))


def raise_two(a: int) -> int:
    raise ValueError("bad value", a)


def raise_str_key(s: str) -> int:
    raise KeyError(s)


def raise_const(a: int) -> int:
    if a > 0:
        raise KeyError(7)
    if a < 0:
        raise ValueError(2.5)
    raise IndexError()


def raise_class(a: int) -> int:
    if a > 0:
        raise ZeroDivisionError
    raise OverflowError


def assert_fails(a: int) -> int:
    assert a > 0
    return a


def assert_message(a: int) -> int:
    assert a > 0, a
    return a


# ---- handling forms -----------------------------------------------------------------------

def parse(s: str) -> int:
    return int(s)


def parse_twice(s: str, t: str) -> int:
    return parse(s) * 100 + parse(t)


def catch_parse(s: str) -> int:
    """ValueError from CPython's int() (a str_py) caught; KeyError must not catch it."""
    try:
        x = int(s)
    except KeyError:
        x = -2
    except ValueError:
        x = -1
    return x


def catch_parse_text(s: str) -> str:
    try:
        return str(float(s))
    except ValueError as e:
        return "bad: " + str(e) + " " + repr(e)


def parse_not_caught(s: str) -> int:
    try:
        x = int(s)
    except (KeyError, IndexError):
        x = -1
    return x


def parse_through_calls(s: str, t: str) -> int:
    """An error of int() two compiled calls down, caught here."""
    try:
        return parse_twice(s, t)
    except LookupError:
        return -1
    except ValueError as e:
        return -len(str(e))


def parse_reraise(s: str) -> int:
    try:
        return int(s)
    except ValueError:
        raise


def parse_raise_from(s: str) -> int:
    try:
        return int(s)
    except ValueError as e:
        raise KeyError(s) from e


def raise_from_none(a: int) -> int:
    try:
        return 10 // a
    except ZeroDivisionError:
        raise ValueError("no zero", a) from None


def trace(a: int, b: int) -> list[int]:
    """try / except / else / finally: the order of what runs."""
    out = [0]
    try:
        out.append(1)
        q = a // b
        out.append(2)
    except ZeroDivisionError:
        out.append(3)
        q = -1
    else:
        out.append(4)
    finally:
        out.append(5)
    out.append(q)
    return out


def finally_around_return(s: str) -> list[int]:
    out = [0]
    for k in range(3):
        try:
            out.append(int(s) + k)
        except ValueError:
            out.append(-k)
            continue
        finally:
            out.append(100 + k)
        if k == 1:
            break
    return out


def loop_break_continue(xs: list[int], d: int) -> int:
    """Nested try in loops, with break and continue inside try bodies (no finally)."""
    total = 0
    for x in xs:
        try:
            if x < 0:
                continue
            try:
                total += x // d
            except ZeroDivisionError:
                total += 1000
                if x > 5:
                    break
            if x == 3:
                break
        except Exception:
            total -= 1
    return total


def hierarchy(n: int, k: int, s: str) -> int:
    r = 0
    xs = [1, 2, 3]
    d = {1: 10}
    try:
        r += xs[n]
    except LookupError:
        r += 1
    try:
        r += d[k]
    except LookupError:
        r += 10
    try:
        r += 10 // (n - 1)
    except ArithmeticError:
        r += 100
    try:
        r += int(s)
    except Exception:
        r += 1000
    return r


def exception_catches_all(n: int, x: float, s: str) -> str:
    try:
        if n == 0:
            return str([1, 2][n + 5])
        if n == 1:
            return str(math.sqrt(x))
        if n == 2:
            return str(int(s))
        if n == 3:
            raise KeyError(n)
        if n == 4:
            assert x > 0, "positive"
        return str({1: 2}[n])
    except Exception as e:
        return repr(e)


def reraise_inner(a: int) -> int:
    try:
        try:
            return 10 // a
        except ZeroDivisionError:
            raise
    except ArithmeticError as e:
        return len(str(e))


def tuple_as(n: int, s: str) -> str:
    try:
        if n > 0:
            return str([0][n])
        return str(int(s))
    except (IndexError, ValueError) as e:
        return f"{e!r}"


def raise_text(s: str) -> int:
    raise ValueError(s + "!")


def drop_text(s: str, n: int) -> int:
    """Exceptions with a str message, caught from a call and dropped, n times."""
    c = 0
    for _ in range(n):
        try:
            c += raise_text(s)
        except ValueError:
            c += 1
    return c


def keep_text(s: str) -> str:
    try:
        return str(raise_text(s))
    except ValueError as e:
        try:
            return str(int(s))
        except ValueError:
            return str(e)[-3:]


# ---- more library errors ------------------------------------------------------------------

def deque_popleft(n: int) -> int:
    from collections import deque
    d = deque([1])
    for _ in range(n):
        d.popleft()
    return len(d)


def shift(a: int, b: int) -> int:
    return (a << b) + (a >> b)


def reshape(n: int) -> float:
    a = np.arange(6.0)
    return a.reshape((n, 4))[0, 0]


def empty_of(n: int) -> float:
    return np.empty(n).sum()


def log_base(x: float, b: float) -> float:
    return math.log(x, b)


def split_by(s: str, t: str) -> int:
    return len(s.split(t))


def pow_mod(a: int, b: int, m: int) -> int:
    return pow(a, b, m)


def dot_of(n: int) -> float:
    return float(np.dot(np.ones(3), np.ones(n)))


def nested_index(i: int, j: int) -> int:
    xs = [[1, 2], [3]]
    return xs[i][j]


def gamma_of(x: float) -> float:
    return math.gamma(x)


# ---- CPython's errors with finally, loops and nesting ------------------------------------

def return_in_finally(s: str) -> int:
    """The return in the finally drops the ValueError of int(s), as in CPython."""
    try:
        return int(s)
    finally:
        return -5


def parse_else(s: str, t: str) -> int:
    try:
        x = int(s)
    except ValueError:
        x = int(t)
    else:
        x += int(t)
    return x


def finally_in_loop(s: str) -> str:
    out = ""
    for k in range(3):
        try:
            try:
                v = int(s[k:])
            finally:
                out += str(k)
        except ValueError:
            out += "E"
            continue
        out += "v" + str(v)
    return out


def while_continue_finally(s: str) -> int:
    n = 0
    while True:
        n += 1
        try:
            if n > 3:
                break
            int(s)
        except ValueError:
            continue
        finally:
            n += 10
    return n


def handler_raises(a: int, s: str) -> str:
    try:
        try:
            return str(10 // a)
        except ZeroDivisionError:
            return str(int(s))
    except ValueError as e:
        return "outer " + repr(e)


def bad_spec(spec: str) -> str:
    try:
        return format(3.5, spec)
    except ValueError as e:
        return "bad " + str(e)


def catch_in_loop(s: str, n: int) -> int:
    c = 0
    for _ in range(n):
        try:
            c += int(s)
        except ValueError:
            c -= 1
    return c


def to_float(s: str) -> float:
    return float(s)


def print_after_call(s: str) -> float:
    """Nothing after the call runs when it raised (at opt=0 too, where it stays a call)."""
    x = to_float(s)
    print("after", x)
    return x * 2.0


def raise_complex(x: float, y: float) -> int:
    if x > 5.0:
        raise ValueError(complex(x, y))
    if x > 0.0:
        raise KeyError("z", complex(x, y), 3)
    if x < -5.0:
        raise ValueError(2j, -1j)
    raise KeyError(complex(y, x), (1, 2))


class ParseError(ValueError):
    """A user exception class (docs/exceptions.md): its arguments keep their types too."""


def raise_user(a: int, s: str) -> str:
    try:
        if a > 0:
            raise ParseError(a)
        if a < 0:
            raise ParseError("bad", a, 0.5)
        return str(int(s))
    except ParseError as e:
        if a > 5:
            raise
        return repr(e)
    except ValueError as e:
        raise ParseError(str(e)) from e


def list_by_other_index(n, how: int):
    """A list indexed by a float, str or None raises CPython's TypeError when the line runs."""
    xs = [10, 20, 30]
    try:
        return xs[n] if how else xs[n] + 1
    except TypeError as e:
        return str(e)


def sieve_of(n):
    """maths/segmented_sieve.py's shape: `sieve(22.2)` is refused by the function's own test
    before a float reaches a list index."""
    if n <= 0 or isinstance(n, float):
        raise ValueError(f"Number {n} must instead be a positive integer")
    temp = [True] * 10
    high = min(5, n)
    return temp[high - 1]


def segments_of(n):
    """A segmented sieve's shape: `high` is an int or a float (`min(2 * end, n)`), so the
    inner `for` is built once per type; the float copy raises at `range()` and the int copy
    must still be built (a swallowed error left it empty)."""
    if n <= 0:
        raise ValueError(f"Number {n} must instead be a positive integer")
    end = int(math.sqrt(n))
    low, high, found = end + 1, min(2 * end, n), []
    while low <= n:
        temp = [True] * 8
        for each in [2, 3]:
            t = math.floor(low / each) * each
            if t < low:
                t += each
            for j in range(t, high + 1, each):
                temp[j - low] = False
        found.append(temp.count(True))
        low = high + 1
        high = min(high + end, n)
    return found


SQUARE_DIGITS = [sum(int(c) ** 2 for c in str(i)) for i in range(1000)]
HALVES = [i / 2 for i in range(40)]
EVENS = [i % 2 == 0 for i in range(40)]
MIXED_TABLE = [1, 2.5] * 20        # ints beside floats: each keeps its type (a num list)


def table_items(i, j):
    """Global tables only indexed (project_euler/problem_092's DIGITS_SQUARED): frozen arrays,
    read with the list's IndexError and TypeError."""
    return SQUARE_DIGITS[i] + SQUARE_DIGITS[i % 1000], HALVES[j], EVENS[j], EVENS[True]


def mixed_table(i):
    """A global list of more than 32 ints and floats: not one frozen float array (1 read as
    1.0 without an error), whether indexed only or read whole."""
    return str(MIXED_TABLE[i]), str(MIXED_TABLE[i + 1]), str(list(MIXED_TABLE)[i])     # (str: 1 is not 1.0)


def _maybe_flag(n) -> bool:
    if n > 2:
        return None     # (despite the annotation: CPython does not check it)
    return n > 0


def _int_or_half(n):
    return 1 if n > 2 else 0.5


def discarded_results(n):
    """A call whose None or int|float result is discarded (project_euler/problem_092's
    `chain(i + 1)` statement): nothing to unwrap, no TypeError."""
    count = 0
    for i in range(n):
        _maybe_flag(i)
        _int_or_half(i)
        count += 1
    return count


def constant_shapes(how):
    """A constant negative or too large shape: NumPy's ValueError when the line runs, not a
    CompileError (generated program 36200:314)."""
    if how == 0:
        return np.empty((2, -1), dtype=np.int32).size
    if how == 1:
        return np.zeros((1 << 40, 1 << 40)).size
    return np.ones((2, 3)).size


def minmax_of_other_types(a, b, how: int):
    """`max(1, None)`, `min("a", 2)`: CPython's TypeError when the line runs (maths/volume.py
    validates its arguments before a `max` it never reaches with None)."""
    if how == 0:
        return max(a, b)
    try:
        return min(a, b)
    except TypeError as e:
        return str(e)


def bools_and_numbers(n: int):
    """Where a bool and an int only meet in arithmetic or a test, CPython's answer needs no
    value that is either (a bool beside a number in one variable or list is refused:
    bad_kernels.py): a flag set in a loop, a count of comparisons, `max` of constants."""
    found = False
    count = 0
    for i in range(n):
        if i == 3:
            found = True
        count += i > 2
    best = max(True, 0)
    return found, count, best, min(1, False), sum([True, True]) + (n > 1)


def bool_or_int_values(n: int, m: int):
    """A local that is a bool on some paths and an int on others (`flag = table[i] and not
    m`, `hit = True` beside `hit = i`): compiled where only its value decides (arithmetic,
    comparisons, truth, an index, int()/float()/bool()/abs()), each answer CPython's."""
    table = [0, 3, -2, 5, 0, 7]
    hit = False
    total = 0
    for i in range(n):
        flag = table[i % 6] and not m
        if flag:
            total += 1
        total += flag * 2 + (flag == 0) - (flag < 1)
        table[i % 6] += flag            # (an int list's item plus a bool|int: an int)
        if i % 4 == m % 4:
            hit = i
        total += hit
    either = m > 2 if n % 2 else n
    shown = (int(hit), float(hit), bool(hit), abs(hit), -hit, ~hit, hit ** 2, hit / 2 if hit else 0.0)
    return total, shown, table[either % 6], either + 0, either == 1, 7 // (either or 1), 5 % (hit or 3)


def aug_item(s, i, v):
    # TheAlgorithms sorts/bead_sort.py given a str: `sequence[i] -= ...`
    s[i] -= v
    return s


def aug_name(s, v):
    s &= v
    s -= v
    return s


def undefined_call(n):
    if n > 100:
        return undefined_function(n)  # noqa: F821 - CPython's NameError, only where it runs
    return n


def undefined_reads(n):
    x = 1
    if n == 1:
        x = missing_value + 1  # noqa: F821
    if n == 2:
        x = missing_module.sqrt(n)  # noqa: F821
    if n == 3:
        x = len([missing_item for _ in range(n)])  # noqa: F821
    if n == 5:
        raise MissingError("x")  # noqa: F821
    if n == 6:
        x = isinstance(x, MissingClass)  # noqa: F821
    if n == 7:
        for x in missing_items:  # noqa: F821
            pass
    try:
        if n == 4:
            x = missing_callee(n)  # noqa: F821
    except NameError as e:
        return str(e)
    return x


def undefined_handler(n):
    try:
        return 10 // n
    except OverflowError:
        return -1
    except (ValueError, MissingError):  # noqa: F821 - its NameError when an exception reaches it
        return -2
