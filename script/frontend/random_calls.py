"""Calls of `random`'s and `numpy.random`'s functions in compiled code: which library function
(pyrandom, nprandom: ordinary Python compiled like any callee) each names, and the argument
forms NumPy's take that the library's parameters cannot (an int `size` is made a 1-tuple,
``rand(d0, d1, ...)`` gets its dimensions as one tuple, ``permutation`` of an int is its own
function). Arguments are evaluated once, in the call's order (numpy_lib_call.bind).

The compiled generators are their own: seeding the interpreter's `random` or `numpy.random`
does not seed compiled code, and the reverse (as in Numba).
"""

from __future__ import annotations

import ast
import functools
import sys

from script.frontend import nprandom, pyrandom
from script.frontend.numpy_lib_call import bind
from script.ir import types as T

_PYTHON = ("seed", "random", "getrandbits", "randrange", "randint", "uniform", "gauss",
           "normalvariate", "expovariate", "choice", "shuffle")
# numpy.random name -> nprandom function name
_NUMPY = {"seed": "seed", "random": "random_sample", "random_sample": "random_sample",
          "sample": "random_sample", "ranf": "random_sample", "rand": "random_sample",
          "randn": "standard_normal", "standard_normal": "standard_normal", "uniform": "uniform",
          "normal": "normal", "exponential": "exponential",
          "standard_exponential": "standard_exponential", "randint": "randint",
          "shuffle": "shuffle", "permutation": "permutation", "choice": "choice"}


def random_call(obj):
    """The lowering ``(low, node) -> Value`` of a call of `obj` when it is one of the
    functions above of `random` or `numpy.random`, else None."""
    name = getattr(obj, "__name__", None)
    module = sys.modules.get("random")
    if name in _PYTHON and module is not None and getattr(module, name, None) is obj:
        return functools.partial(_call_python, name)
    module = sys.modules.get("numpy.random")
    if name in _NUMPY and module is not None and getattr(module, name, None) is obj:
        return functools.partial(_call_numpy, name)
    return None


def _call_python(name: str, low, node: ast.Call):
    if name == "seed":
        _check_seed(low, node, "random")
    return low.call_script(low.ctx.info_for(getattr(pyrandom, name)), node)


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
    size, size_node = args.get("size", (None, None))
    if size is not None and isinstance(size.type, (T.IntType, T.BoolType)):
        low.pre_evaluated[id(size_node)] = low.make_tuple([low.coerce(size, T.I64, size_node)], size_node)
    elif size is not None and size.type == T.TupleType([]):
        low.error("a size of () (a 0-d array) is not supported in compiled code", size_node)
    return low.call_script(info, node)


def _check_seed(low, node: ast.Call, module: str) -> None:
    """Compiled code has no entropy source: a seed must be given, as an int."""
    given = node.args[0] if node.args else node.keywords[0].value if node.keywords else None
    if given is None or isinstance(given, ast.Constant) and given.value is None:
        low.error(f"{module}.seed() needs an int seed in compiled code (it cannot seed from the "
                  "system's entropy)", node)
