"""Results of the Python classes compiled code holds as plain dicts and lists: a `Counter`,
`defaultdict` or `OrderedDict` (a dict in compiled code), a `deque` (a list).

Returned to Python, the plain dict or list would be another answer than CPython's: its repr,
its type, and a missing key (`KeyError` in the caller where a Counter gives 0). So each
`return` records which class CPython's value has (`note_return`, on the IR function being
built, and what a call of a user function gives, `note_call`); for the function called from
Python, `entry_wrapper` puts a small function in front of it that hands the result (or the
parts of a returned tuple) to the entry point as a one-field named tuple of a class of
script.pyhooks.python_classes, whose `_make` makes CPython's object of the boxed dict or
list (`Counter(d)`, `defaultdict(int, d)`, `deque(xs)`, ...). Being IR (a named tuple type
naming the class by key), it is saved, cached and loaded with the rest of the module.

A class is recorded only where the code shows it: the value is made there
(`Counter(...)`, `collections.OrderedDict()`), is a name every assignment of which in the
function makes one of the same class (or that default_tables.py tracks), or is returned by
a compiled function every return of which gives one. Returns that mix such a class with
other values, a defaultdict whose factory is not a builtin type or collections class (a
lambda, a function: its object is the caller's), and a deque with a `maxlen` are a
CompileError at the `return` when the function is called from Python. Elsewhere (a Counter
in a returned list, a dict value) the value stays a plain dict: docs/differences.md.
"""

from __future__ import annotations

import ast
import collections
import sys
import types
import weakref

from script.errors import CompileError
from script.frontend.table_args import MISSING, global_object
from script.lib.python import collectionslib
from script.ir import types as T
from script.ir.core import Const, Function, Instr
from script.pyhooks.named_instance import lookup_class
from script.pyhooks.python_classes import FACTORIES, MODULE
from script.frontend import ast_order, container_text, default_tables

_CLASSES = {collections.Counter: "Counter", collections.OrderedDict: "OrderedDict",
            collections.deque: "deque", collections.defaultdict: "defaultdict"}
# A dict's views as values (`return d.keys()`, `print(d.items())`): lists in compiled code.
VIEWS = {"dict_keys": type({}.keys()), "dict_values": type({}.values()), "dict_items": type({}.items())}
_LISTS = ("deque", *VIEWS)          # the kinds compiled code holds as lists (the rest as dicts)


class Refused:
    """A return whose class cannot be given to Python, with the reason."""

    __slots__ = ("why",)

    def __init__(self, why: str):
        self.why = why

    def __eq__(self, other):
        return isinstance(other, Refused) and other.why == self.why

    def __hash__(self):
        return hash(self.why)


def note_view(low, node: ast.Call, what: str) -> None:
    """`node` (`d.keys()`, `d.values()`, `d.items()` of a dict) made a list that stands for
    the view: `_class_of` knows it as "dict_keys", ... ."""
    low.dict_views[id(node)] = "dict_" + what
    _refuse_held_view(low, node, what)


def view_kind(low, node: ast.expr) -> str | None:
    """"dict_keys", "dict_values" or "dict_items" where `node` gives a dict's view."""
    kind = _class_of(low, node) if low.dict_views else None
    return kind if kind in VIEWS else None


_MUTATORS = frozenset({"clear", "pop", "popitem", "setdefault", "update", "__setitem__", "__delitem__"})


def _refuse_held_view(low, node: ast.Call, what: str) -> None:
    """CompileError where `node`'s view is assigned to a name and the function changes the
    dict after (a store, `del`, or a method that changes it, on the same expression, later in
    the source or in a loop around the assignment): a view sees those changes, the list
    compiled code holds for it does not."""
    parents = ast_order.parents(low)
    parent = parents.get(id(node))
    if not (isinstance(parent, (ast.Assign, ast.AnnAssign)) and parent.value is node):
        return
    base = ast.dump(node.func.value)
    loop, up = None, parent                 # the outermost loop around the assignment
    while up is not None:
        loop = up if isinstance(up, (ast.For, ast.While, ast.AsyncFor)) else loop
        up = parents.get(id(up))
    start = (parent.lineno, parent.col_offset)
    again = {id(n) for n in ast.walk(loop)} if loop is not None else set()     # run again after it
    for n in ast.walk(low.info.node):
        target = n.value if isinstance(n, ast.Subscript) and not isinstance(n.ctx, ast.Load) else \
            n.func.value if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and \
            n.func.attr in _MUTATORS else None
        if target is not None and ((n.lineno, n.col_offset) > start or id(n) in again) and \
                ast.dump(target) == base:
            low.error(f"a view of a dict held in a name ('{ast.unparse(parent)}') while the dict changes is "
                      f"not supported in compiled code, which holds a copy of its {what}: use it where it "
                      "is made, or hold list(...) of it", node)


def view_compare(low, op: ast.cmpop, a, b, node: ast.Compare):
    """`a == b`, `a != b` where a side is a dict's view (a list here), as CPython compares
    them: a keys or items view equals another such view or a set with the same elements,
    nothing else; a values view equals nothing (it compares by identity). None where no
    side is a view."""
    if len(node.ops) != 1 or not isinstance(op, (ast.Eq, ast.NotEq)) or not low.dict_views:
        return None
    kinds = [_class_of(low, side) for side in (node.left, node.comparators[0])]
    for side, kind in zip((node.left, node.comparators[0]), kinds):
        if isinstance(kind, Refused) and any(view in kind.why for view in VIEWS):
            low.error(f"'{ast.unparse(side)}' ({kind.why}) is not compared in compiled code: CPython compares "
                      "a dict's view otherwise than a list", side)
    if not any(k in VIEWS for k in kinds):
        return None
    set_like = [k in ("dict_keys", "dict_items") or isinstance(getattr(v, "type", None), T.SetType)
                for k, v in zip(kinds, (a, b))]
    if "dict_values" in kinds or not all(set_like):
        return Const(isinstance(op, ast.NotEq), T.BOOL)
    equal = low.call_script(low.ctx.info_for(collectionslib.view_equal),
                            ast.Call(ast.Name("view_equal", ast.Load()), [], []), leading=(a, b))
    return equal if isinstance(op, ast.Eq) else low.emit("not", [equal], T.BOOL, None, low.loc(node))


def note_return(low, node: ast.Return) -> None:
    """Record on the function being built the class of what this `return` gives (None for a
    value that is the plain dict, list or other value compiled code holds)."""
    if node.value is None or low.gen_active is not None:
        return
    low.func.__dict__.setdefault("returned_classes", []).append((_class_of(low, node.value), low.loc(node)))


def note_call(low, callee: Function, node: ast.Call) -> None:
    """After a call of compiled function `callee`: the class of its result, when every
    return of the callee gives the same one (`_class_of` of the call then finds it)."""
    kinds = {k for k, _ in getattr(callee, "returned_classes", ())}
    if len(kinds) == 1:
        low.call_classes[id(node)] = kinds.pop()


_COUNTER_OPS = (ast.Add, ast.Sub, ast.BitOr, ast.BitAnd)       # of two Counters: a Counter


def _class_of(low, node: ast.expr, seen: frozenset = frozenset()):
    """The class name (script.pyhooks.python_classes) of the value of `node`, a tuple of
    them for a tuple display, a `Refused`, or None. `seen`: the names being looked through
    (`x = y` and `y = x` each name the other's values)."""
    if isinstance(node, ast.Tuple):
        parts = tuple(_class_of(low, e, seen) for e in node.elts)
        return parts if any(p is not None for p in parts) else None
    if isinstance(node, (ast.IfExp, ast.BoolOp)):       # `a if c else b`, `a or b`: either one
        kinds = {_class_of(low, e, seen) for e in ((node.body, node.orelse) if isinstance(node, ast.IfExp)
                                                    else node.values)}
        if len(kinds) > 1:
            return Refused(f"a {_name(kinds)} on some paths and other values on others")
        return kinds.pop()
    if isinstance(node, ast.BinOp) and isinstance(node.op, _COUNTER_OPS) and \
            _class_of(low, node.left, seen) == _class_of(low, node.right, seen) == "Counter":
        return "Counter"                                # `a + b`, `a - b`, `a | b`, `a & b`
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and \
            _class_of(low, node.left, seen) == _class_of(low, node.right, seen) == "deque":
        return "deque"                                  # `q + r`
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult) and \
            "deque" in (_class_of(low, node.left, seen), _class_of(low, node.right, seen)):
        return "deque"                                  # `q * 2`, `2 * q`
    default = default_tables.table_default_of(low, node)
    if default is not None:
        return "Counter" if default[0] == "Counter" else _defaultdict(low, default[1])
    if isinstance(node, ast.Attribute):
        return _field_class(low, node)                  # `self.q` of a class whose methods make a deque
    if isinstance(node, ast.Subscript):
        return _value_class(low, node.value)            # `d[k]` of a defaultdict(deque)
    if isinstance(node, ast.Call) and id(node) in low.dict_views:
        return low.dict_views[id(node)]                 # `d.keys()` as a value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "copy" and \
            not node.args and not node.keywords:            # `c.copy()` of a Counter, deque, ...: the same class
        kind = _class_of(low, node.func.value, seen)
        if kind is not None:
            return kind
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "fromkeys" and \
            _callee_class(low, node.func.value) == "OrderedDict":
        return "OrderedDict"                                # `OrderedDict.fromkeys(xs)`
    if isinstance(node, ast.Call):
        made = _callee_class(low, node.func)
        if made == "defaultdict":
            return _defaultdict(low, node.args[0] if node.args else None)
        if made == "deque" and (len(node.args) > 1 or node.keywords):
            return Refused("a deque with a maxlen")
        if made is not None:
            return made
        return low.call_classes.get(id(node))
    if isinstance(node, ast.Name):
        if node.id in low.deque_bounds.names:
            return Refused("a deque with a maxlen")
        if node.id in seen:
            return None
        seen = seen | {node.id}
        kinds = {_class_of(low, v, seen) for v in _assignments(low).get(node.id, ())}
        if len(kinds) > 1 and kinds != {None}:
            return Refused(f"'{node.id}', assigned a {_name(kinds)} and other values")
        return kinds.pop() if kinds else None
    return None


def _value_class(low, table: ast.expr):
    """"deque" or "OrderedDict" where `table` is a defaultdict of them (its values are
    made by the factory), else None."""
    default = default_tables.table_default_of(low, table)
    kind = _defaultdict(low, default[1]) if default is not None and default[0] != "Counter" else None
    factory = kind.split("~", 1)[1] if isinstance(kind, str) else None
    return factory if factory in ("deque", "OrderedDict") else None


_ASSIGNMENTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()   # function node -> {name: [values]}


def _assignments(low) -> dict:
    """{name: the expressions the function's assignments give it}, once per function's AST:
    the value of `x = value`, the matching part of a tuple display unpacked (`a, b = deque(),
    deque()`), or, for any other unpacking, the target itself (a value of no known class)."""
    tree = low.info.node
    found = _ASSIGNMENTS.get(tree)
    if found is None:
        found = _ASSIGNMENTS[tree] = {}
        for n in ast.walk(tree):
            if isinstance(n, (ast.Assign, ast.AnnAssign)) and n.value is not None:
                for target in (n.targets if isinstance(n, ast.Assign) else [n.target]):
                    _assign(found, target, n.value)
    return found


def _assign(found: dict, target: ast.expr, value: ast.expr) -> None:
    if isinstance(target, ast.Name):
        found.setdefault(target.id, []).append(value)
    elif isinstance(target, (ast.Tuple, ast.List)):
        if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts) and \
                not any(isinstance(e, ast.Starred) for e in target.elts):
            for t, e in zip(target.elts, value.elts):
                _assign(found, t, e)
        else:
            for n in ast.walk(target):
                if isinstance(n, ast.Name):
                    found.setdefault(n.id, []).append(target)


def is_deque(low, node: ast.expr) -> bool:
    """Whether `node` evaluates to a deque (bounded or not), as far as the function's source
    shows. A deque is a list in compiled code; its messages and the operations it lacks
    (slices, `sort`, `pop(i)`) are CPython's deque's where this holds (lists.py)."""
    if isinstance(node, ast.Name) and node.id in low.deque_bounds.names:
        return True
    if "deque" not in _classes_made(low) and "deque" not in low.call_classes.values() and \
            not isinstance(node, ast.Attribute) and not (isinstance(node, ast.Subscript) and low.table_defaults.names):
        return False        # (the common case, without a walk of the function per subscript)
    kind = _class_of(low, node)
    return kind == "deque" or isinstance(kind, Refused) and "deque" in kind.why


_BY_NAME = {**{name: cls for cls, name in _CLASSES.items()}, **VIEWS}


def source_class(low, node: ast.expr, cls: type) -> type:
    """The class CPython's value of `node` has, for `isinstance` and `type()`, where compiled
    code holds a list or dict (`cls`): a deque, Counter, OrderedDict or defaultdict where the
    source shows one (`_class_of`), else `cls`. CompileError where it shows one on some paths
    only."""
    if cls not in (list, dict) or not (isinstance(node, (ast.Attribute, ast.Subscript)) or _may_hold(low)):
        return cls
    kind = _class_of(low, node)
    if isinstance(kind, Refused):
        low.error(f"the class of '{ast.unparse(node)}' ({kind.why}) is not known in compiled code", node)
    if isinstance(kind, str):
        return _BY_NAME[kind.split("~", 1)[0]]
    return cls


def is_ordered_dict(low, node: ast.expr) -> bool:
    """Whether `node` evaluates to an OrderedDict, as far as the function's source shows
    (`==` of two compares their order too)."""
    if "OrderedDict" not in _classes_made(low) and "OrderedDict" not in low.call_classes.values() and \
            not isinstance(node, (ast.Attribute, ast.Subscript)):
        return False
    return _class_of(low, node) == "OrderedDict"


_MADE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()     # function node -> class names


def _may_hold(low) -> bool:
    """Whether the function may hold one of the classes or a dict's view anywhere: made here,
    given by a callee or a caller (table_args), named; else no expression needs asking."""
    return bool(low.dict_views or low.deque_bounds.names or low.call_classes or low.table_defaults.names
                or _classes_made(low))


def _classes_made(low) -> frozenset:
    """The classes ("Counter", "deque", ...) the function calls anywhere (`Counter(...)`),
    once per function's AST."""
    tree = low.info.node
    made = _MADE.get(tree)
    if made is None:
        made = _MADE[tree] = frozenset(_callee_class(low, n.func) for n in ast.walk(tree)
                                       if isinstance(n, ast.Call)) - {None}
    return made


# ---- text -----------------------------------------------------------------------------------


def note_read(low, node: ast.expr, value) -> None:
    """After expression `node` gave `value` (a name read, `Counter(s)`, `a + b`, `dd[k]`):
    remember it for a dict or list value, where the function may hold one of the classes
    (made here, given by a callee or a caller: table_args), so that `class_text` can find
    the class its source shows."""
    if isinstance(value.type, (T.DictType, T.ListType)) and (isinstance(node, ast.Attribute) or _may_hold(low)):
        low.read_names[id(value)] = (value, node)
        if default_tables.stored_into(low, node, fields=True):
            _refuse_stored(low, node)


def _refuse_stored(low, node: ast.expr) -> None:
    """CompileError where a value of one of the classes goes into a container (`[q]`,
    `xs.append(q)`, `d[k] = OrderedDict()`): compiled code knows a class by the name or call
    that holds or makes it, so there it would be a plain list or dict, written, compared and
    returned as one. (Counters and defaultdicts made here are refused where they are made:
    default_tables.refuse_lost_default.)"""
    kind = _class_of(low, node)
    if isinstance(kind, Refused):
        kind = next((k for k in _CLASSES.values() if k in kind.why), None)
    if isinstance(kind, str):
        kind = kind.split("~", 1)[0]
        plain = "list" if kind in _LISTS else "dict"
        low.error(f"{'an' if kind[0] in 'AEIOU' else 'a'} {kind} stored in a container or an attribute is not "
                  "supported in compiled code "
                  f"(it would be a plain {plain} there, written, compared and returned as one)", node)


def class_text(low, v, node):
    """str(v) (and repr(v), the same) of a dict or list value read through a name that holds
    a Counter, defaultdict, OrderedDict or deque: CPython's text (container_text's helpers,
    `Counter({'a': 2})` in most_common order, `deque([1], maxlen=3)`); None where the source
    does not show one. CompileError where it shows one CPython would write otherwise than
    compiled code can (a defaultdict of a function or of Counters; a name holding a Counter
    on some paths only)."""
    read = low.read_names.get(id(v))
    if read is None or read[0] is not v:
        return None
    name = read[1]
    if isinstance(name, ast.Name) and name.id in low.deque_bounds.names:
        maxlen = low.read(low.deque_bounds.names[name.id], low.loc(node))
        return low.str_lib(container_text.bounded_deque_text, [v, maxlen], node)
    kind = _class_of(low, name)
    if kind is None:
        return None
    if isinstance(kind, Refused) or isinstance(kind, tuple):
        why = kind.why if isinstance(kind, Refused) else "a tuple"
        low.error(f"str() of '{ast.unparse(name)}' ({why}) is not supported in compiled code: CPython's "
                  "text names the class, which compiled code does not know here", node)
    if kind == "Counter":
        return low.str_lib(container_text.counter_text, [v], node)
    if kind == "OrderedDict":
        text = container_text.ordered_dict_text_312 if sys.version_info >= (3, 12) else container_text.ordered_dict_text
        return low.str_lib(text, [v], node)
    if kind == "deque":
        return low.str_lib(container_text.deque_text, [v], node)
    if kind in VIEWS:
        return low.str_lib(getattr(container_text, kind + "_text"), [v], node)
    factory = kind.split("~", 1)[1]
    if factory in ("Counter", "OrderedDict", "deque", "defaultdict"):
        low.error(f"str() of a defaultdict of {factory} values is not supported in compiled code "
                  "(its values are plain dicts and lists there, written without their class)", node)
    return low.str_lib(container_text.defaultdict_text, [v, low.str_constant(repr(FACTORIES[factory]), node)], node)


# Methods a list and a deque run alike (an unbounded one: bounded ones are refused as
# arguments, bounded_deques.py); `pop`, `remove`, `index`, `sort`, `copy` are not among them.
_DEQUE_AS_LIST = frozenset({"append", "appendleft", "popleft", "extend", "extendleft", "clear",
                            "rotate", "count", "insert"})


def reject_deque_arguments(low, info, node: ast.Call) -> None:
    """A deque passed to compiled function `info` is a CompileError at the argument unless
    the callee only uses that parameter as a list and a deque behave alike: the methods of
    `_DEQUE_AS_LIST`, `len`, `in`, loops and truth tests. The callee gets a list, so an
    index, a slice, `pop`, `sort`, or the parameter passed on, returned, stored or renamed
    (after which no one knows it is a deque) could answer as a list where CPython's deque
    raises or says something else."""
    params = list(info.param_names)
    given = [(params[i] if i < len(params) else None, a) for i, a in enumerate(node.args)]
    given += [(k.arg, k.value) for k in node.keywords]
    for name, arg in given:
        if name is not None and not isinstance(arg, ast.Starred) and is_deque(low, arg) \
                and not _used_as_deque_and_list_alike(info.node, name):
            low.error(
                f"a deque passed to {info.name}() as '{name}', which uses it other than by append, "
                f"popleft, extend, len, in, a loop or a truth test: compiled code passes a deque as "
                f"a list, whose indexing errors, slices, pop and sort differ from a deque's; do that "
                f"where the deque is made, or pass list(...)", arg)


def _used_as_deque_and_list_alike(fn: ast.FunctionDef, name: str) -> bool:
    """Whether every use of parameter `name` in `fn` is one where a list and a deque agree."""
    parents = {id(child): parent for parent in ast.walk(fn) for child in ast.iter_child_nodes(parent)}
    for n in ast.walk(fn):
        if not (isinstance(n, ast.Name) and n.id == name) or n is fn:
            continue
        if not isinstance(n.ctx, ast.Load):
            return False
        up = parents.get(id(n))
        if isinstance(up, ast.Attribute) and up.attr in _DEQUE_AS_LIST:
            call = parents.get(id(up))
            if isinstance(call, ast.Call) and call.func is up:
                continue
        if isinstance(up, ast.Call) and isinstance(up.func, ast.Name) and up.func.id == "len" and up.args == [n]:
            continue
        if isinstance(up, (ast.For, ast.comprehension)) and up.iter is n:
            continue
        if isinstance(up, ast.Compare) and n in up.comparators \
                and all(isinstance(op, (ast.In, ast.NotIn)) for op in up.ops):
            continue
        if isinstance(up, ast.BoolOp):
            up = parents.get(id(up))        # (`while q and ...`: the test's value is not kept)
            if not isinstance(up, (ast.If, ast.While, ast.UnaryOp)):
                return False
        if isinstance(up, (ast.If, ast.While)) and up.test is not n and not isinstance(up.test, ast.BoolOp):
            return False
        if isinstance(up, (ast.If, ast.While)) or isinstance(up, ast.UnaryOp) and isinstance(up.op, ast.Not):
            continue
        return False
    return True


def _name(kinds) -> str:
    return next((k.split("~")[0] for k in kinds if isinstance(k, str)), "collections class")


def _callee_class(low, func: ast.expr) -> str | None:
    """"Counter", "OrderedDict", "deque" or "defaultdict" when `func` names that class."""
    return _class_named(low.info, low.locals, func)


def _class_named(info, local_names, func: ast.expr) -> str | None:
    obj = MISSING
    if isinstance(func, ast.Name) and func.id not in local_names:
        obj = global_object(info, func.id)
    elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id not in local_names:
        obj = getattr(global_object(info, func.value.id), func.attr, MISSING)
    return next((name for cls, name in _CLASSES.items() if obj is cls), None)


_FIELDS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()     # user class -> {field: class}


def _field_class(low, node: ast.Attribute):
    """The class ("deque", "OrderedDict") of field `node.attr` of the instance a local name
    holds (`self.q`, `s.q`): what every `self.<attr> = ...` of its class's methods (and its
    bases') makes; a Refused where they differ; None where none makes one. Counters and
    defaultdicts are never fields (default_tables refuses them)."""
    base = node.value
    if not (isinstance(base, ast.Name) and base.id in low.locals) or low.block is None or low.is_dead():
        return None
    t = getattr(low.read(base.id, low.loc(node)), "type", None)
    if not isinstance(t, T.ClassType):
        return None
    try:
        cls = lookup_class(t.key)
    except Exception:  # noqa: BLE001 - a class that no longer imports: no class shown
        return None
    fields = _FIELDS.get(cls)
    if fields is None:
        fields = _FIELDS[cls] = _fields_made(low, cls)
    return fields.get(node.attr)


def _fields_made(low, cls) -> dict:
    """{field: class name or Refused} of the fields `cls`'s methods assign one of the classes."""
    kinds: dict = {}
    for klass in cls.__mro__:
        for fn in vars(klass).values():
            if not isinstance(fn, types.FunctionType):
                continue
            try:
                info = low.ctx.info_for(fn)
            except CompileError:
                continue
            params = info.node.args.posonlyargs + info.node.args.args
            if not params:
                continue
            me = params[0].arg
            for n in ast.walk(info.node):
                targets = n.targets if isinstance(n, ast.Assign) else [n.target] if isinstance(n, ast.AnnAssign) \
                    and n.value is not None else []
                for target in targets:
                    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == me:
                        kinds.setdefault(target.attr, set()).add(_made_by(info, n.value))
    out = {}
    for attr, made in kinds.items():
        if made == {None}:
            continue
        out[attr] = made.pop() if len(made) == 1 else Refused(f"field '{attr}', assigned a {_name(made)} and other values")
    return out


def _made_by(info, value: ast.expr):
    """The class a field's assigned `value` makes (`deque(...)`, `OrderedDict()`), or None."""
    if not isinstance(value, ast.Call):
        return None
    kind = _class_named(info, info.local_names, value.func)
    if kind == "deque" and (len(value.args) > 1 or value.keywords):
        return Refused("a deque with a maxlen")
    return kind if kind in ("deque", "OrderedDict") else None


def _defaultdict(low, factory: ast.expr | None):
    """"defaultdict~<factory's name in FACTORIES>", or a Refused for a factory Python could
    not be given."""
    if factory is None or isinstance(factory, ast.Constant) and factory.value is None:
        return "defaultdict~None"
    obj = MISSING
    if isinstance(factory, ast.Name) and factory.id not in low.locals:
        obj = global_object(low.info, factory.id)
    elif isinstance(factory, ast.Attribute) and isinstance(factory.value, ast.Name):
        obj = getattr(global_object(low.info, factory.value.id), factory.attr, MISSING)
    name = next((n for n, f in FACTORIES.items() if f is obj), None)
    if name is None:
        return Refused("a defaultdict whose factory is not a builtin type or a collections class "
                       "(Python would get the factory object, which compiled code does not hold)")
    return "defaultdict~" + name


# ---- the entry ----------------------------------------------------------------------------


def entry_wrapper(built: Function, func: Function, name: str) -> Function | None:
    """A function calling `func` (called from Python; `built` is the frontend's IR of it,
    which holds the notes) that gives its result to the entry point with the Python classes
    CPython's value has, or None when it has none to give. CompileError for returns that
    mix such a class with other values, or that give one Python cannot get."""
    returns = getattr(built, "returned_classes", ())
    for kind, loc in returns:
        if isinstance(kind, Refused) or isinstance(kind, tuple) and any(isinstance(k, Refused) for k in kind):
            why = kind.why if isinstance(kind, Refused) else next(k.why for k in kind if isinstance(k, Refused))
            raise CompileError(f"'{name}' returns {why} to Python: not supported in compiled code", loc)
    kinds = {k for k, _ in returns}
    if kinds == {None} or not kinds:
        return None
    if len(kinds) > 1:
        loc = next(loc for k, loc in returns if k is not None)
        raise CompileError(f"'{name}' returns a {_describe(kinds)} on some paths and other values on others: "
                           "not supported in compiled code (the value Python gets would not say which)", loc)
    kind = kinds.pop()
    ret_type = _wrapped_type(func.ret_type, kind)
    if ret_type == func.ret_type:
        return None
    wrapper = Function(func.name + ".py", func.param_types, ret_type, func.loc)
    block = wrapper.entry
    value = block.append(Instr("call", list(block.params), func.ret_type, func, func.loc))
    block.append(Instr("ret", [_wrap(block, value, kind, ret_type)], T.NONE, None, func.loc))
    return wrapper


def _describe(kinds) -> str:
    for k in kinds:
        for part in (k if isinstance(k, tuple) else (k,)):
            if isinstance(part, str):
                return part.split("~")[0]
    return "dict"


def _wrapped_type(t: T.Type, kind) -> T.Type:
    if isinstance(kind, tuple):
        if type(t) is not T.TupleType or len(t.elems) != len(kind):
            return t
        return T.TupleType(_wrapped_type(e, k) for e, k in zip(t.elems, kind))
    holds = T.ListType if kind in _LISTS else T.DictType
    if kind is None or type(t) is not holds:
        return t
    return T.NamedTupleType(f"{MODULE}:{kind}", ("value",), (t,))


def _wrap(block, v, kind, t: T.Type):
    """`v` as type `t` (`_wrapped_type` of its own): the named tuples made around it."""
    if t == v.type:
        return v
    if isinstance(t, T.NamedTupleType):
        return block.append(Instr("tuple", [v], t, None, v.loc))
    parts = [_wrap(block, block.append(Instr("extract", [v], e, k, v.loc)), part_kind, w)
             for k, (e, part_kind, w) in enumerate(zip(v.type.elems, kind, t.elems))]
    return block.append(Instr("tuple", parts, t, None, v.loc))

