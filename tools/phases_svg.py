"""The compiler's phases as a picture, drawn from the tables that run them.

    python tools/phases_svg.py [OUT.svg]      # default: docs/phases.svg

The middle of the picture is `script.ir.passes.STEPS["function"]` (each step a box, coloured
by its kind, `when` its condition) and, below the line, the -O2 pipeline of `PIPELINES` that
the "optimize" step runs (a `Fixpoint` as one box of its passes); the ends are the frontend (before the
steps) and the backend's stages (`script.backend.runtime.library.STEPS`). Change a table and run this again:
tests/test_frontend_shape.py fails while docs/phases.svg is not what this draws.
"""

from __future__ import annotations

import html
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from script.backend.runtime.library import STEPS as BACKEND  # noqa: E402
from script.ir.passes import PIPELINES, STEPS, Fixpoint, Then  # noqa: E402

FRONTEND = (("source", "FunctionInfo (source.py)"),
            ("lowering", "FunctionLowering (lower_stmt.py)"))
_BACKEND_TEXT = {"lower": "backend: IR to LLVM IR text", "parse": "backend: llvmlite", "optimize":
                 "backend: LLVM -O3", "emit": "backend: object code", "link": "backend: JIT, entry point"}
COLOURS = {"frontend": "#dbe9f6", "check": "#f9e0c7", "transform": "#e3f1d8", "verify": "#eeeeee",
           "optimize": "#fbf3c4", "select": "#e8def3", "backend": "#dbe9f6", "pass": "#fffbe6"}
BOX_W, BOX_H, GAP, PAD, PER_ROW = 190, 46, 18, 20, 5
FONT = 'font-family="DejaVu Sans, Arial, sans-serif"'


def _box(x, y, w, h, fill, title, sub="", title_size=11) -> str:
    parts = [f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="6" fill="{fill}" stroke="#555"/>',
             f'<text x="{x + w / 2}" y="{y + (18 if sub else h / 2 + 4)}" text-anchor="middle" '
             f'font-size="{title_size}" {FONT}>{html.escape(title)}</text>']
    if sub:
        parts.append(f'<text x="{x + w / 2}" y="{y + 34}" text-anchor="middle" font-size="9" '
                     f'fill="#444" {FONT}>{html.escape(sub)}</text>')
    return "\n".join(parts)


def _arrow(x1, y1, x2, y2) -> str:
    return f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#555" marker-end="url(#head)"/>'


def rows() -> list[list[tuple[str, str, str]]]:
    """The boxes of the main line, in rows of `PER_ROW`: (kind, title, subtitle)."""
    line = [("frontend", name, sub) for name, sub in FRONTEND]
    for step in STEPS["function"]:
        line.append((step.kind, step.name, f"{step.kind}" + (f", when {step.when}" if step.when else "")))
    line += [("backend", name, _BACKEND_TEXT.get(name, "backend")) for name in BACKEND]
    return [line[k:k + PER_ROW] for k in range(0, len(line), PER_ROW)]


def pipeline(level: int = 2) -> list[str]:
    """The passes of optimization level `level`, a fixpoint written as `(a, b, c)*n`."""
    out = []
    for item in PIPELINES[level]:
        if isinstance(item, Then):
            out.append(f"{item.first} then {', '.join(item.passes)}")
        else:
            out.append(f"({', '.join(item.passes)}) x{item.limit}" if isinstance(item, Fixpoint) else item)
    return out


def draw() -> str:
    lines = rows()
    width = PAD * 2 + PER_ROW * BOX_W + (PER_ROW - 1) * GAP
    body, y = [], PAD + 44
    for r, row in enumerate(lines):
        x0 = PAD if r % 2 == 0 else width - PAD - BOX_W          # rows snake left and right
        step = BOX_W + GAP if r % 2 == 0 else -(BOX_W + GAP)
        for k, (kind, title, sub) in enumerate(row):
            x = x0 + k * step
            body.append(_box(x, y, BOX_W, BOX_H, COLOURS[kind], title, sub))
            if k:
                px = x - step
                body.append(_arrow(px + BOX_W if step > 0 else px, y + BOX_H / 2,
                                   x if step > 0 else x + BOX_W, y + BOX_H / 2))
        if r + 1 < len(lines):
            xe = x0 + (len(row) - 1) * step
            body.append(_arrow(xe + BOX_W / 2, y + BOX_H, xe + BOX_W / 2, y + BOX_H + GAP * 2))
        y += BOX_H + GAP * 2
    passes = pipeline(2)
    px, py = PAD, y + 8
    body.append(f'<text x="{px}" y="{py}" font-size="12" {FONT}>the "optimize" step at -O2 '
                f'(script.ir.passes.PIPELINES[2]):</text>')
    py += 10
    pw = width - 2 * PAD
    for k, name in enumerate(passes):
        body.append(_box(px, py + k * 24, pw, 20, COLOURS["pass"], name, title_size=11))
    height = py + len(passes) * 24 + PAD
    title = (f'<text x="{PAD}" y="{PAD + 6}" font-size="14" font-weight="bold" {FONT}>'
             f'@script: from a Python function to native code</text>')
    legend = "".join(f'<rect x="{PAD + 90 * i}" y="{PAD + 16}" width="10" height="10" fill="{c}" stroke="#555"/>'
                     f'<text x="{PAD + 14 + 90 * i}" y="{PAD + 25}" font-size="10" {FONT}>{k}</text>'
                     for i, (k, c) in enumerate(COLOURS.items()))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}">\n'
            '<defs><marker id="head" markerWidth="8" markerHeight="8" refX="7" refY="4" orient="auto">'
            '<path d="M0,0 L8,4 L0,8 z" fill="#555"/></marker></defs>\n'
            f'<rect width="100%" height="100%" fill="white"/>\n{title}\n{legend}\n' + "\n".join(body) + "\n</svg>\n")


def main(argv) -> int:
    out = argv[0] if argv else os.path.join(os.path.dirname(HERE), "docs", "phases.svg")
    with open(out, "w", encoding="utf-8") as fh:
        fh.write(draw())
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
