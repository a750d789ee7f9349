"""`fractions.Fraction(...)` in compiled code: a record of the class written in the subset
(fractionlib.py), which stands in for CPython's class wherever compiled code meets one: its
construction here, `isinstance` (instance_test.py), arguments from Python and results boxed
back (script.pyhooks.named_instance `STAND_INS`).

Why a record and not a named tuple of two ints: a record's class gets CPython's dispatch of
special methods (class_methods.py: `+` with `__radd__`, comparisons reflected, `sum`,
`sorted`, `min`, str/repr/f-strings) from the class's own code, and records are boxed with
their fields set by name, which are `fractions.Fraction`'s slots, so the result is CPython's
object; a named tuple would be a tuple to every operator (`+` concatenating, `<`
lexicographic). The cost is a heap record per value, as CPython's object is.
"""

from __future__ import annotations

import ast
import fractions

from script.frontend.registry import lowers
from script.frontend import class_methods, records
from script.lib.python import fractionlib
from script.ir import types as T


@lowers(fractions.Fraction.from_float, equal=True)
def _from_float(low, node: ast.Call, name: str):
    """`Fraction.from_float(x)` of a float or an int: `Fraction(x)`."""
    if len(node.args) != 1 or node.keywords:
        low.error("Fraction.from_float() takes one argument", node)
    return _make_fraction(low, node, name)


@lowers(fractions.Fraction, fractionlib.Fraction)
def _make_fraction(low, node: ast.Call, name: str):
    """`Fraction(n)`, `Fraction(n, d)` of ints and Fractions, and (alone) a float or a str."""
    if len(node.args) > 2 or node.keywords:
        low.error("Fraction() takes at most 2 positional arguments in compiled code "
                  "(numerator, denominator)", node)
    for k, arg in enumerate(node.args):
        if isinstance(arg, ast.Starred):
            low.error("Fraction(*args) is not supported in compiled code", arg)
        v = low.pre_evaluated[id(arg)] = low.expr(arg)
        t = getattr(v, "type", None)
        number = t is not None and (t.is_numeric() and not isinstance(t, T.ComplexType) or isinstance(t, T.StrType))
        if t is not None and not (number or class_methods.class_of(v) is fractionlib.Fraction):
            low.pre_evaluated.pop(id(arg), None)
            low.error(f"Fraction() of a {t} is not supported in compiled code (ints, floats, strs and "
                      "Fractions are)", arg)
    return records.make_record(low, fractionlib.Fraction, node)


def constant(low, obj, name: str, node):
    """A global Fraction (`TARGET = Fraction(1, 10)` at module level), made where it is read
    from its terms (a Fraction is immutable, so each read may be its own record); None for
    other objects."""
    if type(obj) is not fractions.Fraction:
        return None
    n, d = obj.numerator, obj.denominator
    if not (-2**63 <= n < 2**63 and d < 2**63):
        low.error(f"global '{name}' = {obj!r} does not fit in compiled code: numerators and denominators "
                  "are int64", node)
    terms = [ast.copy_location(ast.Constant(v), node) for v in (n, d)]
    call = ast.copy_location(ast.Call(ast.Name("Fraction", ast.Load()), terms, []), node)
    return records.make_record(low, fractionlib.Fraction, call)
