"""Long fuzzing runs outside CI.

    python -m tests.fuzz [--count N] [--seed S] [--jobs J] [--out DIR] [--no-shrink]
    python -m tests.fuzz ir [--count N] [--seed S]       # mutated IR text
    python -m tests.fuzz load [--count N] [--seed S]     # mutated saved archives

Programs run in crash-safe workers (worker.py); every failure is shrunk (shrink.py) and
written to DIR with its verdict in the docstring, ready to become a regression case in
tests/fuzz/regressions/. Prints a summary: programs run, agreements, mismatches, crashes,
hangs, compiler errors, known issues, skipped programs.
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import re
import sys
import time

from .program import generate
from .worker import Pool

FAILURES = ("mismatch", "crash", "hang", "compile_error", "internal_error", "generator_error",
            "harness_error")


def signature(verdict: dict) -> tuple:
    """What must stay the same while a failing program shrinks."""
    detail = verdict.get("detail", "")
    if verdict["status"] in ("compile_error", "internal_error", "known"):
        first = detail.split("\n")[0]
        first = re.sub(r"^.*?\.py:\d+:\d+: ", "", first)
        first = re.sub(r"'[^']*'|\d+|0x[0-9a-f]+", "_", first)
        return verdict["status"], verdict.get("error"), first
    return (verdict["status"],)


def shrink_failure(pool: Pool, source: str, verdict: dict, seconds: float) -> tuple[str, dict]:
    from .shrink import shrink
    want = signature(verdict)
    small, _ = shrink(source, lambda text: signature(pool.run_one(text)) == want, seconds)
    return small, pool.run_one(small)


def save_case(out: str, key: str, source: str, verdict: dict) -> str:
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, f"{re.sub(r'[^A-Za-z0-9_]', '_', key)}.py")
    detail = verdict.get("detail", "").replace('"""', "'''")
    with open(path, "w") as f:
        f.write(f'"""Fuzz case {key}: {verdict["status"]}.\n\n{detail}\n"""\n' + source)
    return path


def run_programs(args) -> int:
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    print(f"fuzzing {args.count} programs, seed {seed}, {args.jobs} job(s)", flush=True)
    counts = collections.Counter()
    known = collections.Counter()
    failures = []
    start = time.monotonic()
    sources = {}

    def jobs():
        for i in range(args.count):
            sources[i] = generate(f"{seed}:{i}", unbound_reads=args.unbound_reads)
            yield i, sources[i]

    with Pool(args.jobs, timeout=args.timeout) as pool:
        for i, verdict in pool.run(jobs()):
            source = sources.pop(i)
            status = verdict["status"]
            counts[status] += 1
            if status == "known":
                known[verdict["known"][:70]] += 1
            if status in FAILURES:
                print(f"[{i}] {status}: {verdict.get('detail', '')[:500]}", flush=True)
                failures.append((i, source, verdict))
            done = sum(counts.values())
            if done % args.report_every == 0:
                print(f"... {done} programs, {dict(counts)} ({time.monotonic() - start:.0f} s)", flush=True)
    with Pool(1, timeout=10) as pool:
        for i, source, verdict in failures[:args.max_shrink]:
            if args.no_shrink:
                small, v = source, verdict
            else:
                small, v = shrink_failure(pool, source, verdict, args.shrink_seconds)
            print(f"saved {save_case(args.out, f'{seed}_{i}', small, v)}", flush=True)
    total = sum(counts.values())
    print(f"\n{total} programs in {time.monotonic() - start:.0f} s (seed {seed}): "
          f"{counts['agree']} agree, {counts['mismatch']} mismatches, {counts['crash']} crashes, "
          f"{counts['hang']} hangs, {counts['compile_error']} compile errors, "
          f"{counts['internal_error']} internal errors, {counts['generator_error']} generator errors, "
          f"{counts['known']} known issues, {counts['skipped']} skipped (int64 overflow)")
    for why, n in known.most_common():
        print(f"  known x{n}: {why}")
    return 1 if any(counts[s] for s in FAILURES) else 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.fuzz")
    p.add_argument("target", nargs="?", default="programs", choices=("programs", "ir", "load"))
    p.add_argument("--count", type=int, default=1000)
    p.add_argument("--seed", type=int)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--timeout", type=float, default=60.0, help="seconds per program")
    p.add_argument("--out", default="fuzz-failures")
    p.add_argument("--no-shrink", action="store_true")
    p.add_argument("--unbound-reads", action="store_true",
                   help="also read variables assigned on some paths only (see program.generate)")
    p.add_argument("--shrink-seconds", type=float, default=180.0)
    p.add_argument("--max-shrink", type=int, default=20)
    p.add_argument("--report-every", type=int, default=500)
    args = p.parse_args(argv)
    if args.target == "programs":
        return run_programs(args)
    from . import mutation
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    return mutation.run_in_child(args.target, args.count, seed)


if __name__ == "__main__":
    sys.exit(main())
