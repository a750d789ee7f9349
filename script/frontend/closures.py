"""Functions defined inside a compiled function: nested `def`s and lambdas bound to a name.

    def outer(a, n):
        scale = 2.0
        def f(x):                 # or: f = lambda x: x * scale + n
            return x * scale + n
        return f(a) + f(a + 1)

A nested function is compiled like any callee, with the outer variables it reads (its free
variables: `scale`, `n`) as extra leading parameters; each call passes their values at the
time of the call, which is what Python's closure cells give when the nested function does
not assign them. It may call itself and the nested functions defined before it. It is called
by name; used as a value (held in a variable or container, called later in the function that
made it) it is one of function_values.py.
Functions nest to any depth: a function's free variables include what the functions nested in
it read from outside themselves, so each level passes them on to the next (`_outside_reads`).

`nonlocal x` (`with_nonlocals`): the function also returns the final values of the variables
it declares nonlocal, after its own result, and each call stores them back into the caller's
variables — what the shared cell gives, since the function is only ever called, never kept.
Only the function that defines it (or it itself) may call such a function: a nested function
calling it would have to hand the new values on. A function nested in it that assigns a
variable of a function further out makes it assign that variable too (`_nonlocal_names`), so
the new value is handed back level by level.
"""

from __future__ import annotations

import ast
import types

from script.errors import CompileError
from script.frontend.global_writes import hidden_of
from script.frontend.source import FunctionInfo, _assigned_names, all_params, binding_annotation, lambda_as_def
from script.frontend.pyref import PyRef
from script.ir import types as T
from script.ir.core import Const, Value


class NestedFunction:
    """The compiled-code meaning of a nested function's name: what to call, with which outer
    variables first."""

    def __init__(self, info: "NestedFunctionInfo"):
        self.info = info
        self.__name__ = info.name


class DefTimeDefault:
    """A default of a nested function or lambda that is not a constant (`lambda x, i=i: ...`,
    `def g(x, scale=k)`, `acc=[]`): evaluated when the `def` or `lambda` runs, into the
    hidden local `name` of the function that makes it (`evaluate_defaults`), which a call
    omitting the argument reads (`default_value`). A function called by name is the one its
    `def` made last, whose defaults are the ones that local holds; a function value made in a
    loop would need its own, so that is refused (`refuse_def_time_defaults`)."""

    __slots__ = ("node", "name")

    def __init__(self, node: ast.expr):
        self.node = node
        self.name = f"$default:{node.lineno}:{node.col_offset}"


def def_time_defaults(info) -> list:
    return [d for d in getattr(info, "defaults", {}).values() if isinstance(d, DefTimeDefault)]


def evaluate_defaults(cx, info) -> None:
    """Where `info`'s `def` or `lambda` runs: its non-constant defaults, in source order."""
    for d in def_time_defaults(info):
        cx.assign_name(d.name, cx.expr(d.node), d.node)


def default_value(cx, info, name: str, node) -> Value:
    """The value of the def-time default of parameter `name` of `info` for a call that omits it."""
    d = info.defaults[name]
    held = getattr(cx, "def_time_values", None)
    if held and d.name in held:
        return held[d.name]             # a call of a function value holding its own (function_values.py)
    outer = getattr(info, "outer", None)
    if getattr(cx.info, "base", cx.info) is not getattr(outer, "base", outer):
        cx.error(f"the default of '{name}' of '{info.name}' is evaluated when its def or lambda runs, in "
                 f"'{getattr(outer, 'name', '?')}'; a call from elsewhere that omits it is not supported "
                 f"in compiled code: pass '{name}'", node)
    return cx.read_local(d.name, node)


def refuse_def_time_defaults(cx, info, node, how: str, why: str = "") -> None:
    """CompileError where a function with def-time defaults would be called away from the
    frame whose hidden locals hold them, or made in a loop and kept (`how` says which)."""
    found = def_time_defaults(info)
    if found:
        cx.error(f"a nested function or lambda whose default is not a constant ('{ast.unparse(found[0].node)}', "
                 f"evaluated when it is made) cannot be {how} in compiled code{why}", node)


class NestedFunctionInfo(FunctionInfo):
    """`FunctionInfo` of a nested function, built from its AST inside `outer`'s: same file,
    globals and source positions; its free variables become its first parameters."""

    def __init__(self, outer: FunctionInfo, node: ast.FunctionDef, visible: dict):
        self.py_func = outer.py_func            # globals and closure cells of the outer function
        self.outer = outer
        self.name = node.name
        self.qualname = f"{outer.qualname}.{node.name}"
        self.filename = outer.filename
        self.source = outer.source
        self.indent = outer.indent
        self.line_offset = outer.line_offset
        self.kwarg = node.args.kwarg.arg if node.args.kwarg is not None else None      # varargs.py
        self.vararg = node.args.vararg.arg if node.args.vararg is not None else None    # varargs.py
        positional = [a.arg for a in node.args.posonlyargs + node.args.args]
        own = [a.arg for a in all_params(node)]
        self.nonlocals = _nonlocal_names(node, outer)
        self.free = _free_variables(node, own, outer, visible, self.nonlocals)
        self.returns_value = any(isinstance(n, ast.Return) and n.value is not None for n in _scope_nodes(node))
        self.source_node = node         # (as written: function_values.py names it by this node)
        if self.nonlocals:
            node = with_nonlocals(node, self.nonlocals, self.returns_value)
        self.node = node
        self.first_line = outer.line_offset + node.lineno
        self.param_names = self.free + own + ([self.kwarg] if self.kwarg else [])
        self.n_positional = len(self.free) + len(positional)
        defaults = list(zip(reversed(positional), reversed(node.args.defaults)))
        defaults += [(a.arg, d) for a, d in zip(node.args.kwonlyargs, node.args.kw_defaults) if d is not None]
        self.defaults = {}
        for name, default in defaults:
            try:
                self.defaults[name] = ast.literal_eval(default)
            except ValueError:
                self.defaults[name] = DefTimeDefault(default)
            if isinstance(self.defaults[name], (list, dict, set)):
                self.defaults[name] = DefTimeDefault(default)   # a new object each time the def runs
        self.any_array_params = set()
        self.param_hints = [None] * len(self.free) + [None if a is node.args.vararg else self._annotation(
            a.arg, a.annotation) for a in all_params(node)] + ([None] if self.kwarg else [])
        self.param_types = [binding_annotation(t) for t in self.param_hints]     # source.py
        self.return_type = self._annotation("return", node.returns) if node.returns is not None else None
        self.local_names = frozenset(_assigned_names(node)) | frozenset(self.param_names)
        self.is_annotated = False
        self.specializations = {}
        # the nested functions its body may call: those defined before it, and itself; and
        # the enclosing function's, as they are when it is compiled (`siblings`: defined
        # after it, called by name when they read no variable it does not: lower_stmt.lookup)
        self.siblings = visible
        self.visible = dict(visible)
        self.visible[node.name] = NestedFunction(self)

    def global_value(self, name: str):
        """The outer function's: its globals, and the arguments a specialization binds
        (static_args.BoundFunctionInfo: `f` in `def df(x): return g(f, x)`)."""
        return self.outer.global_value(name)


_SCOPES = (ast.FunctionDef, ast.Lambda)


def _scope_nodes(node):
    """The nodes of `node`'s body in its own scope: nested functions and lambdas are yielded,
    their insides not."""
    stack = list(node.body) if isinstance(node, ast.FunctionDef) else [node.body]
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, _SCOPES):
            stack += [*n.args.defaults, *(d for d in n.args.kw_defaults if d is not None)]
            continue
        stack.extend(ast.iter_child_nodes(n))


def _params(node) -> set[str]:
    return {a.arg for a in all_params(node)}


def _declared_nonlocal(node) -> list[str]:
    """The names `node`'s own `nonlocal` statements declare."""
    names: list[str] = []
    for n in _scope_nodes(node):
        if isinstance(n, ast.Nonlocal):
            names += [name for name in n.names if name not in names]
    return names


def _nonlocal_names(node: ast.FunctionDef, outer: FunctionInfo) -> list[str]:
    """The enclosing function's variables `node` assigns: those it declares nonlocal, and those
    the functions nested in it do that are not its own locals (it hands their new values on).
    Python has checked that an enclosing function binds them and that none is a parameter."""
    names = _declared_nonlocal(node)
    local = (_params(node) | _assigned_names(node)) - set(names)
    for n in _scope_nodes(node):
        if isinstance(n, ast.Global):
            raise CompileError("'global' is not supported in a nested function", outer.loc(n))
        if isinstance(n, ast.FunctionDef):
            names += [name for name in _nonlocal_names(n, outer) if name not in local and name not in names]
    return names


def _free_variables(node: ast.FunctionDef, own: list[str], outer: FunctionInfo, visible: dict,
                    nonlocals: list[str]) -> list[str]:
    """The outer variables `node` reads or declares nonlocal (directly, through the nested
    functions it calls, or in the functions nested in it), in order of first use."""
    local = (set(own) | _assigned_names(node)) - set(nonlocals)
    free: list[str] = [name for name in nonlocals]
    for name in _outside_reads(node, local, outer, visible):
        if name in outer.local_names and name not in free:
            free.append(name)
    return free


def _outside_reads(node, local: set, outer: FunctionInfo, visible: dict) -> list[str]:
    """The names `node` (a def or a lambda whose locals are `local`) reads from enclosing
    scopes: its own reads, the free variables of the enclosing function's nested functions it
    calls, and what the functions nested in it read from outside themselves."""
    out: list[str] = []
    functions = _function_bindings(outer.node)
    for n in _scope_nodes(node):
        if isinstance(n, _SCOPES):
            inner_nonlocal = _nonlocal_names(n, outer) if isinstance(n, ast.FunctionDef) else []
            inner = _params(n) | (_assigned_names(n) if isinstance(n, ast.FunctionDef) else set())
            names = inner_nonlocal + _outside_reads(n, inner - set(inner_nonlocal), outer, visible)
            out += [name for name in names if name not in local]
            continue
        if not (isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)) or n.id in local:
            continue
        if n.id in visible and visible[n.id].info.nonlocals:
            raise CompileError(f"'{n.id}' assigns nonlocal variables: only the function that defines it "
                               "may call it in compiled code", outer.loc(n))
        if functions.get(n.id, 0) > 1:
            raise CompileError(f"'{n.id}' is bound more than once in '{outer.name}' and a function nested in "
                               "it reads it: not supported in compiled code (which would call the function "
                               "bound where the nested one is defined, not the one bound at the call); "
                               "give each function its own name", outer.loc(n))
        if n.id in visible:
            out += visible[n.id].info.free
        elif n.id not in functions:     # (a nested function defined later: lower_stmt.later_sibling)
            out += [n.id] + list(hidden_of(outer.py_func, n.id))
    return out


def _function_bindings(node) -> dict[str, int]:
    """For each name `node`'s own scope binds to a nested function (`def f`, `f = lambda ...`),
    how many times that scope binds it (to anything). No variable holds such a function, so a
    function nested in `node` that reads the name calls that function rather than taking a
    value (which compiled code would find never assigned); bound more than once, which one a
    call finds depends on when it runs."""
    functions = {n.name if isinstance(n, ast.FunctionDef) else n.targets[0].id for n in _scope_nodes(node)
                 if isinstance(n, ast.FunctionDef) or isinstance(n, ast.Assign) and isinstance(n.value, ast.Lambda)
                 and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)}
    counts = dict.fromkeys(functions, 0)
    for n in _scope_nodes(node):
        name = n.name if isinstance(n, ast.FunctionDef) else \
            n.id if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load) else None
        if name in counts:
            counts[name] += 1
    return counts


def with_nonlocals(node: ast.FunctionDef, nonlocals: list[str], returns_value: bool) -> ast.FunctionDef:
    """A copy of `node` without its `nonlocal` statements that returns the nonlocal variables'
    values after its own result (when it has one): ``return x`` becomes ``return (x, a, b)``."""
    import copy
    fn = copy.deepcopy(node)

    def values(result):
        elts = ([result if result is not None else ast.Constant(None)] if returns_value else [])
        return ast.Tuple(elts + [ast.Name(name, ast.Load()) for name in nonlocals], ast.Load())

    class Rewrite(ast.NodeTransformer):
        def visit_Nonlocal(self, n):
            return ast.copy_location(ast.Pass(), n)

        def visit_Return(self, n):
            return ast.copy_location(ast.Return(ast.copy_location(values(n.value), n)), n)

        def visit_FunctionDef(self, n):
            return n            # a function nested in it returns its own values

    fn.body = [Rewrite().visit(stmt) for stmt in fn.body]
    if not (fn.body and isinstance(fn.body[-1], ast.Return)):
        end = fn.body[-1] if fn.body else fn
        fn.body.append(ast.copy_location(ast.Return(ast.copy_location(values(None), end)), end))
    return ast.fix_missing_locations(fn)


# ---- nested `def` statements, lambdas assigned to a name, and calls of them: functions of the
# lowering (`cx`); `stmt_FunctionDef` is lower_stmt's for a `def` statement.
def stmt_FunctionDef(cx, node: ast.FunctionDef) -> None:
    for dec in node.decorator_list:
        if not is_script_decorator(cx, dec):
            cx.error("decorators on nested functions are not supported in compiled code", node)
    if not is_bound_in_order(cx.info, node.name):
        cx.error(f"'{node.name}' is bound more than once in '{cx.info.name}', not all in its own body's "
                 "statements (in a branch or a loop): not supported in compiled code for a nested function, "
                 "which would call the one defined last in the source, not the one bound when it runs; give "
                 "each function its own name", node)
    define_nested(cx, node)


def is_bound_in_order(info, name: str) -> bool:
    """Whether `name`, bound to a nested function somewhere in `info`'s function, is bound
    once, or only by statements of the function's own body (not in a branch or loop), so that
    the function a use finds when built is the one it finds when it runs. A nested function
    is a name bound when the enclosing function is built, in the order of its statements."""
    counts = info.__dict__.get("_function_binding_counts")
    if counts is None:
        counts = info.__dict__["_function_binding_counts"] = _function_bindings(info.node)
    total = counts.get(name, 0)
    if total <= 1:
        return True
    top = sum(1 for s in info.node.body if isinstance(s, ast.FunctionDef) and s.name == name
              or isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
              and s.targets[0].id == name)
    return top == total


def is_def_name(info, name: str) -> bool:
    """Whether a `def` statement of `info`'s own scope binds `name`."""
    return any(isinstance(n, ast.FunctionDef) and n.name == name for n in _scope_nodes(info.node))


def is_script_decorator(cx, dec) -> bool:
    """`@script.script` (or `@script`, with or without options) on a nested function:
    it is compiled with the outer function anyway, so the decorator changes nothing. The
    package and its `script` are known by name: the frontend does not import the package
    above it (tests/test_import_graph.py)."""
    target = dec.func if isinstance(dec, ast.Call) else dec
    if not isinstance(target, (ast.Name, ast.Attribute)):
        return False
    ref = cx.callee_ref(target)
    if not isinstance(ref, PyRef):
        return False
    obj = ref.obj
    return (isinstance(obj, types.ModuleType) and obj.__name__ == "script") or \
        (getattr(obj, "__module__", None) == "script" and getattr(obj, "__qualname__", None) == "script")


def define_nested(cx, node: ast.FunctionDef) -> None:
    if node.name in cx.info.param_names:
        cx.error(f"nested function '{node.name}' shadows a parameter", node)
    info = nested_info(cx, node)
    evaluate_defaults(cx, info)
    cx.nested_functions[node.name] = NestedFunction(info)
    share_table_defaults(cx, info)


def nested_info(cx, node: ast.FunctionDef) -> "NestedFunctionInfo":
    """The info of the nested function `node` of the function being built (made once per
    compile), seeing this build's nested functions."""
    key = (cx.info, id(node))
    info = cx.ctx.nested_infos.get(key)
    if info is None:
        info = cx.ctx.nested_infos[key] = NestedFunctionInfo(cx.info, node, cx.nested_functions)
    info.siblings = cx.nested_functions       # this build's (a cached info saw an earlier one)
    return info


def share_table_defaults(cx, info) -> None:
    """A defaultdict or Counter the nested function reads as a free variable keeps its
    default there (`d[k] += 1` in a helper inserts as in CPython: default_tables.py)."""
    names = cx.table_defaults.names
    info.free_defaults = {n: names[n] for n in info.free if n in names}


def assign_lambda(cx, target, value: ast.Lambda) -> bool:
    """`name = lambda ...`: defines a nested function; True when handled (a lambda stored
    elsewhere, `d[k] = lambda ...`, is a function value: function_values.py)."""
    define_nested(cx, lambda_def(cx, target.id, value))
    return True


def lambda_def(cx, name: str, node: ast.Lambda) -> ast.FunctionDef:
    fn = cx.ctx.lambda_defs.get(id(node))
    if fn is None:
        fn = cx.ctx.lambda_defs[id(node)] = lambda_as_def(name, node)
    return fn


def call_nested(cx, fn: NestedFunction, node: ast.Call) -> Value:
    reads = getattr(fn, "reads", None) or fn.info.free       # static_args.BoundClosure
    share_table_defaults(cx, fn.info)
    bounded = [n for n in reads if n in cx.deque_bounds.names]
    if bounded:         # the nested function would get the list without its bound
        cx.error(f"'{bounded[0]}' is a deque with a maxlen, which {fn.info.name}() reads: not supported "
                 "in compiled code (the nested function would get a list without the bound)", node)
    leading = [cx.read_local(name, node, free=True) for name in reads]
    result = cx.call_script(fn.info, node, leading=leading)
    nonlocals = getattr(fn.info, "nonlocals", ())
    if not nonlocals or not isinstance(getattr(result, "type", None), T.TupleType):
        return result
    loc = cx.loc(node)
    first = 1 if fn.info.returns_value else 0
    elems = result.type.elems
    for k, name in enumerate(nonlocals):       # the shared cells' new values
        cx.write(name, cx.emit("extract", [result], elems[first + k], first + k, loc))
    if not fn.info.returns_value:
        return Const(None, T.NONE, loc)
    return cx.emit("extract", [result], elems[0], 0, loc)
