"""A Graphviz picture of the typed IR's control-flow graph (`scriptc dump --format dot`).

One ``digraph`` for the whole output, one cluster per IR function (labelled with its
signature), one node per block listing its parameters and instructions with their types, as
the text printer writes them (the same `%n` and `bbN` names, without source locations).
Edges are labelled with the branch condition (``%5 true`` / ``%5 false`` for a `cbr`) and
the block arguments passed along the edge; true edges are green, false ones red. The entry
block is drawn bold, blocks that return or raise with a double border. `dot -Tsvg` renders it.
"""

from __future__ import annotations

import re

from script.ir.core import Function
from script.ir.printer import Namer, format_func_name, format_instr

_EXITS = ("ret", "raise", "reraise")
_BRANCH_COLORS = ('color="#2e7d32", fontcolor="#2e7d32"', 'color="#c62828", fontcolor="#c62828"')
_LOC_SUFFIX = re.compile(r"\s+; \d+:\d+$")


def format_dot(functions: list[Function], title: str = "cfg") -> str:
    lines = [f"digraph {_quote(title)} {{",
             '  node [shape=box, fontname="monospace", fontsize=10];',
             '  edge [fontname="monospace", fontsize=9];',
             "  compound=true;"]
    for i, func in enumerate(functions):
        lines.extend(_cluster(func, f"f{i}"))
    lines.append("}")
    return "\n".join(lines) + "\n"


def _cluster(func: Function, prefix: str) -> list[str]:
    namer = Namer(func)
    params = ", ".join(f"{namer.value(p)}: {p.type}" for p in func.params)
    label = f"{format_func_name(func.name)}({params}) -> {func.ret_type}"
    out = [f"  subgraph cluster_{prefix} {{",
           f"    label={_quote(label)}; labeljust=l; fontname=\"monospace\"; color=gray;"]
    for bi, block in enumerate(func.blocks):
        out.append(f"    {prefix}_bb{bi} [label={_quote(_block_text(block, namer, bi == 0))}"
                   f"{_node_style(block, bi == 0)}];")
    for bi, block in enumerate(func.blocks):
        term = block.terminator
        if term is None:
            continue
        for k, succ in enumerate(term.succs):
            target = f"{prefix}_bb{func.blocks.index(succ)}"
            attrs = [f"label={_quote(label)}"] if (label := _edge_label(term, k, namer)) else []
            if term.opname == "cbr":
                attrs.append(_BRANCH_COLORS[k])
            out.append(f"    {prefix}_bb{bi} -> {target}"
                       + (f" [{', '.join(attrs)}]" if attrs else "") + ";")
    out.append("  }")
    return out


def _block_text(block, namer: Namer, is_entry: bool) -> str:
    head = namer.block(block)
    if block.params and not is_entry:
        head += "(" + ", ".join(f"{namer.value(p)}: {p.type}" for p in block.params) + ")"
    body = [_LOC_SUFFIX.sub("", format_instr(i, namer)).strip() for i in block.instrs]
    return "\n".join([head + ":"] + body)


def _node_style(block, is_entry: bool) -> str:
    style = ""
    if is_entry:
        style += ", style=bold"
    term = block.terminator
    if term is not None and term.opname in _EXITS:
        style += ", peripheries=2"
    return style


def _edge_label(term, k: int, namer: Namer) -> str:
    parts = []
    if term.opname == "cbr":
        parts.append(f"{namer.value(term.operands[0])} {'true' if k == 0 else 'false'}")
    args = term.succ_args(k)
    if args:
        parts.append("(" + ", ".join(namer.value(a) for a in args) + ")")
    return "\n".join(parts)


def _quote(text: str) -> str:
    """A DOT string whose lines are left-justified (each ends in ``\\l``)."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    if "\n" in escaped:
        escaped = escaped.replace("\n", "\\l") + "\\l"
    return f'"{escaped}"'
