"""`match` statements (PEP 634), lowered to the branches an if/elif chain makes.

Each case tests its pattern against the subject (evaluated once) with a chain of tests, each
branching to the next case when it fails; the names the pattern captures are bound once the
whole pattern matched (before the guard, as CPython does), then the guard and the body run.

Most tests are decided when the function is compiled, from the subject's static type, as
`isinstance` is (instance_test.py): a sequence pattern matches tuples (of a length the type
knows) and lists (whose length is tested when it runs), never strs, dicts, sets or arrays
(CPython's `collections.abc.Sequence` rule); a mapping pattern matches dicts; a class pattern
`C(...)` matches when CPython's class of the subject's type is a subclass of `C`, with
`__match_args__` for positional sub-patterns (named tuples, dataclasses) and the builtins
`int(x)`, `str(x)`, ... matching the subject itself. A literal pattern is `==` (`is` for
None, True and False): a str never equals a number, so such a case is left out. An optional
subject (`int | None`) is tested for None first.

Not supported (CompileErrors at the pattern): class patterns on values whose CPython class
compiled code does not know (arrays' elements of NumPy types are known; functions are not).
"""

from __future__ import annotations

import ast

from script.frontend.instance_test import python_class
from script.frontend.optional import is_optional
from script.frontend.unknown import Unknown
from script.frontend.pyref import PyRef
from script.ir import types as T
from script.ir.core import Const, Value
from script.frontend import builtins_lowering, dicts, optional

_NUMBERS = (T.IntType, T.FloatType, T.BoolType, T.ComplexType)
# The classes whose one positional sub-pattern matches the subject itself (PEP 634).
_SELF_MATCHING = (bool, bytearray, bytes, dict, float, frozenset, int, list, set, str, tuple)


def without_keys(d, keys):
    """`**rest` of a mapping pattern: a copy of `d` without `keys` (compiled on demand)."""
    rest = d.copy()
    for k in keys:
        del rest[k]
    return rest


def stmt_Match(cx, node: ast.Match) -> None:
    subject = optional.expr_opt(cx, node.subject)
    join = cx.new_block("match.end")
    for case in node.cases:
        if cx.block is None:
            break           # an earlier case matched always
        fail = cx.new_block("case.next")
        bindings: list = []
        match_pattern(cx, case.pattern, subject, fail, bindings)
        if cx.block is not None:
            for name, value, at in bindings:
                cx.assign_name(name, value, at)
            if case.guard is not None:
                require(cx, cx.condition(case.guard), fail, case.guard)
        if cx.block is not None:
            cx.stmts(case.body)
            cx.goto(join, cx.loc(case.pattern))
        cx.finish_join(fail)
    if cx.block is not None:
        cx.goto(join, cx.loc(node))
    cx.finish_join(join)


def require(cx, cond: Value, fail, node) -> None:
    """Go on where `cond` holds; branch to `fail` where it does not."""
    if cx.block is None:
        return
    if isinstance(cond, Const):
        if not cond.value:
            cx.goto(fail, cx.loc(node))
        return
    ok = cx.new_block("case.test")
    cx.branch(cond, ok, fail, cx.loc(node))
    cx.seal(ok)
    cx.start(ok)


def match_pattern(cx, p: ast.pattern, subject: Value, fail, bindings: list) -> None:
    """Emit the tests of pattern `p` on `subject`, branching to `fail` where one fails, and
    add what it captures to `bindings` ((name, value, node) triples). Where the pattern
    cannot match, the current block ends (`cx.block` is None)."""
    if cx.block is None:
        return
    if isinstance(p, ast.MatchAs):
        if p.pattern is not None:
            match_pattern(cx, p.pattern, subject, fail, bindings)
        if p.name is not None:
            bindings.append((p.name, subject, p))
        return
    if isinstance(p, ast.MatchOr):
        return _match_or(cx, p, subject, fail, bindings)
    if isinstance(p, ast.MatchSingleton) and p.value is None:
        if is_optional(subject):
            return require(cx, optional.absent(cx, subject, p), fail, p)
        return require(cx, Const(isinstance(subject.type, T.NoneType), T.BOOL), fail, p)
    if is_optional(subject):        # any other pattern: not None, then the value
        require(cx, optional.present(cx, subject, p), fail, p)
        subject = optional.value_of(cx, subject, p)
    if isinstance(subject.type, Unknown):
        return      # a round built again once the type is known
    if isinstance(p, ast.MatchSingleton):
        same = isinstance(subject.type, T.BoolType)
        return require(cx, cx.compare(ast.Eq(), subject, Const(p.value, T.BOOL), p) if same
                       else Const(False, T.BOOL), fail, p)
    if isinstance(p, ast.MatchValue):
        return require(cx, _equals(cx, subject, cx.expr(p.value), p), fail, p)
    if isinstance(p, ast.MatchSequence):
        return _match_sequence(cx, p, subject, fail, bindings)
    if isinstance(p, ast.MatchMapping):
        return _match_mapping(cx, p, subject, fail, bindings)
    if isinstance(p, ast.MatchClass):
        return _match_class(cx, p, subject, fail, bindings)
    cx.error(f"'{type(p).__name__}' patterns are not supported in compiled code", p)


def _equals(cx, subject: Value, v: Value, p) -> Value:
    """`subject == v` for a literal or value pattern: False without a test where the two
    types never compare equal (a str and a number, a tuple and an int)."""
    if isinstance(subject.type, _NUMBERS) and isinstance(v.type, _NUMBERS) or \
            isinstance(subject.type, T.StrType) and isinstance(v.type, T.StrType):
        return cx.compare(ast.Eq(), subject, v, p)
    if isinstance(v.type, (T.StrType, T.NoneType) + _NUMBERS):
        return Const(False, T.BOOL)
    cx.error(f"a value pattern of type {v.type} is not supported in compiled code", p)


def _match_or(cx, p: ast.MatchOr, subject: Value, fail, bindings: list) -> None:
    """`a | b | c`: each alternative in turn; what they bind meets in one block."""
    ok = cx.new_block("case.or")
    names: list[str] | None = None
    var = f"$or{id(p)}:"
    for alt in p.patterns:
        if cx.block is None:
            break
        alt_fail = cx.new_block("case.alt")
        found: list = []
        match_pattern(cx, alt, subject, alt_fail, found)
        if cx.block is not None:
            names = [name for name, _, _ in found]
            for name, value, _ in found:
                cx.write(var + name, value, loc=cx.loc(alt))
            cx.goto(ok, cx.loc(alt))
        cx.finish_join(alt_fail)
    if cx.block is not None:
        cx.goto(fail, cx.loc(p))
    cx.finish_join(ok)
    if cx.block is not None:
        bindings += [(name, cx.read(var + name, cx.loc(p)), p) for name in names or ()]


def _match_sequence(cx, p: ast.MatchSequence, subject: Value, fail, bindings: list) -> None:
    t = subject.type
    if not isinstance(t, (T.TupleType, T.ListType)) or isinstance(t, T.ClassType):
        return require(cx, Const(False, T.BOOL), fail, p)      # not a Sequence (strs neither)
    stars = [k for k, q in enumerate(p.patterns) if isinstance(q, ast.MatchStar)]
    k = len(p.patterns)
    count, item, _ = cx.iterable_value(subject, p)
    if isinstance(count, Const):
        fits = count.value == k if not stars else count.value >= k - 1
        require(cx, Const(fits, T.BOOL), fail, p)
    elif stars:
        require(cx, cx.cmp("ge", count, Const(k - 1, T.I64), p), fail, p)
    else:
        require(cx, cx.cmp("eq", count, Const(k, T.I64), p), fail, p)
    star = stars[0] if stars else k
    for j, q in enumerate(p.patterns[:star]):
        if cx.block is None:
            return
        match_pattern(cx, q, item(Const(j, T.I64)), fail, bindings)
    tail = k - 1 - star
    for j, q in enumerate(p.patterns[star + 1:]):
        if cx.block is None:
            return
        at = Const(count.value - tail + j, T.I64) if isinstance(count, Const) else \
            cx.emit("add", [count, Const(j - tail, T.I64)], T.I64, None, cx.loc(q))
        match_pattern(cx, q, item(at), fail, bindings)
    if stars and p.patterns[star].name is not None and cx.block is not None:
        rest = Const(count.value - (k - 1), T.I64) if isinstance(count, Const) else \
            cx.emit("sub", [count, Const(k - 1, T.I64)], T.I64, None, cx.loc(p))
        bindings.append((p.patterns[star].name, cx.list_of_items(rest, star, item, p), p))


def _match_mapping(cx, p: ast.MatchMapping, subject: Value, fail, bindings: list) -> None:
    if not isinstance(subject.type, T.DictType):
        return require(cx, Const(False, T.BOOL), fail, p)
    keys = []
    for key_node, q in zip(p.keys, p.patterns):
        if cx.block is None:
            return
        key = cx.expr(key_node)
        keys.append(key)
        require(cx, cx.compare(ast.In(), key, subject, key_node), fail, key_node)
        if cx.block is not None:
            value = cx.subscript_of(subject, ast.Subscript(
                ast.Name("$subject", ast.Load()), held(cx, key, key_node), ast.Load(), **_position(key_node)))
            match_pattern(cx, q, value, fail, bindings)
    if p.rest is not None and cx.block is not None:
        bindings.append((p.rest, dicts.table_call(cx, without_keys, [subject, cx.make_tuple(keys, p)], p), p))


def _match_class(cx, p: ast.MatchClass, subject: Value, fail, bindings: list) -> None:
    ref = builtins_lowering.callee_ref(cx, p.cls)
    cls = ref.obj if isinstance(ref, PyRef) else None
    if not isinstance(cls, type):
        cx.error("called match pattern must be a class", p.cls)
    have = python_class(subject.type)
    if have is None:
        cx.error(f"class patterns on a value of type {subject.type} are not supported in compiled code", p)
    if not issubclass(have, cls):
        return require(cx, Const(False, T.BOOL), fail, p)
    if cls in _SELF_MATCHING and p.patterns:
        if len(p.patterns) > 1:
            cx.error(f"{cls.__name__}() accepts 1 positional sub-pattern ({len(p.patterns)} given)", p)
        match_pattern(cx, p.patterns[0], subject, fail, bindings)
        attrs = []
    else:
        args = getattr(cls, "__match_args__", ())
        if len(p.patterns) > len(args):
            cx.error(f"{cls.__name__}() accepts {len(args)} positional sub-pattern"
                     f"{'' if len(args) == 1 else 's'} ({len(p.patterns)} given)", p)
        attrs = list(zip(args, p.patterns))
    for attr, q in attrs + list(zip(p.kwd_attrs, p.kwd_patterns)):
        if cx.block is None:
            return
        if not hasattr(have, attr) and attr not in getattr(subject.type, "fields", ()):
            return require(cx, Const(False, T.BOOL), fail, q)      # getattr fails: no match
        read = ast.Attribute(ast.Name("$subject", ast.Load()), attr, ast.Load(), **_position(q))
        value = builtins_lowering.value_attribute(cx, subject, read)
        match_pattern(cx, q, value, fail, bindings)


def held(cx, value: Value, like) -> ast.expr:
    """A name node that lowers to `value` (once), at the position of node `like`."""
    n = ast.Name("$held", ast.Load(), **_position(like))
    cx.held_nodes.append(n)       # kept alive: `pre_evaluated` is keyed by id
    cx.pre_evaluated[id(n)] = value
    return n


def _position(node) -> dict:
    return {k: getattr(node, k) for k in ("lineno", "col_offset", "end_lineno", "end_col_offset")}
