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
from script.frontend.ssa_builder import Unknown
from script.ir import types as T
from script.ir.core import Const, Value

_NUMBERS = (T.IntType, T.FloatType, T.BoolType, T.ComplexType)
# The classes whose one positional sub-pattern matches the subject itself (PEP 634).
_SELF_MATCHING = (bool, bytearray, bytes, dict, float, frozenset, int, list, set, str, tuple)


def without_keys(d, keys):
    """`**rest` of a mapping pattern: a copy of `d` without `keys` (compiled on demand)."""
    rest = d.copy()
    for k in keys:
        del rest[k]
    return rest


class MatchLowering:
    """Mixin for `FunctionLowering`: the `match` statement."""

    def stmt_Match(self, node: ast.Match) -> None:
        subject = self.expr_opt(node.subject)
        join = self.new_block("match.end")
        for case in node.cases:
            if self.block is None:
                break           # an earlier case matched always
            fail = self.new_block("case.next")
            bindings: list = []
            self.match_pattern(case.pattern, subject, fail, bindings)
            if self.block is not None:
                for name, value, at in bindings:
                    self.assign_name(name, value, at)
                if case.guard is not None:
                    self.require(self.condition(case.guard), fail, case.guard)
            if self.block is not None:
                self.stmts(case.body)
                self.goto(join, self.loc(case.pattern))
            self.finish_join(fail)
        if self.block is not None:
            self.goto(join, self.loc(node))
        self.finish_join(join)

    def require(self, cond: Value, fail, node) -> None:
        """Go on where `cond` holds; branch to `fail` where it does not."""
        if self.block is None:
            return
        if isinstance(cond, Const):
            if not cond.value:
                self.goto(fail, self.loc(node))
            return
        ok = self.new_block("case.test")
        self.branch(cond, ok, fail, self.loc(node))
        self.seal(ok)
        self.start(ok)

    def match_pattern(self, p: ast.pattern, subject: Value, fail, bindings: list) -> None:
        """Emit the tests of pattern `p` on `subject`, branching to `fail` where one fails, and
        add what it captures to `bindings` ((name, value, node) triples). Where the pattern
        cannot match, the current block ends (`self.block` is None)."""
        if self.block is None:
            return
        if isinstance(p, ast.MatchAs):
            if p.pattern is not None:
                self.match_pattern(p.pattern, subject, fail, bindings)
            if p.name is not None:
                bindings.append((p.name, subject, p))
            return
        if isinstance(p, ast.MatchOr):
            return self._match_or(p, subject, fail, bindings)
        if isinstance(p, ast.MatchSingleton) and p.value is None:
            if is_optional(subject):
                return self.require(self.absent(subject, p), fail, p)
            return self.require(Const(isinstance(subject.type, T.NoneType), T.BOOL), fail, p)
        if is_optional(subject):        # any other pattern: not None, then the value
            self.require(self.present(subject, p), fail, p)
            subject = self.value_of(subject, p)
        if isinstance(subject.type, Unknown):
            return      # a round built again once the type is known
        if isinstance(p, ast.MatchSingleton):
            same = isinstance(subject.type, T.BoolType)
            return self.require(self.compare(ast.Eq(), subject, Const(p.value, T.BOOL), p) if same
                                else Const(False, T.BOOL), fail, p)
        if isinstance(p, ast.MatchValue):
            return self.require(self._equals(subject, self.expr(p.value), p), fail, p)
        if isinstance(p, ast.MatchSequence):
            return self._match_sequence(p, subject, fail, bindings)
        if isinstance(p, ast.MatchMapping):
            return self._match_mapping(p, subject, fail, bindings)
        if isinstance(p, ast.MatchClass):
            return self._match_class(p, subject, fail, bindings)
        self.error(f"'{type(p).__name__}' patterns are not supported in compiled code", p)

    def _equals(self, subject: Value, v: Value, p) -> Value:
        """`subject == v` for a literal or value pattern: False without a test where the two
        types never compare equal (a str and a number, a tuple and an int)."""
        if isinstance(subject.type, _NUMBERS) and isinstance(v.type, _NUMBERS) or \
                isinstance(subject.type, T.StrType) and isinstance(v.type, T.StrType):
            return self.compare(ast.Eq(), subject, v, p)
        if isinstance(v.type, (T.StrType, T.NoneType) + _NUMBERS):
            return Const(False, T.BOOL)
        self.error(f"a value pattern of type {v.type} is not supported in compiled code", p)

    def _match_or(self, p: ast.MatchOr, subject: Value, fail, bindings: list) -> None:
        """`a | b | c`: each alternative in turn; what they bind meets in one block."""
        ok = self.new_block("case.or")
        names: list[str] | None = None
        var = f"$or{id(p)}:"
        for alt in p.patterns:
            if self.block is None:
                break
            alt_fail = self.new_block("case.alt")
            found: list = []
            self.match_pattern(alt, subject, alt_fail, found)
            if self.block is not None:
                names = [name for name, _, _ in found]
                for name, value, _ in found:
                    self.write(var + name, value, loc=self.loc(alt))
                self.goto(ok, self.loc(alt))
            self.finish_join(alt_fail)
        if self.block is not None:
            self.goto(fail, self.loc(p))
        self.finish_join(ok)
        if self.block is not None:
            bindings += [(name, self.read(var + name, self.loc(p)), p) for name in names or ()]

    def _match_sequence(self, p: ast.MatchSequence, subject: Value, fail, bindings: list) -> None:
        t = subject.type
        if not isinstance(t, (T.TupleType, T.ListType)) or isinstance(t, T.ClassType):
            return self.require(Const(False, T.BOOL), fail, p)      # not a Sequence (strs neither)
        stars = [k for k, q in enumerate(p.patterns) if isinstance(q, ast.MatchStar)]
        k = len(p.patterns)
        count, item, _ = self.iterable_value(subject, p)
        if isinstance(count, Const):
            fits = count.value == k if not stars else count.value >= k - 1
            self.require(Const(fits, T.BOOL), fail, p)
        elif stars:
            self.require(self.cmp("ge", count, Const(k - 1, T.I64), p), fail, p)
        else:
            self.require(self.cmp("eq", count, Const(k, T.I64), p), fail, p)
        star = stars[0] if stars else k
        for j, q in enumerate(p.patterns[:star]):
            if self.block is None:
                return
            self.match_pattern(q, item(Const(j, T.I64)), fail, bindings)
        tail = k - 1 - star
        for j, q in enumerate(p.patterns[star + 1:]):
            if self.block is None:
                return
            at = Const(count.value - tail + j, T.I64) if isinstance(count, Const) else \
                self.emit("add", [count, Const(j - tail, T.I64)], T.I64, None, self.loc(q))
            self.match_pattern(q, item(at), fail, bindings)
        if stars and p.patterns[star].name is not None and self.block is not None:
            rest = Const(count.value - (k - 1), T.I64) if isinstance(count, Const) else \
                self.emit("sub", [count, Const(k - 1, T.I64)], T.I64, None, self.loc(p))
            bindings.append((p.patterns[star].name, self.list_of_items(rest, star, item, p), p))

    def _match_mapping(self, p: ast.MatchMapping, subject: Value, fail, bindings: list) -> None:
        if not isinstance(subject.type, T.DictType):
            return self.require(Const(False, T.BOOL), fail, p)
        keys = []
        for key_node, q in zip(p.keys, p.patterns):
            if self.block is None:
                return
            key = self.expr(key_node)
            keys.append(key)
            self.require(self.compare(ast.In(), key, subject, key_node), fail, key_node)
            if self.block is not None:
                value = self.subscript_of(subject, ast.Subscript(
                    ast.Name("$subject", ast.Load()), self.held(key, key_node), ast.Load(), **_position(key_node)))
                self.match_pattern(q, value, fail, bindings)
        if p.rest is not None and self.block is not None:
            bindings.append((p.rest, self.table_call(without_keys, [subject, self.make_tuple(keys, p)], p), p))

    def _match_class(self, p: ast.MatchClass, subject: Value, fail, bindings: list) -> None:
        from script.frontend.lower_stmt import PyRef
        ref = self.callee_ref(p.cls)
        cls = ref.obj if isinstance(ref, PyRef) else None
        if not isinstance(cls, type):
            self.error("called match pattern must be a class", p.cls)
        have = python_class(subject.type)
        if have is None:
            self.error(f"class patterns on a value of type {subject.type} are not supported in compiled code", p)
        if not issubclass(have, cls):
            return self.require(Const(False, T.BOOL), fail, p)
        if cls in _SELF_MATCHING and p.patterns:
            if len(p.patterns) > 1:
                self.error(f"{cls.__name__}() accepts 1 positional sub-pattern ({len(p.patterns)} given)", p)
            self.match_pattern(p.patterns[0], subject, fail, bindings)
            attrs = []
        else:
            args = getattr(cls, "__match_args__", ())
            if len(p.patterns) > len(args):
                self.error(f"{cls.__name__}() accepts {len(args)} positional sub-pattern"
                           f"{'' if len(args) == 1 else 's'} ({len(p.patterns)} given)", p)
            attrs = list(zip(args, p.patterns))
        for attr, q in attrs + list(zip(p.kwd_attrs, p.kwd_patterns)):
            if self.block is None:
                return
            if not hasattr(have, attr) and attr not in getattr(subject.type, "fields", ()):
                return self.require(Const(False, T.BOOL), fail, q)      # getattr fails: no match
            value = self.value_attribute(subject, ast.Attribute(ast.Name("$subject", ast.Load()), attr, ast.Load(),
                                                                **_position(q)))
            self.match_pattern(q, value, fail, bindings)

    def held(self, value: Value, like) -> ast.expr:
        """A name node that lowers to `value` (once), at the position of node `like`."""
        n = ast.Name("$held", ast.Load(), **_position(like))
        self.held_nodes.append(n)       # kept alive: `pre_evaluated` is keyed by id
        self.pre_evaluated[id(n)] = value
        return n


def _position(node) -> dict:
    return {k: getattr(node, k) for k in ("lineno", "col_offset", "end_lineno", "end_col_offset")}
