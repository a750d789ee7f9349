"""Deep copies of functions, so that passes may change a copy while the original stays cached.

`clone_functions(funcs)` copies a set of functions together: a `call` whose callee is in the
set calls the copy; other callees are kept as they are.
"""

from __future__ import annotations

from script.ir.core import Const, Function, Instr


def clone_functions(funcs: list[Function]) -> list[Function]:
    copies = {}
    for f in funcs:
        g = Function(f.name, [], f.ret_type, f.loc)
        copies[id(f)] = g
    for f in funcs:
        _copy_body(f, copies[id(f)], copies)
    return [copies[id(f)] for f in funcs]


def _copy_body(src: Function, dst: Function, copies: dict) -> None:
    dst.blocks = []
    copy_blocks(src, dst, copies, {})


def copy_blocks(src: Function, dst: Function, copies: dict, vmap: dict) -> list:
    """Append copies of `src`'s blocks to `dst`; return them in `src`'s order.

    `vmap` maps id(value of src) to the value to use in the copy; an entry for a parameter
    of `src`'s entry block replaces it (the copied entry block then has no parameters)."""
    bmap = {}
    new_blocks = []
    for b in src.blocks:
        nb = dst.add_block(b.name)
        bmap[id(b)] = nb
        new_blocks.append(nb)
        for p in b.params:
            if id(p) not in vmap:
                vmap[id(p)] = nb.add_param(p.type, p.loc, p.name)
    pending = []
    for b in src.blocks:
        nb = bmap[id(b)]
        for i in b.instrs:
            attr = i.attr
            if i.opname == "call":
                attr = copies.get(id(attr), attr)
            ni = Instr(i.op, [], i.type, attr, i.loc, [bmap[id(s)] for s in i.succs], i.succ_nargs)
            vmap[id(i)] = ni
            nb.append(ni)
            pending.append((i, ni))
    for i, ni in pending:
        for v in i.operands:
            nv = v if isinstance(v, Const) else vmap[id(v)]
            ni.operands.append(nv)
            nv.uses.append(ni)
    return new_blocks
