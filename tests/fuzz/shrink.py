"""Reduce a failing program to a small one that fails the same way.

`shrink(source, fails)` edits the program's `ast` greedily, keeping an edit when
`fails(candidate_source)` still holds, until no edit helps or the time is up. The edits, in
order of how much each removes:

1. keep only one of the inputs;
2. delete statements (whole blocks first, then one at a time), drop `elif`/`else` branches,
   replace an `if`/loop by its body, delete helper functions;
3. replace an expression by one of its operands, or by a small constant of any type;
4. replace arguments in the inputs by small constants.

Candidates that no longer fail the same way (a compile error instead of a mismatch, a
NameError after a deleted definition) are simply rejected by `fails`. The first statement of
a generated `while` body (its counter's increment) is never deleted, so no candidate loops
for ever.
"""

from __future__ import annotations

import ast
import copy
import time

CONSTANTS = (ast.Constant(0), ast.Constant(1), ast.Constant(0.0), ast.Constant(True),
             ast.Constant(-1), ast.Constant(0.5))


def _unparse(tree) -> str:
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


def _stmt_lists(tree):
    """(owner, field) of every statement list, outermost first."""
    out = []
    for node in ast.walk(tree):
        for field in ("body", "orelse"):
            if isinstance(getattr(node, field, None), list) and not isinstance(node, ast.IfExp):
                out.append((node, field))
    return out


def _protected(owner, field, i, stmts) -> bool:
    s = stmts[i]
    if isinstance(owner, ast.While) and field == "body" and i == 0 and isinstance(s, ast.AugAssign):
        return True
    if isinstance(owner, ast.Module):
        return isinstance(s, ast.FunctionDef) and s.name in ("main", "inputs") or isinstance(s, ast.Import) \
            or isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Name) and s.targets[0].id == "APPROX"
    if isinstance(owner, ast.FunctionDef) and owner.name == "inputs":
        return True
    return False


class _Shrinker:
    def __init__(self, source: str, fails, deadline: float):
        self.tree = ast.parse(source)
        self.fails = fails
        self.deadline = deadline
        self.tried = 0

    def out_of_time(self) -> bool:
        return time.monotonic() > self.deadline

    def attempt(self, edit) -> bool:
        """Apply `edit(tree_copy)` (which returns False when it does not apply); keep it if
        the result still fails."""
        if self.out_of_time():
            return False
        candidate = copy.deepcopy(self.tree)
        if edit(candidate) is False:
            return False
        try:
            text = _unparse(candidate)
            compile(text, "<shrink>", "exec")
        except (SyntaxError, ValueError):
            return False
        self.tried += 1
        if self.fails(text):
            self.tree = ast.parse(text)
            return True
        return False

    # ---- edits ---------------------------------------------------------------------------------

    def inputs(self) -> bool:
        changed = False
        for k in range(8):
            def keep_one(t, k=k):
                rows = self._input_rows(t)
                if rows is None or len(rows.elts) <= 1 or k >= len(rows.elts):
                    return False
                rows.elts = [rows.elts[k]]
            changed |= self.attempt(keep_one)
        return changed

    @staticmethod
    def _input_rows(tree):
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name == "inputs":
                ret = node.body[-1]
                if isinstance(ret, ast.Return) and isinstance(ret.value, ast.List):
                    return ret.value
        return None

    def statements(self) -> bool:
        changed = False
        k = 0
        while k < len(_stmt_lists(self.tree)) and not self.out_of_time():
            owner, field = _stmt_lists(self.tree)[k]
            n = len(getattr(owner, field))
            # the whole block, then halves, then single statements from the end
            spans = [(0, n)] if n > 1 else []
            if n > 3:
                spans += [(0, n // 2), (n // 2, n)]
            spans += [(i, i + 1) for i in reversed(range(n))]
            for lo, hi in spans:
                changed |= self.attempt(lambda t, lo=lo, hi=hi, k=k: self._delete(t, k, lo, hi))
            k += 1
        return changed

    def _delete(self, tree, k, lo, hi):
        owner, field = _stmt_lists(tree)[k]
        stmts = getattr(owner, field)
        if hi > len(stmts) or any(_protected(owner, field, i, stmts) for i in range(lo, hi)):
            return False
        rest = stmts[:lo] + stmts[hi:]
        if not rest and field == "body":
            rest = [ast.Pass()]
        setattr(owner, field, rest)

    def flatten(self) -> bool:
        changed = False
        k = 0
        while k < len(_stmt_lists(self.tree)) and not self.out_of_time():
            for choice in ("body", "orelse", "drop_else"):
                changed |= self.attempt(lambda t, k=k, c=choice: self._flatten(t, k, c))
            k += 1
        return changed

    def _flatten(self, tree, k, choice):
        owner, field = _stmt_lists(tree)[k]
        stmts = getattr(owner, field)
        for i, s in enumerate(stmts):
            if not isinstance(s, (ast.If, ast.For, ast.While)):
                continue
            if choice == "drop_else":
                if not s.orelse:
                    continue
                s.orelse = []
                return True
            inner = getattr(s, choice)
            if not inner or (isinstance(s, ast.While) and choice == "body"):
                continue
            if isinstance(s, ast.For) and choice == "body":
                continue        # the loop variable would be unbound
            stmts[i:i + 1] = inner
            return True
        return False

    def expressions(self) -> bool:
        changed = False
        k = 0
        while not self.out_of_time():
            nodes = self._exprs(self.tree)
            if k >= len(nodes):
                break
            node = nodes[k]
            options = [c for c in ast.iter_child_nodes(node) if isinstance(c, ast.expr)
                       and not isinstance(c, (ast.Tuple, ast.Slice))]
            if isinstance(node, ast.Call):
                options = list(node.args)
            if not isinstance(node, ast.Constant):
                options += list(CONSTANTS)
            for replacement in options:
                if self.attempt(lambda t, k=k, r=replacement: self._replace(t, k, r)):
                    changed = True
                    break
            k += 1
        return changed

    @staticmethod
    def _exprs(tree) -> list:
        """Expressions that may be replaced: not in a `while` test (the loop might not end)."""
        out = []
        for fn in tree.body:
            if not isinstance(fn, ast.FunctionDef):
                continue
            guarded = {id(n) for w in ast.walk(fn) if isinstance(w, ast.While) for n in ast.walk(w.test)}
            for node in ast.walk(fn):
                if id(node) in guarded:
                    continue
                if isinstance(node, ast.expr) and not isinstance(node, (ast.Name, ast.Tuple, ast.Slice,
                                                                        ast.Attribute, ast.List)):
                    out.append(node)
        return out

    def _replace(self, tree, k, replacement):
        target = self._exprs(tree)[k]
        replacement = copy.deepcopy(replacement)
        for parent in ast.walk(tree):
            for field, value in ast.iter_fields(parent):
                if value is target:
                    setattr(parent, field, replacement)
                    return True
                if isinstance(value, list):
                    for i, v in enumerate(value):
                        if v is target:
                            value[i] = replacement
                            return True
        return False

    def run(self) -> str:
        self.inputs()
        for _ in range(6):
            progress = self.statements()
            progress |= self.flatten()
            progress |= self.expressions()
            if not progress or self.out_of_time():
                break
        return _unparse(self.tree)


def shrink(source: str, fails, seconds: float = 300.0) -> tuple[str, int]:
    """(the smallest failing program found within `seconds`, how many candidates were run)."""
    s = _Shrinker(source, fails, time.monotonic() + seconds)
    out = s.run()
    return out, s.tried
