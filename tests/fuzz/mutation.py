"""Fuzzing of the two readers of untrusted input: the IR text parser and `script.load`.

- "ir": random and mutated IR text (tokens deleted, duplicated, swapped or replaced by
  others of the IR's vocabulary, numbers replaced by extreme ones, lines deleted, moved or
  spliced from another function, characters inserted; and token soup). `parse_module` must
  return a module or raise `IRParseError` (a `LoadError`); a module it returns must print
  and parse back to the same text.
- "load": saved archives of generated programs, damaged in ways tests/fuzz_saved.py does not
  try: the IR member mutated as above (hashes fixed, the CPU changed, so that load parses,
  verifies and compiles it), zip members renamed, dropped, duplicated or added, an
  unsupported compression method, the manifest's keys deleted or their values' types
  swapped (hash fixed). `script.load` must succeed or raise `LoadError`; the loaded
  functions are not called (a forged archive is trusted like a native library).

Both run in a child process (`run_in_child`), which prints each case's number before it runs
it, so that a crash (the child dying) is counted and names the case.
"""

from __future__ import annotations

import glob
import hashlib
import io
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import traceback
import warnings
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|%\d+|bb\d+|@[\w.$]+|-?\d+\.\d*(?:e[-+]?\d+)?|-?\d+(?:e[-+]?\d+)?'
                   r'|[A-Za-z_][\w.]*|->|\s+|\S')
NUMBERS = ("0", "-1", "1", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
           "1e400", "nan", "-0.0", "inf", "255", "256", "99999999999999999999999", "1.5")


# ---- IR text -------------------------------------------------------------------------------

def ir_corpus(n_programs: int = 12, seed: str = "corpus") -> list[str]:
    """IR texts: the golden-test inputs, and the SSA and optimized IR of generated programs."""
    texts = []
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "ir", "**", "*.ir"), recursive=True)):
        lines = [ln for ln in open(path).read().split("\n") if not ln.startswith("//")]
        texts.append("\n".join(lines))
    for _, fn in compiled_programs(n_programs, seed):
        for stage in ("ssa", "opt"):
            texts.append(fn.ir(stage))
    return texts


def _programs_for(count: int, most: int) -> int:
    """How many generated programs seed a run of `count` mutants: `most` for long runs, fewer
    for the suite's short share (compiling them took most of its time), never under 3."""
    return max(3, min(most, count // 5))


def compiled_programs(n: int, seed: str):
    """(module, compiled main) of generated programs that compile and run."""
    import script
    from .program import generate
    from .runner import load_module
    workdir = tempfile.mkdtemp(prefix="fuzz-corpus-")
    out = []
    for i in range(n * 4):
        if len(out) >= n:
            break
        source = generate(f"{seed}:{i}", n_inputs=1)
        try:
            module = load_module(source, os.path.join(workdir, f"c{i}.py"), f"fuzzcorpus_{seed}_{i}")
            fn = script.script(module.main)
            fn(*module.inputs()[0])
        except Exception:  # noqa: BLE001 - programs that raise are still compiled; others skipped
            if not getattr(locals().get("fn"), "signatures", None):
                continue
        out.append((module, fn))
    return out


def mutate_text(rng: random.Random, text: str, corpus: list[str], vocab: list[str]) -> str:
    if rng.random() < 0.05:
        return "".join(rng.choice(vocab) + rng.choice((" ", " ", "\n", "")) for _ in range(rng.randint(1, 60)))
    for _ in range(rng.choice((1, 1, 1, 2, 3, 5))):
        kind = rng.choice(("token", "token", "token", "number", "line", "char", "splice"))
        if kind in ("line", "splice"):
            lines = text.split("\n")
            i = rng.randrange(len(lines))
            if kind == "splice":
                other = rng.choice(corpus).split("\n")
                lines[i:i] = other[rng.randrange(len(other)):][:rng.randint(1, 4)]
            else:
                op = rng.choice(("delete", "duplicate", "move"))
                line = lines.pop(i) if op != "duplicate" else lines[i]
                if op != "delete":
                    lines.insert(rng.randrange(len(lines) + 1), line)
            text = "\n".join(lines)
        elif kind == "char":
            i = rng.randrange(len(text) + 1)
            ch = rng.choice(("", "(", ")", "{", "}", ",", ":", "%", "@", '"', "\\", "\x00", "é", "\n", "-", "1"))
            text = text[:i] + ch + text[i + rng.randint(0, 2):]
        else:
            toks = TOKEN.findall(text)
            idx = [k for k, t in enumerate(toks) if not t.isspace()]
            if not idx:
                continue
            k = rng.choice(idx)
            if kind == "number":
                nums = [j for j in idx if re.fullmatch(r"-?[\d.]+(e[-+]?\d+)?", toks[j])]
                if nums:
                    toks[rng.choice(nums)] = rng.choice(NUMBERS)
            else:
                op = rng.choice(("delete", "duplicate", "replace", "replace", "swap"))
                if op == "delete":
                    toks[k] = ""
                elif op == "duplicate":
                    toks[k] = toks[k] + " " + toks[k]
                elif op == "replace":
                    toks[k] = rng.choice(vocab)
                else:
                    j = rng.choice(idx)
                    toks[k], toks[j] = toks[j], toks[k]
            text = "".join(toks)
    return text


def check_ir_text(text: str) -> tuple[str, str | None]:
    """("rejected" | "accepted", None) when the parser behaves, else ("failure", what)."""
    from script.ir.parser import IRParseError, parse_module
    from script.ir.printer import format_module
    try:
        module = parse_module(text, filename="fuzz.ir")
    except IRParseError:
        return "rejected", None
    except Exception as e:  # noqa: BLE001 - anything else is the bug
        return "failure", f"{type(e).__name__}: {e}\n{traceback.format_exc(limit=-4)}"
    printed = format_module(module)
    try:
        again = format_module(parse_module(printed, filename="fuzz.ir"))
    except Exception as e:  # noqa: BLE001
        return "failure", f"printed text does not parse back: {type(e).__name__}: {e}"
    if again != printed:
        return "failure", "print -> parse -> print is not the same text"
    return "accepted", None


def fuzz_ir(count: int, seed: int, report) -> dict:
    rng = random.Random(seed)
    corpus = ir_corpus(_programs_for(count, 12))
    vocab = sorted({t for text in corpus for t in TOKEN.findall(text) if not t.isspace()})
    counts = {"cases": 0, "rejected": 0, "accepted": 0, "failures": 0}
    for i in range(count):
        text = mutate_text(rng, rng.choice(corpus), corpus, vocab)
        report(i)
        status, problem = check_ir_text(text)
        counts["cases"] += 1
        counts[status + "s" if status == "failure" else status] += 1
        if problem is not None:
            print(f"FAIL ir case {i}: {problem}\n--- text ---\n{text}\n---", flush=True)
    return counts


# ---- archives ------------------------------------------------------------------------------

def _zip(members: list, compression=zipfile.ZIP_DEFLATED) -> bytes:
    out = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # duplicate names are wanted here
        with zipfile.ZipFile(out, "w", compression) as zf:
            for name, data in members:
                zf.writestr(name, data)
    return out.getvalue()


def _rehash(manifest: dict, members: dict) -> dict:
    data = json.dumps(manifest).encode()
    return {**members, "manifest.json": data, "manifest.sha256": hashlib.sha256(data).hexdigest().encode()}


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, prefix + (i,))


def mutate_archive(rng, members: dict, corpus, vocab) -> bytes:
    manifest = json.loads(members["manifest.json"])
    kind = rng.choice(("ir", "ir", "ir", "zip", "manifest"))
    if kind == "ir":
        specs = [s for f in manifest["functions"] for s in f["specializations"]]
        spec = rng.choice(specs)
        path = spec["members"]["ir"]["path"]
        text = mutate_text(rng, members[path].decode(), corpus, vocab).encode("utf-8", "replace")
        spec["members"]["ir"].update(size=len(text), sha256=hashlib.sha256(text).hexdigest())
        manifest["target"]["cpu"] = "some-other-cpu"
        return _zip(list(_rehash(manifest, {**members, path: text}).items()))
    if kind == "manifest":
        path = rng.choice(list(_paths(manifest))[1:])
        node = manifest
        for key in path[:-1]:
            node = node[key]
        old = node[path[-1]]
        if isinstance(node, dict) and rng.random() < 0.4:
            del node[path[-1]]
        else:
            swaps = [None, 0, -1, "", [], {}, True, 1.5, "x" * 300, [old], {"k": old}]
            node[path[-1]] = rng.choice(swaps)
        return _zip(list(_rehash(manifest, members).items()))
    items = list(members.items())
    op = rng.choice(("rename", "drop", "duplicate", "add", "compression", "flags", "dir"))
    i = rng.randrange(len(items))
    if op == "rename":
        items[i] = (rng.choice(("../x", "/abs", "a//b", "x\\y", "f0/./s0.ir", items[i][0] + "x", "é")), items[i][1])
    elif op == "drop":
        del items[i]
    elif op == "duplicate":
        items.append((items[i][0], items[rng.randrange(len(items))][1]))
    elif op == "add":
        items.append((rng.choice(("extra.bin", "f0/extra.o", "manifest.json.bak")), os.urandom(rng.randint(0, 64))))
    elif op == "dir":
        items.append(("f0/", b""))
    data = bytearray(_zip(items, zipfile.ZIP_STORED if op == "compression" else zipfile.ZIP_DEFLATED))
    if op in ("compression", "flags"):
        # patch every local and central header: compression method 12/14/99, or flag bits
        for sig, off in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
            for m in re.finditer(re.escape(sig), bytes(data)):
                at = m.start() + off
                if op == "compression":
                    data[at + 2:at + 4] = rng.choice((12, 14, 99, 1)).to_bytes(2, "little")
                else:
                    data[at:at + 2] = (int.from_bytes(data[at:at + 2], "little") | rng.choice((1, 8, 64, 2048))).to_bytes(2, "little")
    return bytes(data)


def fuzz_load(count: int, seed: int, report) -> dict:
    import script
    from script.errors import LoadError
    rng = random.Random(seed)
    corpus = ir_corpus(_programs_for(count, 6), seed="loadcorpus")
    vocab = sorted({t for text in corpus for t in TOKEN.findall(text) if not t.isspace()})
    workdir = tempfile.mkdtemp(prefix="fuzz-load-")
    bases = []
    for k, (module, fn) in enumerate(compiled_programs(_programs_for(count, 4), f"archive{seed}")):
        path = os.path.join(workdir, f"base{k}.smod")
        script.save({"main": fn}, path)
        with zipfile.ZipFile(path) as zf:
            bases.append({n: zf.read(n) for n in zf.namelist()})
    counts = {"cases": 0, "load_error": 0, "loaded": 0, "failures": 0}
    path = os.path.join(workdir, "case.smod")
    for i in range(count):
        data = mutate_archive(rng, rng.choice(bases), corpus, vocab)
        with open(path, "wb") as f:
            f.write(data)
        report(i)
        counts["cases"] += 1
        try:
            script.load(path)
            counts["loaded"] += 1
        except LoadError:
            counts["load_error"] += 1
        except Exception as e:  # noqa: BLE001 - anything but LoadError is the bug
            counts["failures"] += 1
            keep = os.path.join(workdir, f"fail{i}.smod")
            os.replace(path, keep)
            print(f"FAIL load case {i}: {type(e).__name__}: {e} ({keep})\n"
                  f"{traceback.format_exc(limit=-4)}", flush=True)
    return counts


# ---- driver --------------------------------------------------------------------------------

def child(target: str, count: int, seed: int, start: int) -> None:
    warnings.simplefilter("ignore")
    progress = sys.stderr

    def report(i):
        if i >= start:
            progress.write(f"case {i}\n")
            progress.flush()
    fuzz = fuzz_ir if target == "ir" else fuzz_load
    counts = fuzz(count, seed, report)
    print("MUTATION DONE " + json.dumps(counts), flush=True)


def run_in_child(target: str, count: int, seed: int, timeout: float = 3600) -> int:
    """Run `count` cases in a child process; a crash is reported and counted. Returns the
    exit status for the command line (1 on any failure)."""
    print(f"fuzzing {count} {'IR texts' if target == 'ir' else 'archives'}, seed {seed}", flush=True)
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, "-m", "tests.fuzz.mutation", target, str(count), str(seed), "0"],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    sys.stdout.write(r.stdout)
    if r.returncode != 0 or "MUTATION DONE" not in r.stdout:
        cases = re.findall(r"case (\d+)", r.stderr)
        print(f"CRASH: the child exited with status {r.returncode} at case "
              f"{cases[-1] if cases else '?'}\n{r.stderr[-3000:]}")
        return 1
    counts = json.loads(r.stdout.split("MUTATION DONE ")[1])
    print(f"summary: {counts}")
    return 1 if counts["failures"] else 0


if __name__ == "__main__":
    child(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
