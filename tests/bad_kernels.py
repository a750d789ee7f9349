"""Functions outside the compiled subset. Each marks the line that must be rejected with
`# error: <text the message must contain>`; test_compile_errors.py checks both."""

import contextlib
import math

import numpy as np

COUNTER = [0]


def uses_try_star(x):
    y = 0
    try:  # error: 'except*' (exception groups)
        y = x
    except* ValueError:
        y = 1
    return y


class Box:
    def __init__(self, value):
        self.value = value


def uses_caught_exception(x):
    try:
        return x // 2
    except ZeroDivisionError as e:
        return len(e.args)  # error: can only be raised again


def bare_raise_outside_except(x):
    raise  # error: a bare 'raise' is only supported inside an 'except' clause


def uses_with(x):
    with contextlib.suppress(ValueError):  # error: 'with' statements
        return x


def uses_generator(x):
    yield x  # error: is a generator function: compiled code inlines it where it is iterated


def uses_global(x):
    global COUNTER  # error: 'global' declarations
    return x


def uses_closure(x):
    def inner(y):
        def innermost(z):
            return z + x
        return innermost  # error: a variable of a function around 'inner'
    return inner(1)


def uses_dict(x):
    d = {[x]: x}  # error: dicts with list[i64] keys are not supported
    return d


def uses_set(x):
    s = {x}
    return s[0]  # error: 'set' object is not subscriptable


def uses_list_of_none(x):
    return [None, x]  # error: list elements of types none and f64[::1]


def uses_string(x):
    return "n=%(x)d" % x  # error: printf-style formatting with a mapping ('%(x)d') is not supported


def uses_string_method(s: str):
    return s.format_map({})  # error: str has no method 'format_map'


def uses_fstring(x):
    raise ValueError(f"bad {x:>8}")  # error: format spec '>8' is not supported


def rebinds_mutable_global(x):
    global COUNTER  # error: 'global' declarations
    COUNTER = COUNTER + [x]
    return x


def uses_print(x):
    print(x, file=None)  # error: print() keyword 'file' is not supported


def type_conflict(x):
    if x > 0:
        y = 1.5
    else:
        y = True
    return y  # error: incompatible types


def unpack_mismatch(x):
    a, b = (x, x, x)  # error: cannot unpack a tuple of 3 values into 2
    return a


def read_before_assign(x):
    return y + x  # error: local variable 'y' is read before any assignment
    y = 1


class MyError(Exception):
    pass


def bad_call_args(x):
    return math.sqrt(x, x)  # error: sqrt() takes 1 arguments


def recursive_no_base(n):
    return recursive_no_base(n - 1) + 1  # error: cannot infer the return type


def huge_constant(x):
    return x + 100000000000000000000  # error: does not fit in 64 bits


def uses_match(x):
    match x:
        case int(a, b):  # error: int() accepts 1 positional sub-pattern (2 given)
            return 1
    return 0


def returns_and_of_bool_and_int(x):
    return x > 5 and x  # error: CPython keeps True apart from 1


def prints_or_of_int_and_bool(x):
    print(x or x > 5)  # error: CPython keeps True apart from 1


def bool_beside_int_in_a_list(x):
    flags = [True, x]  # error: CPython keeps True apart from 1
    return flags[0]


def bool_or_int_variable(x):
    if x > 2:
        found = True
    else:
        found = x
    return found  # error: a bool on some paths and an int on others


def bool_or_int_printed(x):
    flag = x > 2 or x
    print(flag)  # error: a bool on some paths and an int on others
    return 0


def bool_or_int_in_a_tuple(x):
    flag = x > 2 and x
    pair = (flag, x)  # error: a bool on some paths and an int on others
    return pair[1]


def bool_or_int_masked(x):
    flag = x > 2 and x
    return flag & 1  # error: a bool on some paths and an int on others


def bool_or_int_identity(x):
    flag = x > 2 and x
    return flag is True  # error: a bool on some paths and an int on others


def bool_stored_in_int_list(x):
    seen = [0] * x
    seen[1] = True  # error: cannot store a value of type bool in a list[i64]
    return seen


def bool_stored_in_int_field(x):
    box = Box(x)
    box.value = x > 2  # error: field 'value' of 'Box' is i64; it cannot hold a bool
    return box.value


def bool_beside_int_in_a_dict(x):
    marks = {1: x}
    marks[2] = False  # error: keys or values of types i64 and bool
    return marks


def max_of_bool_and_int(x):
    return max(x > 2, x - 3)  # error: CPython keeps True apart from 1


def scalar_then_array(n):
    total = np.nan
    for i in range(n):
        if i > 0:
            total += np.ones((2, 2))  # error: variable 'total' has incompatible types
        else:
            total = np.ones((2, 2))
    return total


def returns_exceptions_in_a_list(n):
    return [ValueError("Input Error: must be positive"), KeyError(n)]  # error: lists of exc are not supported
