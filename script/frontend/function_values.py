"""Nested functions and lambdas as values in the function that makes them.

    def run(n):
        k = 3
        def add(x):
            return x + k
        fs = [add, lambda x: x * 2, lambda x: x - k]    # or: g = add; ops = {"+": add, ...}
        t = 0
        for f in fs:
            t += f(n)
        return t

A nested function, lambda or module-level function used as a value (assigned where no
narrower rule takes it: closures.py, held_functions.py, dispatch_tables.py; stored in a list,
tuple or dict; passed along) is a value of type ``fn["<owner>"]``: the int64 index of that
function among the function values its owner (the compiled function whose body makes it)
makes. A call of such a value (`f(n)`, `fs[i](n)`, `ops[op](a, b)`, a `key=` of min, max and
sort: keyed.py) evaluates the callee, then its arguments once, then calls the function of
that index among the functions this specialization of the owner makes
(dispatch_tables.call_entry): each a nested function called as closures.py calls one, its
free variables read in the owner's frame at the time of the call (CPython's NameError where
one is not assigned yet), and a `nonlocal` it assigns stored back there. That is exactly what
CPython's closure cells give while the call runs in the frame that made the function,
including late binding (lambdas made in a loop all read the loop variable's last value), so
a function value stays in that frame:

- called anywhere else (a nested function, a callee it was passed to), it is a CompileError;
- passed as an argument to a compiled function (not the library's: sorted, dict.get, which
  never call one), stored in an attribute, or returned inside a container, it is a
  CompileError, except a value known when compiled (`g = add; apply(g, 3)`), which is bound
  to the callee as the function itself would be (static_args.py);
- returned itself, it becomes a closure record (below), or a CompileError saying why not;
- a lambda made inside a comprehension that reads the comprehension's variable is a
  CompileError (its cell is the comprehension's own, which compiled code does not keep);
- anything else a Python function object has (``==``, ``is``, ``print``, ``__name__``, a dict
  key, truth) is not a value of this type and is refused where it is asked for.

Every call compiles each of the functions it dispatches over for its arguments, so function
values of one owner that cannot all take the same arguments are a CompileError at the call
(keep values of different signatures in different functions). A function value first made
after a call was built rebuilds the owner (`Restart`), so every call knows them all.
"""

from __future__ import annotations

import ast

from script.frontend import closures
from script.frontend.closures import NestedFunction
from script.frontend.pyref import PyRef
from script.frontend.pymessages import unbound_free
from script.frontend.unknown import Restart, Undef
from script.frontend.source import _assigned_names, all_params
from script.ir import types as T
from script.ir.core import Const, Value

_REGISTRY = "_function_values"
_RECORD = "closure:"
_OWNERS: dict = {}          # record key -> the owner's FunctionInfo (a record's callee table)


def owner(cx) -> str:
    return cx.info.qualname


def contains_function(t, seen=None, records: bool = False) -> bool:
    """Whether a value of type `t` holds a function value anywhere inside (`records`: a
    closure record too, which any frame may call)."""
    if isinstance(t, T.FuncType):
        return records or not t.owner.startswith(_RECORD)
    if isinstance(t, (T.ClassType, T.ClassRef)):
        return False        # (fields hold no function values: `records.py` refuses the store; a
                            # recursive class's fields unfold to new type objects each time)
    seen = set() if seen is None else seen
    if id(t) in seen:
        return False
    seen.add(id(t))
    inner = list(getattr(t, "elems", ()) or ()) + list(getattr(t, "alternatives", ()) or ())
    for attr in ("elem", "value", "key"):
        v = getattr(t, attr, None)
        if isinstance(v, T.Type):
            inner.append(v)
    return any(isinstance(e, T.Type) and contains_function(e, seen, records) for e in inner)


def _entries(cx) -> list:
    """The owner's function values so far: their AST nodes (a Lambda, or a nested def's own
    FunctionDef), in tag order. Kept on the owner's info, so a rebuild knows them all."""
    return cx.info.__dict__.setdefault(_REGISTRY, [])


def _spec_tags(info, spec: str) -> list:
    """The tags the specialization `spec` (its function's name) of `info` makes, in the order
    it first made them: the functions a call dispatches over. Kept across build rounds."""
    return info.__dict__.setdefault("_spec_tags", {}).setdefault(spec, [])


def _tag_name(k: int) -> str:
    return f"$value:{k}"


class _Global:
    """A module-level function held as a value (`fs = [helper, math.sqrt]`): no frame."""

    def __init__(self, obj, name: str):
        self.obj = obj
        self.name = name


def _same(entry, fn_node) -> bool:
    if isinstance(entry, _Global):
        return isinstance(fn_node, _Global) and entry.obj is fn_node.obj
    return entry is fn_node


def _define(cx, k: int, fn_node):
    """The nested function of tag `k`, bound in this build under `$value:k` (a global
    function: the `_Global` itself)."""
    if isinstance(fn_node, _Global):
        return fn_node
    name = _tag_name(k)
    found = cx.nested_functions.get(name)
    if found is not None:
        return found
    if isinstance(fn_node, ast.Lambda):
        fn_node = closures.lambda_def(cx, "<lambda>", fn_node)
    info = closures.nested_info(cx, fn_node)
    fn = cx.nested_functions[name] = NestedFunction(info)
    closures.share_table_defaults(cx, info)
    return fn


def _in_comprehension_reads(cx, node: ast.Lambda):
    """A comprehension variable `node` (inside that comprehension) reads, else None."""
    cache = cx.info.__dict__.setdefault("_comprehension_lambdas", {})
    if not cache:
        for comp in ast.walk(cx.info.node):
            if not isinstance(comp, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
                continue
            targets = {n.id for g in comp.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)}
            for lam in ast.walk(comp):
                if isinstance(lam, ast.Lambda):
                    cache.setdefault(id(lam), set()).update(targets)
        cache.setdefault(None, set())
    targets = cache.get(id(node), set())
    params = {a.arg for a in all_params(node)}
    for n in ast.walk(node.body):
        if isinstance(n, ast.Name) and n.id in targets and n.id not in params:
            return n.id
    return None


def make(cx, fn_node, at) -> Value:
    """The value of the nested function or lambda `fn_node` (a Lambda, or a nested def's own
    FunctionDef) made at `at`."""
    if isinstance(fn_node, ast.Lambda):
        read = _in_comprehension_reads(cx, fn_node)
        if read is not None:
            cx.error(f"a lambda made in a comprehension that reads its variable '{read}' is not supported "
                     "in compiled code (CPython's lambdas share the comprehension's cell and all see its last "
                     "value): make the lambdas in a for loop, or bind the value as a default ('lambda x, "
                     f"{read}={read}: ...')", fn_node)
    entries = _entries(cx)
    for k, n in enumerate(entries):
        if _same(n, fn_node):
            break
    else:
        k = len(entries)
        entries.append(fn_node)
    tags = _spec_tags(cx.info, cx.func.name)
    if k not in tags:
        tags.append(k)
        if getattr(cx, "_function_values_called", False):
            raise Restart()         # (a call built before it did not dispatch to it)
    fn = _define(cx, k, fn_node)
    if not isinstance(fn, _Global) and closures.def_time_defaults(fn.info):
        if isinstance(fn_node, ast.Lambda):
            closures.evaluate_defaults(cx, fn.info)     # (a def's ran at the def)
        if _in_loop(cx.info.node, fn_node):
            if fn.info.free or fn.info.nonlocals:
                closures.refuse_def_time_defaults(cx, fn.info, at, "made in a loop or comprehension and kept "
                                                  "as a value", f" when it also reads a variable of "
                                                  f"'{cx.info.name}' ('{(fn.info.free or fn.info.nonlocals)[0]}')")
            return _default_record(cx, k, fn, at)
    return cx.emit("convert", [Const(k, T.I64)], T.FuncType(owner(cx)), None, cx.loc(at))


def _default_record(cx, k: int, fn: NestedFunction, at) -> Value:
    """The value of function `k` made in a loop, with def-time defaults and no free variable
    (`[lambda x, i=i: x + i for i in range(n)]`): a record of its own (tag `closure:<spec>#k`)
    holding the defaults this one was made with, which each call of it passes
    (`call_record`); records of two such functions are of different types."""
    key = f"{_RECORD}{cx.func.name}#{k}"
    _OWNERS[key] = cx.info
    loc = cx.loc(at)
    tag = cx.emit("convert", [Const(k, T.I64)], T.FuncType(key), None, loc)
    elems = [tag] + [cx.read_local(d.name, at) for d in closures.def_time_defaults(fn.info)]
    return cx.emit("tuple", elems, T.TupleType([e.type for e in elems]), None, loc)


def _record_info(cx, owner_info, fn_node):
    """The info of the nested def or lambda `fn_node` of `owner_info`, called through a record
    away from its owner's build (made once per compile)."""
    if isinstance(fn_node, ast.Lambda):
        fn_node = closures.lambda_def(cx, "<lambda>", fn_node)
    key = (owner_info, id(fn_node))
    info = cx.ctx.nested_infos.get(key)
    if info is None:
        info = cx.ctx.nested_infos[key] = closures.NestedFunctionInfo(owner_info, fn_node, {})
    return info


def _call_default_record(cx, record: Value, owner_info, spec: str, k: int, node) -> Value:
    """A call of a `_default_record`: function `k` of `owner_info`, its omitted def-time
    defaults the record's."""
    info = _record_info(cx, owner_info, owner_info.__dict__[_REGISTRY][k])
    loc = cx.loc(node)
    given = {d.name: cx.emit("extract", [record], record.type.elems[1 + i], 1 + i, loc)
             for i, d in enumerate(closures.def_time_defaults(info))}
    saved = getattr(cx, "def_time_values", None)
    cx.def_time_values = given
    try:
        return cx.call_script(info, node)
    finally:
        cx.def_time_values = saved


_LOOPS = (ast.For, ast.While, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _in_loop(owner_node, fn_node) -> bool:
    """Whether the def or lambda `fn_node` (or the def made of a lambda, at its position)
    lies in a loop or comprehension of the function `owner_node`."""
    where = (fn_node.lineno, fn_node.col_offset)

    def visit(node, looped: bool) -> bool | None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Lambda, ast.FunctionDef)) and (child.lineno, child.col_offset) == where:
                return looped or isinstance(node, _LOOPS)
            if isinstance(child, (ast.Lambda, ast.FunctionDef, ast.ClassDef)):
                continue
            found = visit(child, looped or isinstance(node, _LOOPS) and child is not getattr(node, "iter", None))
            if found is not None:
                return found
        return None
    return bool(visit(owner_node, False))


def nested_value(cx, fn: NestedFunction, at) -> Value:
    """The value of a nested function named where a value is wanted (`g = add`)."""
    node = getattr(fn.info, "source_node", None)
    if node is None or getattr(fn.info, "outer", None) is not cx.info:     # (a function passed in: static_args)
        cx.error(f"'{fn.info.name}' (a nested function) cannot be used as a value here", at)
    return make(cx, node, at)


def is_global_function(obj) -> bool:
    """A module-level function a value may name: a def or lambda, an @script function, a
    builtin of a module (math.sqrt, abs)."""
    import types
    if isinstance(obj, types.BuiltinFunctionType):
        return obj.__self__ is None or isinstance(obj.__self__, types.ModuleType)
    return isinstance(obj, types.FunctionType) or type(obj).__name__ == "Function" and hasattr(obj, "py_func")


def global_value(cx, obj, name: str, at) -> Value:
    """The value of the module-level function `obj` named where a value is wanted."""
    return make(cx, _Global(obj, name), at)


def static_of(cx, v: Value):
    """The nested function a function value known when compiled stands for, else None."""
    if not isinstance(getattr(v, "type", None), T.FuncType) or v.type.owner != owner(cx) \
            or getattr(getattr(v, "op", None), "name", None) != "convert" or not isinstance(v.operands[0], Const):
        return None
    k = v.operands[0].value
    found = _define(cx, k, _entries(cx)[k])
    return found.obj if isinstance(found, _Global) else found


def _accepts(fn, node: ast.Call) -> bool:
    """Whether the function `fn` (a NestedFunction or _Global) takes the call's arguments
    (by count and name; a builtin: left to its call)."""
    if isinstance(fn, _Global):
        import inspect
        try:
            sig = inspect.signature(getattr(fn.obj, "py_func", fn.obj))
        except (TypeError, ValueError):
            return True
        try:
            sig.bind(*node.args, **{k.arg: k.value for k in node.keywords})
        except TypeError:
            return False
        return True
    fn = fn.info.node
    positional = [a.arg for a in fn.args.posonlyargs + fn.args.args]
    given = len(node.args)
    if given > len(positional) and fn.args.vararg is None:
        return False
    names = set(positional[given:]) | {a.arg for a in fn.args.kwonlyargs}
    if any(k.arg not in names and fn.args.kwarg is None for k in node.keywords):
        return False
    bound = set(positional[:given]) | {k.arg for k in node.keywords}
    required = [a for a in positional[:len(positional) - len(fn.args.defaults)] if a not in bound]
    required += [a.arg for a, d in zip(fn.args.kwonlyargs, fn.args.kw_defaults) if d is None and a.arg not in bound]
    return not required


def call(cx, callee: Value, node: ast.Call) -> Value:
    """`callee(...)` of a function value (the module's doc)."""
    from script.frontend.dispatch_tables import call_entry
    if any(isinstance(a, ast.Starred) for a in node.args):
        cx.error("a call of a function held in a variable or container with *args is not supported in "
                 "compiled code", node)
    if callee.type.owner != owner(cx):
        cx.error(f"a function value made in '{callee.type.owner}' is called here, in '{owner(cx)}': compiled code "
                 "calls a nested function or lambda held in a variable or container only in the function that "
                 "made it", node)
    cx._function_values_called = True
    fns = []
    tags = list(_spec_tags(cx.info, cx.func.name))
    for k in tags:
        fn = _define(cx, k, _entries(cx)[k])
        if not _accepts(fn, node):
            what = f"'{fn.name}'" if isinstance(fn, _Global) else f"'{fn.info.name}' at line {fn.info.first_line}"
            cx.error(f"the functions '{owner(cx)}' holds as values do not all take the arguments of this call "
                     f"({what} does not): not supported in compiled code, which compiles each of them for every "
                     "such call", node)
        made = cx.info.__dict__.setdefault("_value_callees", {})     # (kept alive: pre_evaluated is by id)
        name = made.get((id(node), k))
        if name is None:
            name = made[(id(node), k)] = ast.copy_location(ast.Name(_tag_name(k), ast.Load()), node)
        if isinstance(fn, _Global):
            cx.pre_evaluated[id(name)] = PyRef(fn.obj, fn.name)     # (lookup finds it: lower_stmt.py)
        fns.append(name)
    which = cx.emit("convert", [callee], T.I64, None, cx.loc(node))
    loc = cx.loc(node)

    def call_one(i, call):
        fn = cx.nested_functions.get(fns[i].id) if fns[i].id in cx.nested_functions else None
        for name in getattr(getattr(fn, "info", None), "free", ()):
            d = cx.read("$def:" + name, loc)
            if isinstance(d, Undef) or isinstance(d, Const) and not d.value:    # (not assigned yet here)
                return cx.raise_always("NameError", unbound_free(name), call)
        return cx.expr_num(call)
    return call_entry(cx, which, fns, node, call_one=call_one, tags=tags)


# ---- closure records: function values that leave their owner's frame.
#
# A function value returned by its owner (`def make_adder(k): return lambda x: x + k`) is a
# record: the tuple of its index (of type ``fn["closure:<module>:<owner>"]``) and the values
# of the variables all of the owner's function values read, taken when it returns. That is
# CPython's answer only where those cells never change after the function is made: so every
# variable they read must be a parameter the owner never assigns (nor a nested function
# does: `nonlocal`), and none may call another of the owner's nested functions by name. A
# record is called in any frame (its captured values are its own), passed, stored and
# returned further; it is never given to Python.

def is_record(t) -> bool:
    return isinstance(t, T.TupleType) and type(t) is T.TupleType and bool(t.elems) \
        and isinstance(t.elems[0], T.FuncType) and t.elems[0].owner.startswith(_RECORD)


def _captured(cx) -> list:
    """The variables a record of the owner being built holds, or a CompileError naming why
    the owner's function values cannot leave it."""
    from script.frontend.closures import _function_bindings
    owner_node = cx.info.node
    assigned = _assigned_names(owner_node)
    siblings = set(_function_bindings(owner_node))
    names: list = []
    for k in _spec_tags(cx.info, cx.func.name):
        fn = _define(cx, k, _entries(cx)[k])
        if isinstance(fn, _Global):
            continue
        info = fn.info
        if closures.def_time_defaults(info):
            return f"'{info.name}' has a default that is not a constant, evaluated when it is made"
        if info.nonlocals:
            return f"'{info.name}' assigns the variable '{info.nonlocals[0]}' of '{cx.info.name}' (nonlocal)"
        called = {n.id for n in ast.walk(info.node) if isinstance(n, ast.Name)} & (siblings - {info.name})
        if called:
            return f"'{info.name}' names the nested function '{sorted(called)[0]}' of '{cx.info.name}'"
        for name in info.free:
            if name in getattr(cx.info, "free", ()):
                why = f"a variable of a function around '{cx.info.name}'"
            elif name not in cx.info.param_names or name in assigned:
                why = f"which '{cx.info.name}' assigns"
            else:
                if name not in names:
                    names.append(name)
                continue
            return f"'{info.name}' reads '{name}', {why} (CPython's closure sees its value at the time of the call)"
    return names


def escape(cx, value: Value, node, how: str = "returned") -> Value:
    """`value` about to be returned (or passed to a compiled function: `how`): a function
    value of this owner as its record (above)."""
    if not isinstance(getattr(value, "type", None), T.FuncType) or value.type.owner != owner(cx):
        return value
    names = _captured(cx)
    if isinstance(names, str):
        cx.error(f"a nested function or lambda cannot be {how} here in compiled code: {names}; a closure "
                 f"{how} from compiled code may read only parameters its function never assigns", node)
    if how != "returned":
        cx._function_values_called = True       # (the callee dispatches over what is made so far)
    key = _RECORD + cx.func.name        # (per specialization: the functions it makes)
    _OWNERS[key] = cx.info
    loc = cx.loc(node)
    tag = cx.emit("convert", [cx.emit("convert", [value], T.I64, None, loc)], T.FuncType(key), None, loc)
    elems = [tag] + [cx.read_local(name, node) for name in names]
    for name, v in zip(names, elems[1:]):
        if not isinstance(v, Value) or isinstance(v.type, T.FuncType):
            cx.error(f"a nested function or lambda that reads '{name}' (a function) cannot be returned in "
                     "compiled code", node)
    cx.info.__dict__.setdefault("_record_names", {})[cx.func.name] = names
    return cx.emit("tuple", elems, T.TupleType([e.type for e in elems]), None, loc)


def call_record(cx, record: Value, node: ast.Call) -> Value:
    """`record(...)`: its owner's function of its index, given the record's captured values."""
    from script.frontend.dispatch_tables import call_entry
    key = record.type.elems[0].owner
    spec = key[len(_RECORD):]
    owner_info = _OWNERS.get(key)
    if owner_info is None or any(isinstance(a, ast.Starred) for a in node.args):
        cx.error("this call of a closure returned from compiled code is not supported in compiled code", node)
    if "#" in spec:         # a function made in a loop with its own defaults (`_default_record`)
        spec, k = spec.split("#")
        return _call_default_record(cx, record, owner_info, spec, int(k), node)
    for b in cx.ctx.in_progress.values():
        if getattr(getattr(b, "func", None), "name", None) == spec:
            b._function_values_called = True    # (its factory is being built: one it makes later rebuilds it)
    names = owner_info.__dict__.get("_record_names", {}).get(spec, [])
    tags = list(_spec_tags(owner_info, spec))
    loc = cx.loc(node)
    captured = {name: cx.emit("extract", [record], record.type.elems[1 + i], 1 + i, loc)
                for i, name in enumerate(names)}
    calls = []
    for k in tags:
        fn_node = owner_info.__dict__[_REGISTRY][k]
        if isinstance(fn_node, _Global):
            fn = fn_node
        else:
            fn = NestedFunction(_record_info(cx, owner_info, fn_node))
        if not _accepts(fn, node):
            cx.error(f"the closures '{owner_info.name}' returns do not all take the arguments of this call: not "
                     "supported in compiled code, which compiles each of them for every such call", node)
        calls.append(fn)

    def call_one(i, call):
        fn = calls[i]
        if isinstance(fn, _Global):
            return cx.call_script(cx.ctx.info_for(fn.obj), call) if cx.ctx.script_info(fn.obj) is None \
                else cx.call_script(cx.ctx.script_info(fn.obj), call)
        return cx.call_script(fn.info, call, leading=[captured[name] for name in fn.info.free])
    which = cx.emit("convert", [cx.emit("extract", [record], record.type.elems[0], 0, loc)], T.I64, None, loc)
    names_ = [ast.copy_location(ast.Name(f"$record:{k}", ast.Load()), node) for k in tags]
    return call_entry(cx, which, names_, node, call_one=call_one, tags=tags)


def refuse_escape(cx, t, node, how: str) -> None:
    """A CompileError when a value of type `t` holds a function value and `how` (returned,
    passed to a compiled function) would take it out of its owner's frame."""
    if contains_function(t):
        cx.error(f"a nested function or lambda held as a value cannot be {how} in compiled code (it reads "
                 "the variables of the function that made it when it is called, which compiled code keeps "
                 "only while that function runs); call it there, or pass the function itself by name to a "
                 "compiled helper", node)
