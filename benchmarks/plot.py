"""Draw the README's benchmark tables as one SVG bar chart (docs/benchmarks.svg).

    python benchmarks/plot.py [--readme README.md] [--out docs/benchmarks.svg]

The figures are read from the tables of README.md's "Performance" section, so the chart is
redrawn from whatever the README says after a new run of benchmarks/run.py and
benchmarks/arrays.py: time per call as a ratio to C (gcc -O3 -march=native), on a log scale,
one group of bars per kernel. SVG, written by hand: matplotlib is not a dependency, and the
text stays text. A figure given as a range ("1.5-2.7x") is drawn to its low end with a line
to its high end.
"""

from __future__ import annotations

import argparse
import math
import os
import re
from xml.sax.saxutils import escape

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (the header cells that pick a README table, the columns drawn, the panel's title)
PANELS = [
    (("kernel", "script / C", "Numba / C"), ("script / C", "Numba / C"),
     "Scalar kernels: time per call / C"),
    (("kernel shape", "script / C", "Numba / C"), ("script / C", "Numba / C"),
     "Kernels as people write them (shapes.py): time per call / C"),
    (("kernel", "NumPy", "script, NumPy style"), ("NumPy", "script, NumPy style", "script loops", "Numba loops"),
     "Array kernels: time per call / C loops"),
]
COLORS = {"script / C": "#1f77b4", "script loops": "#1f77b4", "script, NumPy style": "#6baed6",
          "Numba / C": "#ff7f0e", "Numba loops": "#ff7f0e", "NumPy": "#9e9e9e"}
TICKS = (0.25, 0.5, 1, 2, 4, 8, 16)
WIDTH, LABEL_W, BAR_H, GAP = 760, 250, 9, 8
_FIGURE = re.compile(r"([0-9.]+)(?:\s*-\s*([0-9.]+))?x")


def read_tables(markdown: str) -> list[tuple[list[str], list[list[str]]]]:
    """Every table of the section "## Performance": (header cells, rows of cells)."""
    section = markdown.split("\n## Performance", 1)[-1].split("\n## ", 1)[0]
    tables, current = [], None
    for line in section.splitlines():
        if not line.startswith("|"):
            current = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if current is None:
            current = (cells, [])
            tables.append(current)
        elif not all(set(c) <= set("-: ") for c in cells):
            current[1].append(cells)
    return tables


def figure(cell: str) -> tuple[float, float] | None:
    """The ratio in a cell ("0.73x", "1.5-2.7x²", "**0.90x**") as (low, high), or None."""
    m = _FIGURE.search(cell.replace("**", ""))
    if m is None:
        return None
    low = float(m.group(1))
    return low, float(m.group(2) or low)


def panels(markdown: str) -> list[tuple[str, tuple, list]]:
    """(title, columns, [(kernel, [figure per column])]) for each panel found in `markdown`."""
    out = []
    tables = read_tables(markdown)
    for header, columns, title in PANELS:
        table = next((t for t in tables if tuple(t[0][:len(header)]) == header), None)
        if table is None:
            raise SystemExit(f"no README table with the header {' | '.join(header)}")
        index = [table[0].index(c) for c in columns]
        rows = [(_label(r[0]), [figure(r[i]) if i < len(r) else None for i in index]) for r in table[1]]
        out.append((title, columns, rows))
    return out


def _label(cell: str, limit: int = 38) -> str:
    """A kernel's name as the chart shows it: no markup or footnote marks, cut at a comma."""
    text = re.sub(r"`|\*\*|[¹²³]", "", cell).strip()
    while len(text) > limit and ", " in text:
        text = text.rsplit(", ", 1)[0]
    return text[:limit]


def _x(value: float) -> float:
    lo, hi = math.log(TICKS[0]), math.log(TICKS[-1])
    return LABEL_W + (math.log(max(value, TICKS[0])) - lo) / (hi - lo) * (WIDTH - LABEL_W - 20)


def svg(data: list) -> str:
    parts, y = [], 10
    for title, columns, rows in data:
        parts.append(f'<text x="10" y="{y + 14}" font-weight="bold">{escape(title)}</text>')
        legend_x = 10
        for c in columns:
            parts.append(f'<rect x="{legend_x}" y="{y + 22}" width="10" height="10" fill="{COLORS[c]}"/>'
                         f'<text x="{legend_x + 14}" y="{y + 31}">{escape(c)}</text>')
            legend_x += 24 + 7 * len(c)
        y += 44
        top = y
        for kernel, figures in rows:
            n = sum(f is not None for f in figures)
            group_h = n * BAR_H
            parts.append(f'<text x="{LABEL_W - 6}" y="{y + group_h / 2 + 4}" text-anchor="end">'
                         f'{escape(kernel)}</text>')
            for c, f in zip(columns, figures):
                if f is None:
                    continue
                low, high = f
                parts.append(f'<rect x="{LABEL_W}" y="{y}" width="{_x(low) - LABEL_W:.1f}" height="{BAR_H - 1}" '
                             f'fill="{COLORS[c]}"><title>{escape(c)}: {low:g}x</title></rect>')
                if high != low:
                    parts.append(f'<line x1="{_x(low):.1f}" x2="{_x(high):.1f}" y1="{y + BAR_H / 2}" '
                                 f'y2="{y + BAR_H / 2}" stroke="{COLORS[c]}" stroke-width="2"/>')
                y += BAR_H
            y += GAP
        for t in TICKS:
            dash = "" if t == 1 else ' stroke-dasharray="2,3"'
            parts.append(f'<line x1="{_x(t):.1f}" x2="{_x(t):.1f}" y1="{top - 4}" y2="{y}" stroke="#444"{dash}/>'
                         f'<text x="{_x(t):.1f}" y="{y + 13}" text-anchor="middle">{t:g}x</text>')
        parts.append(f'<text x="{_x(1) + 4:.1f}" y="{top + 6}" fill="#444">= C</text>')
        y += 30
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{y}" '
            f'font-family="sans-serif" font-size="12">\n<rect width="100%" height="100%" fill="white"/>\n'
            + "\n".join(parts) + "\n</svg>\n")


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--readme", default=os.path.join(ROOT, "README.md"))
    p.add_argument("--out", default=os.path.join(ROOT, "docs", "benchmarks.svg"))
    args = p.parse_args(argv)
    with open(args.readme, encoding="utf-8") as f:
        text = svg(panels(f.read()))
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
