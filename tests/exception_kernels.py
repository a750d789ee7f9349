"""Functions with try / except / else / finally, run both by CPython and compiled
(test_exceptions.py)."""

import math

import numpy as np


def safe_div(a: int, b: int) -> int:
    try:
        q = a // b
    except ZeroDivisionError:
        q = 0
    return q


def checked(a: int, b: int) -> int:
    if a > 100:
        raise ValueError("too big")
    if a < -100:
        raise IndexError(f"too small: {a}")
    return a % b


def calls_checked(a: int, b: int) -> int:
    try:
        return checked(a, b) + 1
    except ValueError:
        return -1
    except ZeroDivisionError:
        return -2


def tuple_clause(a: int, b: int) -> int:
    try:
        r = checked(a, b)
    except (IndexError, ValueError):
        r = -1
    return r


def hierarchy(a: int, b: int, x: float) -> int:
    """ArithmeticError catches ZeroDivisionError and OverflowError, LookupError
    IndexError, Exception the rest."""
    r = 0
    try:
        r += a // b
    except ArithmeticError:
        r += 1000
    try:
        r += int(math.exp(x))
    except ArithmeticError:
        r += 2000
    try:
        r += checked(a, b)
    except LookupError:
        r += 3000
    except Exception:
        r += 4000
    return r


def else_and_finally(a: int, b: int) -> int:
    x = 1
    try:
        x = 2
        q = a // b
        x = 3
    except (IndexError, ValueError):
        return -1
    except ArithmeticError:
        return x * 10           # x as it was when the division raised
    else:
        x += q
    finally:
        x += 1000
    return x


def loop_break_continue(n: int, k: int) -> int:
    s = 0
    for i in range(n):
        try:
            if i == k:
                break
            if i % 3 == 0:
                continue
            s += 10 // (i - 5)
        except ZeroDivisionError:
            s += 1000
        finally:
            s += 1
    return s


def while_continue(n: int) -> int:
    i = 0
    s = 0
    while i < n:
        i += 1
        try:
            if i % 4 == 0:
                raise ValueError("four")
            s += 100 // (i % 3)
        except ValueError:
            continue
        except ZeroDivisionError:
            s -= 1
            if s < -3:
                break
    return s


def nested(a: int, b: int, c: int) -> int:
    r = 0
    try:
        try:
            r = a // b
        except ValueError:
            r = -1
        finally:
            r += 1
        r += c // a
    except ZeroDivisionError:
        r -= 100
    return r


def raise_in_handler(a: int, b: int) -> int:
    try:
        try:
            return a // b
        except ZeroDivisionError:
            if a > 0:
                raise ValueError("positive over zero")
            return 0
    except ValueError:
        return -7


def raise_in_finally(a: int) -> int:
    try:
        return 10 // a
    finally:
        if a < 0:
            raise IndexError("negative")


def return_in_finally(a: int) -> int:
    try:
        return 10 // a
    finally:
        if a > 5 or a == 0:
            return -1           # replaces the result, or drops the exception  # noqa: B012


def break_in_finally(n: int) -> int:
    s = 0
    for i in range(n):
        try:
            s += 12 // (i - 3)
        finally:
            if i >= 3:
                break           # drops the ZeroDivisionError at i == 3  # noqa: B012
            s += 1
    return s


def finally_sees_assignments(a: int) -> int:
    x = 0
    try:
        x = 10 // a
        return x
    finally:
        x = 99                  # the returned value was computed before


def reraise(a: int, b: int) -> int:
    try:
        return a // b
    except ZeroDivisionError:
        if a > 0:
            raise
        return 0


def reraise_named(a: int, b: int) -> int:
    try:
        return a // b
    except ZeroDivisionError as e:
        try:
            if a > 5:
                raise ValueError("inner")
        except ValueError:
            pass
        if a > 0:
            raise e             # the first exception, not the inner one
        return 0


def bare_except(x: float) -> float:
    try:
        return math.sqrt(x)
    except:  # noqa: E722
        return -1.0


def except_exception(x: float, n: int) -> float:
    try:
        assert n != 3, "three"
        return math.log(x) + 1.0 / n
    except Exception:
        return 0.0


def assertion(n: int) -> int:
    try:
        assert n % 2 == 0, "odd"
        return n
    except AssertionError:
        return -n


def unmatched(a: int, b: int) -> int:
    try:
        if a < 0:
            raise ValueError(f"negative: {a}")
        return a // b
    except IndexError:
        return 0


def index_array(a, i: int) -> float:
    try:
        return a[i]
    except IndexError:
        return -1.0


def index_2d(a, i: int, j: int) -> float:
    try:
        x = a[i, j]
    except LookupError:
        x = 0.5
    else:
        x *= 2
    return x


def unmatched_index(a, i: int) -> float:
    try:
        return a[i]
    except ZeroDivisionError:
        return 0.0


def list_ops(n: int, k: int) -> int:
    xs = [1, 2, 3]
    total = 0
    for i in range(n):
        try:
            xs.append(i)
            total += xs[k]
            total += xs.pop(k - 2)
        except IndexError:
            total -= 1
    return total + len(xs)


def ones(n: int):
    return np.zeros(n) + 1.0


def array_from_call(n: int) -> float:
    try:
        a = ones(n)
        return a.sum()
    except ValueError:
        return -1.0


def array_across(n: int, k: int) -> float:
    a = np.arange(n) * 1.0
    b = a + 1.0
    try:
        c = a[k] / b[0]
        a = a * 2.0
        d = a[k + 1]
    except IndexError:
        return b.sum()
    return c + d + a.sum()


def sqrt_domain(x: float) -> float:
    try:
        y = math.sqrt(x)
    except ValueError:
        y = math.nan
    return y


def recursive(n: int) -> int:
    if n == 0:
        raise ValueError("bottom")
    try:
        return recursive(n - 1) + 1
    except ValueError:
        if n % 2 == 0:
            raise
        return 100


def keyboard(n: int) -> int:
    try:
        try:
            if n > 0:
                raise KeyboardInterrupt
            return 0
        except Exception:
            return 1
    except:  # noqa: E722
        return 2


def try_in_try_handler_loop(xs, d: int) -> int:
    total = 0
    for y in xs:
        x = int(y)
        try:
            total += x // d
        except ZeroDivisionError:
            try:
                total += xs[x]
            except IndexError:
                total -= 1
    return total


def deep(n):
    if n == 0:
        return 0
    return deep(n - 1) + 1


def catch_recursion(n: int) -> int:
    try:
        return deep(n)
    except RecursionError:
        return -1


def newton_sqrt(x: float, iters: int) -> float:
    g = x
    for _ in range(iters):
        try:
            g = 0.5 * (g + x / g)
        except ZeroDivisionError:
            return 0.0
    return g


def mean_log_ratio(a, b) -> float:
    """The mean of log(a[i]) / b[i] where it is defined (a real-world shape: skip the bad
    entries, fall back when none is left)."""
    total = 0.0
    n = 0
    for i in range(a.shape[0]):
        try:
            total += math.log(float(a[i])) / float(b[i])     # Python floats, as compiled
            n += 1
        except (ValueError, ZeroDivisionError):
            continue
    try:
        return total / n
    except ZeroDivisionError:
        return math.nan


class RateError(Exception):
    pass


def ratio_or_error(a, b):
    """physics/grahams_law.py's shape: a float, or an exception object returned (not raised)."""
    return round(a / b, 6) if a > 0 and b > 0 else ValueError("Input Error: values must be greater than 0.")


def errors_returned(n):
    if n > 2:
        return KeyError(n)
    if n > 0:
        return RateError("slow", n)
    return (n, RuntimeError(f"bad {n}"), ZeroDivisionError())
