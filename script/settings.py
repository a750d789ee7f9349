"""`script.config`, the settings of the package: a leaf, so that the modules that read them
(script.cuda's launches) import no more than it."""

from __future__ import annotations

import os


class _Config:
    """`script.config`: settings read when a function is decorated.

    `disable_jit` (default: the environment variable SCRIPT_DISABLE_JIT set to anything but
    "" or "0"): `@script` returns the Python function itself and `@script.kernel` a kernel
    run in a pure-Python simulation (script.cuda.simulator), so pdb, coverage and profilers
    see every line, as with Numba's NUMBA_DISABLE_JIT. Functions decorated before it changes
    keep what they were."""

    def __init__(self):
        self.disable_jit = os.environ.get("SCRIPT_DISABLE_JIT", "").strip() not in ("", "0")

    def __repr__(self):
        return f"script.config(disable_jit={self.disable_jit})"


config = _Config()
