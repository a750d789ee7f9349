"""Generated-program fuzzing (tests/fuzz/): a bounded run of the program fuzzer with a fixed
seed and a varying one (drawn from the commit: see _varying_seed), the regression cases it found, the IR text and archive fuzzers, and
the fuzzer's own parts (generator coverage, reference discards, shrinker).

Programs run in crash-safe worker processes, so a crash in compiled code fails a test
instead of ending pytest. A failure prints the seed: rerun it with
``python -m tests.fuzz --seed SEED --count N``. Long runs: see tests/fuzz/__main__.py.
"""

from __future__ import annotations

import glob
import os
import random
import re
import subprocess
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from tests.fuzz import mutation  # noqa: E402
from tests.fuzz.program import generate  # noqa: E402
from tests.fuzz.reference import Discard, instrument  # noqa: E402
from tests.fuzz.runner import PART_WAY_ERROR, same_outcome  # noqa: E402
from tests.fuzz.shrink import shrink  # noqa: E402
from tests.fuzz.worker import Pool  # noqa: E402

HERE = os.path.join(ROOT, "tests", "fuzz")
FIXED_SEED = 8
PROGRAMS = int(os.environ.get("SCRIPT_FUZZ_PROGRAMS", "8"))
BAD = ("mismatch", "crash", "hang", "compile_error", "internal_error", "generator_error", "harness_error")


@pytest.fixture(scope="module")
def pool():
    with Pool(1, timeout=60) as p:
        yield p


def _run(pool, seed, count):
    failures = []
    statuses = {}
    for i, verdict in pool.run((i, generate(f"{seed}:{i}")) for i in range(count)):
        statuses[verdict["status"]] = statuses.get(verdict["status"], 0) + 1
        if verdict["status"] in BAD:
            failures.append(f"program {seed}:{i}: {verdict['status']}: {verdict.get('detail', '')[:600]}")
    assert not failures, (f"seed {seed} (rerun: python -m tests.fuzz --seed {seed} --count {count}):\n"
                          + "\n".join(failures))
    assert statuses.get("agree", 0) >= count * 0.6, statuses


def test_generated_programs_fixed_seed(pool):
    _run(pool, FIXED_SEED, PROGRAMS)


def _varying_seed() -> int:
    """SCRIPT_FUZZ_SEED when set; else one drawn from the commit under test, so that each
    commit fuzzes new programs while a run of the suite at a given commit (locally, then in
    CI) sees the same ones; a random one outside a git checkout."""
    if os.environ.get("SCRIPT_FUZZ_SEED"):
        return int(os.environ["SCRIPT_FUZZ_SEED"])
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        head = ""
    if re.fullmatch(r"[0-9a-f]{40}", head):
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               capture_output=True, text=True, timeout=10).stdout
        if not dirty:
            return int(head[:8], 16) >> 2
    return random.randrange(1 << 30)


def test_generated_programs_varying_seed(pool):
    seed = _varying_seed()
    print(f"fuzz seed {seed}")
    _run(pool, seed, PROGRAMS // 2)


@pytest.mark.parametrize("path", sorted(glob.glob(os.path.join(HERE, "regressions", "*.py"))),
                         ids=os.path.basename)
def test_regression(pool, path):
    verdict = pool.run_one(open(path).read())
    assert verdict["status"] == "agree", verdict


@pytest.mark.parametrize("path", sorted(glob.glob(os.path.join(HERE, "known", "*.py"))),
                         ids=os.path.basename)
def test_known_bug_still_open(pool, path):
    """Bugs the fuzzer found that are not fixed yet. When one starts to pass, move its file
    to regressions/ (this test then fails on purpose)."""
    verdict = pool.run_one(open(path).read())
    assert verdict["status"] not in ("agree", "crash", "hang"), \
        f"{os.path.basename(path)} passes now: move it to tests/fuzz/regressions/ ({verdict})"


def test_mutated_ir_text_is_parsed_or_rejected():
    assert mutation.run_in_child("ir", 30, random.randrange(1 << 30), timeout=300) == 0


def test_mutated_archives_load_or_raise_load_error():
    assert mutation.run_in_child("load", 10, random.randrange(1 << 30), timeout=300) == 0


def test_generator_covers_the_subset():
    text = "".join(generate(f"cover:{i}") for i in range(150))
    for construct in ("while ", "break", "continue", "else:", "elif ", " ** ", " // ", " % ", " << ",
                      " >> ", " & ", " ^ ", "divmod(", "math.", "round(", "abs(", "min(", "max(",
                      " if ", " and ", " or ", "not ", ":=", "assert ", "raise ", "n - 1", "np.array(",
                      "[::", ".T", "enumerate(", "zip(", "sum(", "len(", ".shape[", "int(", "float(",
                      "range(", " in (", "asfortranarray", "dtype=np.float32", "dtype=np.uint8", "return (",
                      " < ", " <= ", " == ", " != ",
                      # arrays made, combined and reduced in the program (fuzz/arrays.py)
                      "np.zeros(", "np.full(", "np.empty(", "_like(", "np.arange(", "np.linspace(",
                      ".reshape(", ".astype(", ".copy()", "np.where(", "np.clip(", "np.minimum(",
                      " @ ", "np.dot(", "axis=", "np.mean(", "np.argmin(", "np.any(", ".fill(", " &= ",
                      "[::-1]", "APPROX = True",
                      # lists, dicts, sets and strs (fuzz/containers.py, container_*.py, strs.py)
                      ".append(", ".extend(", ".insert(", ".pop(", ".remove(", ".index(", ".count(",
                      ".sort(", ".reverse()", ".clear()", ".copy()", "sorted(", "key=", "reverse=True",
                      "reversed(", ".items()", ".values()", ".get(", ".setdefault(", ".update(", "del ",
                      ".add(", ".discard(", "set(", "dict(zip(", " for c", " not in ", "f'", ".format(",
                      "' % (", ".split(", ".join(", ".strip(", ".replace(", ":.3f}", "!r}", "str(", "repr(",
                      "list[int]", "list[float]", "dict[str, int]", "int('", "float(", "chr(", "ord("):
        assert construct in text, construct


def test_part_way_int_power_error_accepts_only_the_order_difference():
    """Both raise the int power error: an element may differ only where one side left it as
    it was (docs/arrays.md); anything else, or another error, is still a mismatch."""
    old = np.array([5, -1, 6])
    numpy_after, compiled_after = np.array([5, -1, 46656]), np.array([3125, -1, 6])
    error = PART_WAY_ERROR
    assert same_outcome((error, [numpy_after]), (error, [compiled_after]), before=[old])
    assert not same_outcome((error, [numpy_after]), (error, [np.array([3125, -1, 7])]), before=[old])
    assert not same_outcome((error, [numpy_after]), (error, [compiled_after]))
    other = ("raise", "ValueError", "math domain error")
    assert not same_outcome((other, [numpy_after]), (other, [compiled_after]), before=[old])


def test_reference_discards_int64_overflow():
    src = "def main(x):\n    return x * x * x\n\ndef inputs():\n    return [(3,), (2**30,)]\n"
    ns = instrument(src)
    assert ns["main"](3) == 27
    with pytest.raises(Discard):
        ns["main"](2**30)


def test_shrinker_keeps_the_failure_and_removes_the_rest():
    src = generate("shrink:3")
    src += "\ndef extra(x):\n    y = x // 7\n    return y\n"

    def fails(text):
        return "// 7" in text
    small, tried = shrink(src, fails, seconds=20)
    assert "// 7" in small and len(small) < len(src) and tried > 0
