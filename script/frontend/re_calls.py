"""`re` in compiled code: ``re.search``, ``re.match``, ``re.fullmatch``, ``re.finditer``,
``re.findall``, ``re.split``, ``re.sub``, ``re.subn``, ``re.escape`` and ``re.compile``, and
the same methods of a module-level compiled pattern (``WORD = re.compile(r"\\w+")``).

CPython's `re` runs every match (relib.py, script.pyhooks.re_text), so results, flags and
errors are CPython's; compiled code holds them as strs, lists of strs, tuples of groups and
`relib.Match` / `relib.Pattern` records. The pattern's text is read where it is a constant
(a literal, a module-level str or compiled pattern): `findall` of a pattern of several groups
gives tuples (of a pattern known only when it runs, strs: one of several groups is then
refused when it runs), and `split` of one whose group may not take part (CPython gives None
in the list) is refused (when it runs, for a pattern not constant). A function as `sub`'s
replacement is called on each Match in compiled code (relib.sub_function: the matches
finditer gives are the ones CPython's sub replaces). A Match or Pattern made in compiled
code is not returned to Python (records.reject_boxed_instances: it is not CPython's object).
"""

from __future__ import annotations

import ast
import re

try:
    import re._parser as sre_parse      # (Python 3.11 on)
except ImportError:                     # pragma: no cover
    import sre_parse

from script.frontend import strings
from script.lib.python import relib
from script.frontend.pyref import PyRef
from script.frontend.registry import CALLS, lowers
from script.frontend.static_args import Static, call_argument
from script.ir import types as T
from script.ir.core import Const, Instr, Value

_SIGNATURES = {
    "search": ("pattern", "string", "flags"), "match": ("pattern", "string", "flags"),
    "fullmatch": ("pattern", "string", "flags"), "finditer": ("pattern", "string", "flags"),
    "findall": ("pattern", "string", "flags"), "split": ("pattern", "string", "maxsplit", "flags"),
    "sub": ("pattern", "repl", "string", "count", "flags"), "subn": ("pattern", "repl", "string", "count", "flags"),
    "compile": ("pattern", "flags"), "escape": ("pattern",),
}
_OPTIONAL_PARENTS = (sre_parse.BRANCH, sre_parse.ASSERT_NOT, sre_parse.GROUPREF_EXISTS)


class _Pattern:
    """A pattern argument: its text and flags as values, and the constants where known."""

    def __init__(self, text: Value, flags: Value, known: str | None, known_flags: int | None, node):
        self.text, self.flags, self.known, self.known_flags = text, flags, known, known_flags
        self.node = node

    @classmethod
    def of(cls, cx, obj: re.Pattern, node) -> _Pattern:
        """A module-level compiled pattern: its text and flags, constants."""
        return cls(strings.str_constant(cx, obj.pattern, node), Const(obj.flags, T.I64), obj.pattern, obj.flags,
                   node)

    def compiled(self) -> re.Pattern | None:
        """The pattern compiled now, or None: not constant, or one `re` rejects (CPython's
        `re.error` then comes when the call runs)."""
        if self.known is None or self.known_flags is None:
            return None
        try:
            return re.compile(self.known, self.known_flags)
        except (re.error, TypeError, ValueError, OverflowError):
            return None

    def groups(self) -> int:
        """The number of groups of a constant pattern; 0 when not known (findall then refuses
        one of several groups when it runs, relib.findall)."""
        compiled = self.compiled()
        return 0 if compiled is None else compiled.groups

    def may_give_none(self) -> bool:
        """Whether a group of the pattern may not take part in a match (unknown: False;
        the hook then refuses a None when it comes)."""
        compiled = self.compiled()
        return compiled is not None and _may_be_absent(compiled)


def _str_arg(cx, node, what: str, name: str) -> Value:
    v = cx.expr(node)
    if not strings.is_str(v):
        cx.error(f"re.{name}(): the {what} must be a str in compiled code, not {v.type}", node)
    return v


def _pattern(cx, node, flags_node, name: str) -> _Pattern:
    obj = _global_pattern(cx, node)
    if obj is not None:
        if flags_node is not None:
            cx.error(f"re.{name}(): flags cannot be given with a compiled pattern (ValueError in CPython)", node)
        return _Pattern.of(cx, obj, node)
    v = cx.expr(node)
    static = _static_flags(cx, flags_node)          # (re.IGNORECASE is an IntFlag: read here, not lowered)
    flags = Const(static, T.I64) if static is not None else _int_arg(cx, flags_node, name, "flags")
    if not strings.is_str(v):
        cx.error(f"re.{name}(): the pattern must be a str or a module-level compiled pattern in compiled code, "
                 f"not {v.type}", node)
    known = v.attr if isinstance(v, Instr) and v.opname == "str_const" else None
    known_flags = flags.value if isinstance(flags, Const) else None
    return _Pattern(v, flags, known, known_flags, node)


def _static_flags(cx, node) -> int | None:
    """The value of a flags argument written with module-level names and `|`
    (``re.IGNORECASE | re.M``), or None."""
    if node is None:
        return 0
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        a, b = _static_flags(cx, node.left), _static_flags(cx, node.right)
        return None if a is None or b is None else a | b
    obj = _module_level(cx, node)
    return int(obj) if isinstance(obj, int) and not isinstance(obj, bool) else None


def _module_level(cx, node):
    """The Python object a module-level name or dotted name (``re.I``) is, or None."""
    if isinstance(node, ast.Name) and node.id not in cx.locals:
        found, obj = cx.info.global_value(node.id)
        return obj if found else None
    if isinstance(node, ast.Attribute):
        base = _module_level(cx, node.value)
        return None if base is None else getattr(base, node.attr, None)
    return None


def _global_pattern(cx, node) -> re.Pattern | None:
    if not isinstance(node, (ast.Name, ast.Attribute)):
        return None
    if isinstance(node, ast.Name) and node.id in cx.locals:
        return None
    ref = cx.callee_ref(node)
    if isinstance(ref, PyRef) and isinstance(ref.obj, re.Pattern):
        if not isinstance(ref.obj.pattern, str):
            cx.error("patterns of bytes are not supported in compiled code", node)
        return ref.obj
    return None


def _may_be_absent(pattern: re.Pattern) -> bool:
    """Whether a group of `pattern` may not take part in a match (inside an alternation, an
    optional repeat, a negative lookaround or a conditional)."""
    def walk(items, optional: bool) -> bool:
        for op, av in items:
            if op is sre_parse.SUBPATTERN:
                group, _, _, inner = av
                if group is not None and optional or walk(inner, optional):
                    return True
            elif op is sre_parse.BRANCH:
                if any(walk(p, True) for p in av[1]):
                    return True
            elif op in (sre_parse.MAX_REPEAT, sre_parse.MIN_REPEAT, getattr(sre_parse, "POSSESSIVE_REPEAT", None)):
                if walk(av[2], optional or av[0] == 0):
                    return True
            elif op in _OPTIONAL_PARENTS or op in (sre_parse.ASSERT, getattr(sre_parse, "ATOMIC_GROUP", None)):
                parts = av[1:] if op is sre_parse.GROUPREF_EXISTS else [av[1] if isinstance(av, tuple) else av]
                absent = optional or op in _OPTIONAL_PARENTS
                if any(p is not None and walk(p, absent) for p in parts):
                    return True
        return False
    return walk(sre_parse.parse(pattern.pattern, pattern.flags), False)


def _call(cx, fn, args: list[Value], node) -> Value:
    return strings.str_lib(cx, fn, args, node)


def _lower(cx, node: ast.Call, name: str, pattern_obj: re.Pattern | None = None) -> Value:
    names = _SIGNATURES[name]
    if pattern_obj is not None:              # a method of a module-level pattern: no pattern, no flags
        names = tuple(n for n in names if n not in ("pattern", "flags"))
    args = dict(zip(names, strings.call_args(cx, node, name, names)))
    function = _evaluate_in_order(cx, node, args)
    if pattern_obj is not None:
        p = _Pattern.of(cx, pattern_obj, node)
    elif args.get("pattern") is None:
        cx.error(f"re.{name}() needs a pattern", node)
    elif name == "escape":
        return _call(cx, relib.escape, [_str_arg(cx, args["pattern"], "pattern", name)], node)
    else:
        held = cx.pre_evaluated.get(id(args["pattern"]))
        if held is not None and isinstance(held.type, T.ClassType) and held.type.key.startswith(f"{relib.__name__}:"):
            return _method_of_held(cx, node, name, args)
        p = _pattern(cx, args["pattern"], args.get("flags"), name)
    if name == "compile":
        groups = p.groups()
        if groups >= 2:
            return _call(cx, relib.compile_groups, [p.text, p.flags, Const(groups, T.I64)], node)
        return _call(cx, relib.compile_pattern, [p.text, p.flags], node)
    if args.get("string") is None:
        cx.error(f"re.{name}() needs a string", node)
    string = _str_arg(cx, args["string"], "string", name)
    if name in ("search", "match", "fullmatch"):
        return _call(cx, relib.search, [strings.str_constant(cx, name, node), p.text, p.flags, string], node)
    if name == "finditer":
        return _call(cx, relib.finditer, [p.text, p.flags, string], node)
    if name == "findall":
        groups = p.groups()
        if groups >= 2:
            return _call(cx, relib.findall_groups, [p.text, p.flags, string, Const(groups, T.I64)], node)
        return _call(cx, relib.findall, [p.text, p.flags, string], node)
    if name == "split":
        if p.known is not None and p.known_flags is not None and p.may_give_none():
            cx.error("re.split() with a group that may not take part in a match gives None in CPython's list, "
                     "which a compiled list[str] cannot hold", node)
        maxsplit = _int_arg(cx, args.get("maxsplit"), name, "maxsplit")
        return _call(cx, relib.split, [p.text, p.flags, string, maxsplit], node)
    repl = args.get("repl")
    if repl is None:
        cx.error(f"re.{name}() needs a replacement", node)
    if function is not None:                # a function: called on each Match
        count = _int_arg(cx, args.get("count"), name, "count")
        fn = relib.sub_function if name == "sub" else relib.subn_function
        call = ast.copy_location(ast.Call(ast.Name(fn.__name__, ast.Load()), [repl], []), node)
        return cx.call_script(cx.ctx.info_for(fn), call, leading=(p.text, p.flags, string, count))
    repl = _str_arg(cx, repl, "replacement", name)
    count = _int_arg(cx, args.get("count"), name, "count")
    return _call(cx, relib.sub if name == "sub" else relib.subn, [p.text, p.flags, repl, string, count], node)


def _evaluate_in_order(cx, node: ast.Call, args: dict):
    """Evaluates the call's arguments as CPython does, in the order written, each value left
    for the lowering above to take (`pre_evaluated`); a module-level pattern and flags written
    with module-level names are read, not evaluated. Gives the replacement when it is a
    function (bound when compiling, relib.sub_function calls it), else None."""
    names = {id(v): k for k, v in args.items() if v is not None}
    function = None
    for arg in list(node.args) + [k.value for k in node.keywords]:
        name = names.get(id(arg))
        if name == "pattern" and _global_pattern(cx, arg) is not None \
                or name == "flags" and _static_flags(cx, arg) is not None:
            continue
        if name == "repl":
            value = call_argument(cx, arg)
            if isinstance(value, Static) and not isinstance(value.obj, str):
                function = value
                continue
            cx.pre_evaluated[id(arg)] = (strings.str_constant(cx, value.obj, arg) if isinstance(value, Static)
                                         else value)
            continue
        cx.pre_evaluate(arg)
    return function


def _method_of_held(cx, node: ast.Call, name: str, args: dict) -> Value:
    """``re.search(pat, s)`` of a pattern `pat` compiled in compiled code: ``pat.search(s)``
    (flags with it: CPython's ValueError)."""
    if args.get("flags") is not None:
        for arg in args.values():           # (evaluated already: taken, raising nothing)
            if arg is not None and id(arg) in cx.pre_evaluated:
                cx.expr(arg)
        return cx.raise_always("ValueError", "cannot process flags argument with a compiled pattern", node)
    if name == "compile":
        return cx.expr(args["pattern"])             # re.compile(pat) is pat
    rest = [args[n] for n in _SIGNATURES[name][1:] if n != "flags" and args.get(n) is not None]
    method = ast.copy_location(ast.Attribute(args["pattern"], name, ast.Load()), node)
    return cx.expr_opt(ast.copy_location(ast.Call(method, rest, []), node))     # (a Match or None)


def _int_arg(cx, node, name: str, what: str) -> Value:
    if node is None:
        return Const(0, T.I64)
    v = cx.expr(node)
    if not isinstance(v.type, (T.IntType, T.BoolType)):
        cx.error(f"re.{name}(): {what} must be an int, not {v.type}", node)
    return cx.coerce(v, T.I64, node)


for _name in _SIGNATURES:
    lowers(getattr(re, _name))(lambda low, node, name: _lower(low, node, name))


@CALLS.family
def _pattern_method(obj):
    """``PAT.search(s)`` and the others of a module-level compiled pattern `PAT`."""
    owner = getattr(obj, "__self__", None)
    name = getattr(obj, "__name__", None)
    if isinstance(owner, re.Pattern) and name in _SIGNATURES and name not in ("compile", "escape"):
        if not isinstance(owner.pattern, str):
            return None
        return (lambda low, node, n: _lower(low, node, n, owner)), name
    return None
