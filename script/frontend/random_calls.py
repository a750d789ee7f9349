"""Calls of `random`'s and `numpy.random`'s functions in compiled code: which library function
(pyrandom, nprandom: ordinary Python compiled like any callee) each names, and the argument
forms NumPy's take that the library's parameters cannot (an int `size` is made a 1-tuple,
``rand(d0, d1, ...)`` gets its dimensions as one tuple, ``permutation`` of an int is its own
function). Arguments are evaluated once, in the call's order (numpy_lib_call.bind).

The module functions draw from the interpreter's own generators (runtime.random_state), so
that seeding or drawing in Python and in compiled code continue one stream; a
``random.Random(seed)`` or ``default_rng(seed)`` in compiled code has a state of its own.
"""

from __future__ import annotations

import ast
import sys

from script.errors import CompileError
from script.frontend import pyrandom
from script.lib.numpy import npgenerator, nprandom
from script.frontend.numpy_lib_call import bind
from script.frontend.registry import CALLS, Lazy
from script.frontend.pyref import PyRef
from script.ir import types as T

_PYTHON = ("seed", "random", "getrandbits", "randrange", "randint", "uniform", "gauss",
           "normalvariate", "expovariate", "choice", "shuffle", "sample", "choices")
# numpy.random name -> nprandom function name
_NUMPY = {"seed": "seed", "random": "random_sample", "random_sample": "random_sample",
          "sample": "random_sample", "ranf": "random_sample", "rand": "random_sample",
          "randn": "standard_normal", "standard_normal": "standard_normal", "uniform": "uniform",
          "normal": "normal", "exponential": "exponential",
          "standard_exponential": "standard_exponential", "randint": "randint",
          "shuffle": "shuffle", "permutation": "permutation", "choice": "choice",
          "binomial": "binomial"}


# Generator method -> npgenerator function name
_GENERATOR = {"random": "random", "normal": "normal", "standard_normal": "standard_normal",
              "uniform": "uniform", "integers": "integers", "exponential": "exponential",
              "standard_exponential": "standard_exponential", "choice": "choice",
              "shuffle": "shuffle", "permutation": "permutation", "poisson": "poisson",
              "binomial": "binomial"}


class CompiledGenerator:
    """What a name bound to ``np.random.default_rng(...)`` is in compiled code: no value, a
    Python object whose attributes are the methods below. Passed to a callee, it is bound
    statically (static_args.py), as functions are."""

    def __getattr__(self, name: str):
        if name in _GENERATOR:
            return GeneratorMethod(name)
        raise AttributeError(name)

    def __repr__(self) -> str:
        return "a numpy.random.Generator"


class GeneratorMethod:
    """``rng.<name>``: lowers its own calls (lower_call's `__script_call__`)."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __eq__(self, other) -> bool:
        return isinstance(other, GeneratorMethod) and other.name == self.name

    def __hash__(self) -> int:
        return hash(("GeneratorMethod", self.name))

    def __script_call__(self, low, node: ast.Call):
        return _call_generator(self.name, low, node)


GENERATOR = CompiledGenerator()


class CompiledRandom:
    """What a name bound to ``random.Random(seed)`` is in compiled code: the compiled `random`
    state seeded with `seed` (one state per process, as for the module's functions), whose
    methods are the module's functions."""

    def __getattr__(self, name: str):
        if name in _PYTHON:
            return RandomMethod(name)
        raise AttributeError(name)

    def __repr__(self) -> str:
        return "a random.Random"


class RandomMethod(GeneratorMethod):
    """``r.<name>`` of a `CompiledRandom`."""

    __slots__ = ()

    def __script_call__(self, low, node: ast.Call):
        return _call_python(self.name, low, node, pyrandom.INSTANCE)


PY_RANDOM = CompiledRandom()


def is_default_rng(low, func: ast.AST) -> bool:
    """Whether `func` names ``numpy.random.default_rng`` (a name or an attribute chain)."""
    return _names(low, func, "numpy.random", "default_rng")


def _names(low, func: ast.AST, module_name: str, name: str) -> bool:
    """Whether `func` (a name or an attribute chain) names ``<module_name>.<name>``. Nothing
    but a name or attribute spelled `name` is resolved: every call assigned comes here."""
    if not isinstance(func, (ast.Name, ast.Attribute)) or getattr(func, "id", getattr(func, "attr", None)) != name:
        return False
    node = func
    while isinstance(node, ast.Attribute):
        node = node.value
    if not isinstance(node, ast.Name) or node.id in low.locals:
        return False
    try:
        ref = low.callee_ref(func)
    except Exception:                   # noqa: BLE001 - not a name of a Python object
        return False
    module = sys.modules.get(module_name)
    return isinstance(ref, PyRef) and module is not None and ref.obj is getattr(module, name)


def make_generator(low, node: ast.Call):
    """``np.random.default_rng(seed)``: seeds the Generator's state (when a seed is given)
    and gives the PyRef every method call goes through."""
    if len(node.args) + len(node.keywords) > 1 or any(k.arg != "seed" for k in node.keywords):
        low.error("numpy.random.default_rng() takes one argument, the seed", node)
    given = node.args[0] if node.args else node.keywords[0].value if node.keywords else None
    if given is not None and not (isinstance(given, ast.Constant) and given.value is None):
        seed = low.expr(given)
        if not isinstance(seed.type, (T.IntType, T.BoolType)):
            low.error(f"numpy.random.default_rng()'s seed must be an int in compiled code, not {seed.type}", given)
        call = ast.copy_location(ast.Call(ast.Name("seed_generator", ast.Load()), [given], []), node)
        low.pre_evaluated[id(given)] = seed
        low.call_script(low.ctx.info_for(npgenerator.seed_generator), call)
    _note_made(low, "numpy.random.Generator", node)
    return PyRef(GENERATOR, "default_rng()")


def assign_default_rng(low, node: ast.Assign) -> bool:
    """``rng = np.random.default_rng(seed)`` or ``rng = random.Random(seed)``: seeds, and makes
    `rng` name the generator for the rest of the function (True); False for any other
    assignment. Assigning anything else to such a name is a CompileError."""
    names = [t.id for t in node.targets if isinstance(t, ast.Name)]
    numpy_rng = isinstance(node.value, ast.Call) and is_default_rng(low, node.value.func)
    python_rng = not numpy_rng and isinstance(node.value, ast.Call) and _names(low, node.value.func, "random", "Random")
    if not (numpy_rng or python_rng):
        for name in names:
            if name in low.rng_names:
                low.error(f"'{name}' names {low.rng_names[name]!r} here: compiled code cannot "
                          "assign another value to it", node)
        return False
    what = "numpy.random.default_rng()" if numpy_rng else "random.Random()"
    if len(names) != len(node.targets):
        low.error(f"{what} can only be assigned to a name in compiled code", node)
    if numpy_rng:
        other = [n for n, g in low.rng_names.items() if g is GENERATOR and n not in names]
        if other:       # one PCG64 state: the two would draw from one stream (npgenerator.py)
            low.error(f"a second numpy.random.Generator in one function ('{other[0]}' is one): "
                      "compiled code's Generators share one state, so their numbers would "
                      "differ from NumPy's", node)
        make_generator(low, node.value)
    else:
        call = node.value
        if len(call.args) != 1 or call.keywords:
            low.error("random.Random() takes one argument, the seed, in compiled code (it cannot "
                      "seed from the system's entropy)", call)
        _check_seed(low, call, "random.Random")
        low.call_script(low.ctx.info_for(pyrandom.INSTANCE.seed), call)
        _note_made(low, "random.Random", call)
    low.rng_names.update(dict.fromkeys(names, GENERATOR if numpy_rng else PY_RANDOM))
    return True


def _note_made(low, kind: str, node) -> None:
    """Record on the function being built that it makes a generator of `kind` (its state is
    the process's one of that kind), for `check_generator_callees`."""
    low.func.__dict__.setdefault("made_generators", {}).setdefault(kind, low.loc(node))


def check_generator_callees(funcs) -> None:
    """Refuse a function that makes a Generator (or a `random.Random`) and calls, directly or
    through other functions, one that makes another of the same kind (itself, when
    recursive): compiled generators of a kind share one state per process, so the callee's
    would reseed the caller's, whose later numbers would then differ from CPython's. The error
    points at the call. (A generator passed to a helper is the caller's own, and is fine.)"""
    made = {id(f): f.__dict__.get("made_generators", {}) for f in funcs}
    for f in funcs:
        mine = made.get(id(f))
        if not mine:
            continue
        for i in f.instructions():
            if i.opname != "call":
                continue
            kind = next((k for k in _made_below(i.attr, made) if k in mine), None)
            if kind is not None:
                raise CompileError(
                    f"{_plain_name(f)}() makes a {kind} and calls {_plain_name(i.attr)}(), which makes "
                    f"another (there or in a function it calls): compiled code's {kind}s share one "
                    "state per process, so the call would reseed the caller's and its later numbers "
                    "would differ from CPython's; pass the generator to the helper instead", i.loc)


def _made_below(g, made: dict) -> set:
    """The kinds of generator `g` or any function it reaches makes."""
    kinds, seen, work = set(), {id(g)}, [g]
    while work:
        h = work.pop()
        kinds.update(made.get(id(h), ()))
        for c in h.callees():
            if id(c) not in seen:
                seen.add(id(c))
                work.append(c)
    return kinds


def _plain_name(f) -> str:
    """The user's name of IR function `f` (specialize.py names it `qualname.<types>`)."""
    return f.name.rsplit(".", 1)[0] if f.param_types else f.name


def _generator_value(low, node: ast.Call):
    low.error("a numpy.random.Generator is not a value in compiled code: assign "
              "np.random.default_rng(...) to a name, or call its methods on the call", node)


def _call_generator(name: str, low, node: ast.Call):
    fn = _GENERATOR[name]
    why = npgenerator.require(name)             # NumPy's ziggurat tables, or a refusal
    if why is not None:
        low.error(why, node)
    params = {"choice": ("a", "size", "replace", "p")}.get(name)
    if params is not None:
        given = dict(zip(params, node.args))
        given.update((k.arg, k.value) for k in node.keywords)
        p = given.get("p")
        if p is not None and not (isinstance(p, ast.Constant) and p.value is None):
            replace = given.get("replace")
            if replace is not None and not (isinstance(replace, ast.Constant) and replace.value is True):
                low.error("choice() with p= and replace=False is not supported in compiled code", node)
            fn = "choice_p"
    info = low.ctx.info_for(getattr(npgenerator, fn))
    args = bind(low, info, node, None)
    a = args.get("a") if name == "choice" else args.get("x") if name == "permutation" else None
    if a is not None and isinstance(a[0].type, (T.IntType, T.BoolType)):
        info = low.ctx.info_for(getattr(npgenerator, fn.replace("choice", "choice_of_int")
                                        if name == "choice" else "permutation_of_int"))
    elif name == "choice" and not (isinstance(a[0].type, T.ArrayType) and a[0].type.ndim == 1):
        low.error("Generator.choice() takes an int or a 1-d array here", a[1])
    if name in ("shuffle", "permutation") and any(k.arg == "axis" for k in node.keywords):
        low.error(f"Generator.{name}()'s axis is not supported in compiled code", node)
    _size_tuple(low, args)
    return low.call_script(info, node)


def _size_tuple(low, args) -> None:
    """An int `size` becomes a 1-tuple; ``size=()`` is refused."""
    size, size_node = args.get("size", (None, None))
    if size is not None and isinstance(size.type, (T.IntType, T.BoolType)):
        low.pre_evaluated[id(size_node)] = low.make_tuple([low.coerce(size, T.I64, size_node)], size_node)
    elif size is not None and size.type == T.TupleType([]):
        low.error("a size of () (a 0-d array) is not supported in compiled code", size_node)


CALLS.register(Lazy("numpy.random", "default_rng"), lambda low, node, name: _generator_value(low, node))
for _name in _PYTHON:
    CALLS.register(Lazy("random", _name), lambda low, node, name: _call_python(name, low, node))
for _name in _NUMPY:
    CALLS.register(Lazy("numpy.random", _name), lambda low, node, name: _call_numpy(name, low, node))


def _call_python(name: str, low, node: ast.Call, functions=pyrandom):
    if name == "seed":
        _check_seed(low, node, "random")
    if name in ("sample", "choices") and node.args:
        _check_population(low, name, node.args[0])
    return low.call_script(low.ctx.info_for(getattr(functions, name)), node)


def _check_population(low, name: str, arg: ast.expr) -> None:
    """random.sample and random.choices take a sequence (a list, tuple, str or range); a set,
    a dict or an array raises CPython's TypeError for sample (choices indexes it)."""
    t = low.pre_evaluate(arg).type
    if type(t) in (T.ListType, T.VarTupleType, T.TupleType) or isinstance(t, (T.StrType, T.IterType)):
        return
    if name == "sample":
        low.raise_always("TypeError", _POPULATION_MESSAGE, arg)
    else:
        low.error(f"random.choices() of a {t} is not supported in compiled code (of a list, tuple, str or "
                  "range it is)", arg)


_POPULATION_MESSAGE = "Population must be a sequence.  For dicts or sets, use sorted(d)."


def _call_numpy(name: str, low, node: ast.Call):
    if name == "seed":
        _check_seed(low, node, "numpy.random")
    if name in ("rand", "randn"):
        if node.keywords:
            low.error(f"numpy.random.{name}() takes no keyword arguments", node)
        dims = [ast.copy_location(ast.Tuple(list(node.args), ast.Load()), node)] if node.args else []
        node = ast.copy_location(ast.Call(node.func, dims, []), node)
    info = low.ctx.info_for(getattr(nprandom, _NUMPY[name]))
    args = bind(low, info, node, None)
    x = args.get("x")
    if name == "permutation" and x is not None and isinstance(x[0].type, (T.IntType, T.BoolType)):
        info = low.ctx.info_for(nprandom.permutation_of_int)
    a = args.get("a")
    if name == "choice" and isinstance(a[0].type, (T.IntType, T.BoolType)):
        info = low.ctx.info_for(nprandom.choice_of_int)
    elif name == "choice" and not (isinstance(a[0].type, T.ArrayType) and a[0].type.ndim == 1):
        low.error("numpy.random.choice() takes an int or a 1-d array here", a[1])
    _size_tuple(low, args)
    return low.call_script(info, node)


def _check_seed(low, node: ast.Call, module: str) -> None:
    """Compiled code has no entropy source: a seed must be given, as an int."""
    given = node.args[0] if node.args else node.keywords[0].value if node.keywords else None
    if given is None or isinstance(given, ast.Constant) and given.value is None:
        low.error(f"{module}.seed() needs an int seed in compiled code (it cannot seed from the "
                  "system's entropy)", node)
