"""Deep copies of IR: whole functions, so that passes may change a copy while the original
stays cached, and regions of blocks inside one function.

`clone_functions(funcs)` copies a set of functions together: a `call` whose callee is in the
set calls the copy; other callees are kept as they are. `copy_blocks` appends a copy of one
function's blocks to another (inlining). `copy_region` copies some blocks of a function into
the same function (loop versioning).
"""

from __future__ import annotations

from script.ir.core import Block, Function, Instr


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
    return _copy(src.blocks, dst.add_block, copies, vmap)


def copy_region(func: Function, blocks: list[Block], at: int, vmap: dict) -> list[Block]:
    """Copy `blocks` of `func` into `func` at position `at` of its block list; return the
    copies in the order of `blocks`.

    Inside the copy, branches to blocks of the region go to their copies and values defined
    in the region are their copies' (`vmap` receives id(original) -> copy for each);
    branches out of the region and values defined outside it are kept. The copies have no
    predecessor outside the region until the caller adds one."""
    def add_block(name):
        block = func.add_block(name)
        func.blocks.pop()
        func.blocks.insert(at + len(made), block)
        made.append(block)
        return block

    made: list[Block] = []
    return _copy(blocks, add_block, {}, vmap)


def _copy(blocks: list[Block], add_block, copies: dict, vmap: dict) -> list[Block]:
    """Copy `blocks` into blocks made by `add_block(name)`. An operand found in `vmap` is
    replaced, any other (a constant, a value from outside `blocks`) kept; a call whose callee
    is in `copies` calls the copy."""
    bmap = {}
    new_blocks = []
    for b in blocks:
        nb = add_block(b.name)
        bmap[id(b)] = nb
        new_blocks.append(nb)
        for p in b.params:
            if id(p) not in vmap:
                vmap[id(p)] = nb.add_param(p.type, p.loc, p.name)
    pending = []
    for b in blocks:
        nb = bmap[id(b)]
        for i in b.instrs:
            attr = i.attr
            if i.opname == "call":
                attr = copies.get(id(attr), attr)
            ni = Instr(i.op, [], i.type, attr, i.loc, [bmap.get(id(s), s) for s in i.succs],
                       i.succ_nargs)
            vmap[id(i)] = ni
            nb.append(ni)
            pending.append((i, ni))
    for i, ni in pending:
        for v in i.operands:
            nv = vmap.get(id(v), v)
            ni.operands.append(nv)
            nv.uses.append(ni)
    return new_blocks
