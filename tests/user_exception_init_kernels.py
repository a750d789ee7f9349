"""Kernels for tests/test_user_exception_init.py: user exception classes with an __init__,
a __str__ and attributes, raised and caught in compiled code (docs/exceptions.md)."""


class InsufficientFunds(Exception):
    def __init__(self, balance, amount):
        super().__init__(f"balance {balance} < {amount}")
        self.balance = balance
        self.amount = amount


class Overdraft(InsufficientFunds):           # the __init__ of its base
    pass


class ParseError(ValueError):
    def __init__(self, pos, msg="bad token"):
        self.pos = pos
        super().__init__(f"{msg} at {pos}")

    def __str__(self):
        return f"ParseError({self.pos})"


class Typed(LookupError):
    code: int
    ratio: float
    label: str
    ok: bool

    def __init__(self, code, ratio, label, ok):
        super().__init__(code, label)
        self.code = code
        self.ratio = ratio
        self.label = label
        self.ok = ok


class Annotated(ArithmeticError):
    def __init__(self, n: int, why="overflow"):
        super().__init__(why)
        self.n = n
        self.why = why


class Fragile(ValueError):
    def __init__(self, a, b):
        super().__init__(f"{a // b}")         # ZeroDivisionError from the __init__ when b == 0


class Fixed(RuntimeError):
    def __init__(self):
        super().__init__("fixed message")
        self.code = 7


def withdraw(b, a):
    if a > 2 * b:
        raise Overdraft(b, a)
    if a > b:
        raise InsufficientFunds(b, a)
    return b - a


def raises(k, x):
    if k == 0:
        raise ParseError(x)
    if k == 1:
        raise ParseError(x, "eof")
    if k == 2:
        raise Typed(x, x / 4, f"label{x}", x > 0)
    if k == 3:
        raise Annotated(x)
    if k == 4:
        raise Fragile(x, x % 3)
    if k == 5:
        raise Fixed()
    if k == 6:
        raise InsufficientFunds        # CPython calls it: TypeError, two arguments missing
    return x


def catch_by_class(b, a):
    try:
        return str(withdraw(b, a))
    except Overdraft as e:
        return f"overdraft {e} {e!r}"
    except InsufficientFunds as e:
        return "short " + str(e) + " " + repr(e)


def catch_by_base(k, x):
    try:
        return str(raises(k, x))
    except LookupError as e:
        return "lookup " + repr(e)
    except ValueError as e:
        return "value " + str(e) + "|" + repr(e)
    except ArithmeticError as e:
        return "arith " + str(e)
    except Exception as e:
        return "other " + str(e)


def catch_attributes(k, x):
    try:
        return float(raises(k, x))
    except Typed as e:
        return e.code + e.ratio + len(e.label) + (100.0 if e.ok else 0.0)
    except Annotated as e:
        return e.n * 2.0 + len(e.why)
    except Fixed as e:
        return float(e.code)
    except Fragile:
        return -1.0
    except ZeroDivisionError:
        return -2.0


def amounts(b, a):
    try:
        return withdraw(b, a)
    except InsufficientFunds as e:
        return e.amount - e.balance


def reraise(k, x):
    try:
        return raises(k, x)
    except ParseError:
        raise


def raise_again(b, a):
    try:
        return withdraw(b, a)
    except InsufficientFunds as e:
        raise e


def middle(k, x):
    return raises(k, x) + 1


def nested(k, x):
    try:
        return middle(k, x) * 2
    except ParseError as e:
        return -len(str(e))


def here(x):
    try:
        if x > 5:
            raise ParseError(x)
        if x < -5:
            raise InsufficientFunds(x, -x)
        return 0
    except ParseError as e:
        return 100 + len(str(e))
    except InsufficientFunds as e:
        return e.amount
    finally:
        x += 1


def in_a_loop(n):
    total = 0
    for k in range(n):
        try:
            raises(k % 8, k)
        except ParseError as e:
            total += len(str(e))
        except InsufficientFunds:
            total += 1000
        except Exception:
            total += 1
    return total


def names(s):
    raise ParseError(0, s + "!")


# ---- refused ----------------------------------------------------------------------------

COUNT = 0
LOG = []


class Counting(ValueError):
    def __init__(self, x):
        global COUNT
        COUNT += 1
        super().__init__(x)


class Logging(ValueError):
    def __init__(self, x):
        LOG.append(x)
        super().__init__(x)


def counting(x):
    raise Counting(x)


def logging(x):
    raise Logging(x)


def untyped_attribute(x):
    try:
        raise ParseError(x)
    except ParseError as e:
        return e.pos


def made_outside_raise(x):
    err = InsufficientFunds(x, x + 1)
    raise err


def caught_as_argument(x):
    try:
        return 1 // x
    except ZeroDivisionError as e:
        raise ParseError(e)


def typed_mismatch(x):
    try:
        raise Typed(x * 0.5, 1.0, "l", True)       # code is a float: not the declared int
    except Typed as e:
        return e.code


class Opaque(ValueError):
    def __init__(self, v):
        super().__init__("opaque")
        self.v = v                  # no compiled raise passes v: its type is not known


def tenth(x):
    return 10 // x


def undeclared(x):
    try:
        return tenth(x)             # a call: its exception's class is known at run time
    except Opaque as e:
        return e.v


def kernel_raise():
    """A kernel raising a class CPython would have to build (made on demand: the test)."""
    import script
    from script import cuda

    @script.kernel
    def negative(x: script.f64[:]):
        i = cuda.grid(1)
        if i < x.shape[0] and x[i] < 0:
            raise InsufficientFunds(i, 0)
    return negative
