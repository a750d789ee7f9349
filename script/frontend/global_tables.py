"""Module-level lists, dicts and sets read in a loop, made once per call.

Compiled code copies a global container it reads (lists.global_list, dicts.global_table:
its items as they are when the function is compiled; writes are CompileErrors). Made where
each read is, a read inside a loop made the whole container again on every pass: a lookup in
a 26-entry table per character of a text ran 20x slower than CPython. A global read inside a
loop or a comprehension, or read at two places, is made once, where the function starts
(`hoist`), and every read of that object is that value (`hoisted`). Each call still makes
its own copy: compiled code never changes one, so what a call reads is what the global held
when the function was compiled, as before.

A global list of more than a few numbers of one type that the function only indexes
(``DIGITS_SQUARED[n % 100000]``, every read of the name an item read) is not copied at all:
its items are a frozen array (frozen.py) made at the start, and ``G[i]`` is a checked load
from it, with the list's IndexError and TypeError (lists.frozen_item). A helper called millions
of times no longer copies a 100000-item table on each call.
"""

from __future__ import annotations

import ast

from script.errors import CompileError
from script.frontend.lists import numbers_array

_LOOPS = (ast.For, ast.AsyncFor, ast.While, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def hoist(low) -> None:
    """Make, at the function's start, the global containers its body reads in a loop or at
    two places; `low.hoisted_tables` maps each one's id to its value."""
    reads: dict[str, list] = {}
    looped: set[str] = set()
    indexed: dict[str, int] = {}            # name -> its reads that are item reads `G[i]`

    def visit(node, in_loop: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, _SCOPES):
                continue
            if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Load) and child.id not in low.locals:
                reads.setdefault(child.id, []).append(child)
                if in_loop:
                    looped.add(child.id)
                if _item_read(node, child):
                    indexed[child.id] = indexed.get(child.id, 0) + 1
            visit(child, in_loop or isinstance(node, _LOOPS))

    for stmt in low.info.node.body:
        visit(stmt, False)
    for name, nodes in reads.items():
        if name in low.imported:
            continue
        found, obj = low.info.global_value(name)
        if found and type(obj) is list and indexed.get(name) == len(nodes):
            try:
                data = numbers_array(low, obj, name, nodes[0])
            except CompileError:
                data = None         # (the read reports it, where it is)
            if data is not None:
                low.frozen_lists[id(obj)] = data
                continue
        if name not in looped and len(nodes) < 2:
            continue
        if not found or type(obj) not in (list, dict, set, frozenset) or not obj:
            continue
        try:
            value = low.python_object(obj, name, nodes[0])
        except CompileError:
            continue            # (the read reports it, where it is)
        low.hoisted_tables[id(obj)] = value


def hoisted(low, obj):
    """The value made at the start for global container `obj`, or None."""
    return low.hoisted_tables.get(id(obj)) if type(obj) in (list, dict, set, frozenset) else None


def _item_read(parent, name: ast.Name) -> bool:
    return isinstance(parent, ast.Subscript) and parent.value is name and isinstance(parent.ctx, ast.Load) \
        and not isinstance(parent.slice, ast.Slice)
