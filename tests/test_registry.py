"""The frontend's registry of calls, methods and operators (script/frontend/registry.py):
one owner per key, a second registration an error at import, lookups of any object."""

import ast
import builtins
import cmath
import itertools
import math
import pathlib
import re

import numpy as np
import pytest

import script.frontend.lower_stmt  # noqa: F401  (the driver: every module registers)
from script.frontend import registered, registry
from script.frontend.registry import (ANY, BINOPS, CALLS, METHODS, CallTable, DuplicateLowering, KeyedTable,
                                      Lazy, lowers, method_kind)
from script.ir import types as T

FRONTEND = pathlib.Path(registry.__file__).parent


def _handler(low, node, name):
    return None


def test_a_call_registered_twice_is_an_error():
    table = CallTable()
    table.register(np.sum, _handler)
    with pytest.raises(DuplicateLowering, match="sum"):
        table.register(np.sum, lambda low, node, name: None)
    table.register(Lazy("numpy.random", "rand"), _handler)
    with pytest.raises(DuplicateLowering, match="numpy.random.rand"):
        table.register(Lazy("numpy.random", "rand"), _handler)
    table.register(itertools.chain.from_iterable, _handler, equal=True)
    with pytest.raises(DuplicateLowering):
        table.register(itertools.chain.from_iterable, _handler)      # found by ==: the same key


def test_the_real_tables_refuse_a_second_owner():
    """A module that registered np.sum (or len, or a method) again would fail at import."""
    with pytest.raises(DuplicateLowering, match="reduce_keywords"):
        @lowers(np.sum)
        def np_sum_again(low, node, name):
            return None
    with pytest.raises(DuplicateLowering):
        CALLS.register(len, _handler)
    with pytest.raises(DuplicateLowering):
        METHODS.register(("array", "sum"), _handler)
    with pytest.raises(DuplicateLowering):
        BINOPS.register(("list", ANY), _handler)


def test_keyed_tables_fall_back_to_the_kind():
    table = KeyedTable("method")
    table.register(("list", ANY), "any list method")
    table.register(("list", "append"), "append")
    assert table.lookup("list", "append") == "append"
    assert table.lookup("list", "pop") == "any list method"
    assert table.lookup("str", "pop") is None
    assert table.lookup(None, "pop") is None


def test_np_sum_has_one_owner_the_one_that_takes_keywords():
    owner = {e.obj: e.owner for e in CALLS.entries() if e.obj is np.sum}
    assert owner == {np.sum: "script.frontend.reduce_keywords"}
    assert METHODS.owners()[("array", "sum")] == "script.frontend.reduce_keywords"


def test_lookups_of_any_object():
    assert CALLS.lookup([1, 2]) is None                   # unhashable
    assert CALLS.lookup(np.zeros(3)) is None              # unhashable, and == is element-wise
    assert CALLS.lookup(object()) is None
    assert CALLS.lookup(itertools.chain.from_iterable) is not None     # a new object at each access
    assert CALLS.lookup(len)[1] == "len"
    assert CALLS.lookup(np.add.accumulate)[1] == "add.accumulate"      # a family


def _sample_objects():
    """Objects of the modules the registry knows, every lazy key's module imported."""
    import random
    import statistics

    import numpy.random
    modules = (builtins, math, cmath, itertools, np, np.linalg, numpy.random, random, statistics)
    out = []
    for module in modules:
        for attr in dir(module):
            try:
                out.append(getattr(module, attr))
            except Exception:       # a deprecated NumPy alias warns or raises
                continue
    return out + [np.add.reduce, np.maximum.accumulate, np.add.at, np.multiply.outer]


def test_every_key_has_exactly_one_owner():
    """Exact keys (lazy ones resolved) belong to a module the driver imports; no family claims
    an object another family claims, so the order of imports decides nothing (an exact key
    comes before every family by rule: math.gcd's entry, not the family of `math`)."""
    objects = _sample_objects()
    CALLS.lookup(object())                              # resolves the lazy keys of imported modules
    assert not CALLS._lazy
    modules = {m.__name__ for m in registered.MODULES}
    for entry in CALLS.entries():
        assert entry.owner in modules, entry
    for key, owner in {**METHODS.owners(), **BINOPS.owners()}.items():
        assert owner in modules, key
    for obj in objects:
        claims = [resolve.__name__ for resolve, _ in CALLS._families if resolve(obj) is not None]
        assert len(claims) <= 1, (obj, claims)


def test_every_registering_module_is_imported_by_the_driver():
    pattern = re.compile(r"^(@lowers|@CALLS\.family|\s*(CALLS|METHODS|BINOPS)\.register\()", re.M)
    registering = {f"script.frontend.{p.stem}" for p in FRONTEND.glob("*.py")
                   if p.stem != "registry" and pattern.search(p.read_text())}
    assert registering == {m.__name__ for m in registered.MODULES}


def test_no_module_fills_another_modules_table():
    """The tables of the old dispatch (NUMPY_FUNCTIONS, _METHODS mutated by other modules) are gone."""
    for p in FRONTEND.glob("*.py"):
        text = p.read_text()
        assert "NUMPY_FUNCTIONS" not in text, p.name
        assert not re.search(r"_METHODS\.update|_METHODS\[\w+\] =", text), p.name


def test_method_kinds():
    assert method_kind(T.ArrayType(T.F64, 1)) == "array"
    assert method_kind(T.STR) == "str"
    assert method_kind(T.U64) == "u64"
    assert method_kind(T.I32) == "int"
    assert method_kind(T.F64) == "float"
    assert method_kind(T.BOOL) == "bool"
    assert method_kind(None) is None


def test_registry_imports_no_lowering_module():
    tree = ast.parse(pathlib.Path(registry.__file__).read_text())
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert not {m for m in imported if m and m.startswith("script.frontend")}


def test_a_method_of_a_kind_without_an_entry_of_its_own():
    """("array", ANY): a.tolist() goes to the array's other methods with its name."""
    from script import script

    def f(a):
        return a.tolist()
    a = np.arange(3.0)
    assert script(f)(a) == f(a)
