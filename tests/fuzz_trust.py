"""A mutation fuzzer of what crosses the trust boundary (docs/saved-modules.md, "Trust"):
saved modules, their object code and manifests, and compile-cache entries and store files,
forged as a forger can (hashes recomputed, signatures kept, dropped or made under another
key) or altered as the user's own files could be (re-signed with the user's key, or loaded
with ``object_code=True``). Each case runs in a forked child, so a crash or a hang is
counted, not fatal.

    python tests/fuzz_trust.py --cases N [--seed S] [--work DIR] [--timeout SECONDS]

Kinds of case and what each child must do (else it is counted as a failure):

- ``archive-bytes``: the signed archive's bytes damaged: LoadError, or the right answers.
- ``object-forged``: object code replaced (another function's, mutated, random), hashes
  recomputed, the signature kept, removed or made under a random key; default `load`: its
  object code must not run (``__recompiled__`` set) and the answers must be right.
- ``object-trusted``: mutated object code, re-signed with the user's key or loaded with
  ``object_code=True``: LoadError or a load that does not crash (its code is not called:
  the caller vouched for arbitrary code).
- ``manifest-forged``: one JSON node replaced, hashes recomputed, signature kept: LoadError,
  or a load through IR whose calls do not crash.
- ``manifest-trusted``: the same re-signed: LoadError, or a load whose calls do not crash
  and give the right answers where the functions' entries are unchanged.
- ``ir-forged``: the IR text mutated (hashes recomputed, signature kept): LoadError or a load
  (not called: IR that verifies may still index out of bounds until memory-safe IR lands).
- ``cache-entry`` / ``store-file``: a cache entry or a file of the store mutated, with its
  digest recomputed as a forger can (plain BLAKE2b, or keyed under another key) or left
  wrong: the right answers (the file is ignored and compiled again).

Prints one JSON line at the end: counts per outcome and per kind, and the failing cases.
Exit status 1 when any case crashed, hung, answered wrong or ran forged code.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import warnings
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

GOOD = '''import script

@script.script
def answer(x: int) -> int:
    return x * 2 + 1

@script.script
def collatz(n: int) -> int:
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps

@script.script
def poly(x: float, k: int = 3) -> float:
    s = 0.0
    for i in range(k):
        s = s * x + i
    return s

@script.script
def divide(a: int, b: int) -> int:
    return a // b
'''
# The same names and types, other answers: its object code links in the good one's place.
EVIL = GOOD.replace("x * 2 + 1", "42").replace("steps += 1", "steps += 2") \
    .replace("s * x + i", "s + x").replace("a // b", "a + b")
CACHED = GOOD.replace("@script.script", "@script.script(cache=True)")
CALLS = [("answer", (5,)), ("collatz", (27,)), ("poly", (1.5,)), ("poly", (2.0, 5)),
         ("divide", (7, 2)), ("divide", (1, 0))]
KINDS = {"archive-bytes": 2, "object-forged": 3, "object-trusted": 3, "manifest-forged": 2,
         "manifest-trusted": 2, "ir-forged": 1, "cache-entry": 2, "store-file": 1}

OK_ERROR, OK, WRONG, FORGED_RAN, BAD_ERROR = 10, 11, 12, 13, 14
OUTCOME = {OK_ERROR: "load_error", OK: "ok", WRONG: "wrong", FORGED_RAN: "forged_ran",
           BAD_ERROR: "other_error"}


def outcomes(get) -> list:
    out = []
    for name, args in CALLS:
        try:
            out.append(["ok", repr(get(name)(*args))])
        except Exception as e:  # noqa: BLE001
            out.append(["raise", type(e).__name__, str(e)])
    return out


# ---- mutations ----------------------------------------------------------------------------

def mutate(data: bytes, rng: random.Random, focus: int | None = None) -> bytes:
    """`data` with one to three random edits (bit flips, spans overwritten, inserted, deleted
    or repeated, interesting values, truncation); `focus` biases edits to its first bytes
    (an ELF header and what it points at)."""
    b = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        if not b:
            b += os.urandom(rng.randint(1, 64))
            continue
        hi = len(b) if focus is None or rng.random() < 0.5 else min(len(b), focus)
        at = rng.randrange(hi)
        op = rng.randrange(7)
        if op == 0:
            for _ in range(rng.randint(1, 8)):
                k = rng.randrange(hi)
                b[k] ^= 1 << rng.randrange(8)
        elif op == 1:
            n = rng.randint(1, 16)
            b[at:at + n] = bytes(rng.randrange(256) for _ in range(n))
        elif op == 2:
            b[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 32)))
        elif op == 3:
            del b[at:at + rng.randint(1, 32)]
        elif op == 4:
            n = rng.choice([1, 2, 4, 8])
            value = rng.choice([0, 1, 0x7F, 0x80, 0xFF, 0x7FFF, 0xFFFF, 0x7FFFFFFF, 0xFFFFFFFF,
                                2**63 - 1, 2**64 - 1, rng.randrange(2**(8 * n))]) % 2**(8 * n)
            b[at:at + n] = value.to_bytes(n, "little")
        elif op == 5:
            del b[rng.randrange(len(b)):]
        else:
            span = b[at:at + rng.randint(1, 64)]
            b[rng.randrange(len(b)):0] = span
    return bytes(b)


def random_json(rng: random.Random, depth: int = 0):
    r = rng.random()
    if depth > 2 or r < 0.5:
        return rng.choice([None, True, False, 0, -1, 1, 2**31, 2**63, 2**64 + 1, 1.5, "", "i64",
                           "f64", "bool", "none", "x" * 300, "f0/s0.o", "f0/s0.ir", "../x",
                           "answer.i64", {"tuple": ["i64"]}, {"array": {"dtype": "f64",
                                                                       "ndim": 1,
                                                                       "layout": "C"}}])
    if r < 0.75:
        return [random_json(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {rng.choice(["a", "type", "size", "path", "entry"]): random_json(rng, depth + 1)
            for _ in range(rng.randint(0, 3))}


def nodes(value, path=()):
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from nodes(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from nodes(v, path + (i,))


def replace_node(value, path, new):
    if not path:
        return new
    parent = value
    for k in path[:-1]:
        parent = parent[k]
    parent[path[-1]] = new
    return value


# ---- archives -----------------------------------------------------------------------------

def members_of(data: bytes) -> dict:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return {name: zf.read(name) for name in zf.namelist()}


def zip_of(members: dict) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return out.getvalue()


def rehash(manifest: dict, members: dict) -> None:
    """Every member's size and SHA-256 in `manifest` made right, as a forger can."""
    for f in manifest.get("functions", []) if isinstance(manifest, dict) else []:
        for s in f.get("specializations", []) if isinstance(f, dict) else []:
            for m in (s.get("members") or {}).values() if isinstance(s, dict) else []:
                if isinstance(m, dict) and m.get("path") in members:
                    m["size"] = len(members[m["path"]])
                    m["sha256"] = hashlib.sha256(members[m["path"]]).hexdigest()


def rebuild(members: dict, manifest, signature: str, rng: random.Random) -> bytes:
    """The archive of `members` with `manifest` and its hash; `signature`: "keep" the old one
    (no longer valid), "drop" it, "random" (a valid one under a random key), "user" (this
    user's key: what only the user can make)."""
    from script.saved_trust import sign
    data = json.dumps(manifest).encode()
    members = dict(members)
    members["manifest.json"] = data
    members["manifest.sha256"] = hashlib.sha256(data).hexdigest().encode()
    if signature == "drop":
        members.pop("manifest.sig", None)
    elif signature == "random":
        members["manifest.sig"] = sign(data, os.urandom(32))
    elif signature == "user":
        members["manifest.sig"] = sign(data)
    return zip_of(members)


def object_paths(manifest: dict) -> list:
    return [s["members"]["object"]["path"] for f in manifest["functions"]
            for s in f["specializations"]]


def ir_paths(manifest: dict) -> list:
    return [s["members"]["ir"]["path"] for f in manifest["functions"]
            for s in f["specializations"]]


# ---- the cases ----------------------------------------------------------------------------

class Fuzz:
    def __init__(self, work: str):
        self.work = work
        self.good = open(os.path.join(work, "good.smod"), "rb").read()
        self.members = members_of(self.good)
        self.manifest = json.loads(self.members["manifest.json"])
        evil = members_of(open(os.path.join(work, "evil.smod"), "rb").read())
        evil_manifest = json.loads(evil["manifest.json"])
        self.evil_objects = [evil[p] for p in object_paths(evil_manifest)]
        self.expected = json.load(open(os.path.join(work, "expected.json")))
        self.cache_base = os.path.join(work, "cache-base")
        self.entries = sorted(n for n in os.listdir(self.cache_base) if n.endswith(".cache"))
        self.store_files = sorted(n for n in os.listdir(os.path.join(self.cache_base, "native"))
                                  if n.endswith((".o", ".so")))

    # each returns (what the child runs: a callable, a description)

    def archive_bytes(self, rng):
        data = mutate(self.good, rng)
        return self._load_case(data, "default", call=True, expect_right=True), "bytes"

    def object_forged(self, rng):
        members, manifest = dict(self.members), json.loads(self.members["manifest.json"])
        paths = object_paths(manifest)
        how = rng.choice(["evil", "mutated", "random"])
        for k, path in enumerate(paths):
            if rng.random() < 0.6 or k == 0:
                if how == "evil":
                    members[path] = self.evil_objects[k]
                elif how == "mutated":
                    members[path] = mutate(members[path], rng, focus=512)
                else:
                    members[path] = os.urandom(rng.randint(0, 4096))
        rehash(manifest, members)
        sig = rng.choice(["keep", "drop", "random"])
        data = rebuild(members, manifest, sig, rng)
        return self._load_case(data, "default", call=True, expect_right=True,
                               must_recompile=True), f"{how} {sig}"

    def object_trusted(self, rng):
        members, manifest = dict(self.members), json.loads(self.members["manifest.json"])
        path = rng.choice(object_paths(manifest))
        members[path] = mutate(members[path], rng, focus=1024)
        rehash(manifest, members)
        how = rng.choice(["user", "object_code"])
        data = rebuild(members, manifest, "user" if how == "user" else "keep", rng)
        return self._load_case(data, "trust" if how == "object_code" else "default",
                               call=False), f"{path} {how}"

    def _manifest_edit(self, rng):
        manifest = json.loads(self.members["manifest.json"])
        paths = list(nodes(manifest))
        path = rng.choice(paths[1:])
        replace_node(manifest, path, random_json(rng))
        same = [_semantic(f) for f in manifest.get("functions", [])] == \
            [_semantic(f) for f in self.manifest["functions"]] \
            if isinstance(manifest.get("functions"), list) else False
        return manifest, path, same

    def manifest_forged(self, rng):
        manifest, path, _ = self._manifest_edit(rng)
        data = rebuild(self.members, manifest, "keep", rng)
        return self._load_case(data, "default", call=True, expect_right=False,
                               must_recompile=True), repr(path)

    def manifest_trusted(self, rng):
        manifest, path, same = self._manifest_edit(rng)
        data = rebuild(self.members, manifest, "user", rng)
        return self._load_case(data, "default", call=True, expect_right=same), repr(path)

    def ir_forged(self, rng):
        members, manifest = dict(self.members), json.loads(self.members["manifest.json"])
        path = rng.choice(ir_paths(manifest))
        text = members[path].decode()
        lines = text.split("\n")
        k = rng.randrange(len(lines))
        words = lines[k].split(" ")
        j = rng.randrange(len(words))
        words[j] = rng.choice(["0", "1", "-1", "1000000000000", "i64", "f64", "%0", "%1", "add",
                               "sub", "load", "store", "ret", "br", "bb0", "bb1", "", "call",
                               "@answer.i64", "x" * 40, words[rng.randrange(len(words))]])
        lines[k] = " ".join(words)
        members[path] = "\n".join(lines).encode()
        rehash(manifest, members)
        manifest["target"]["cpu"] = "forged-cpu"        # and it would not link here anyway
        data = rebuild(members, manifest, "keep", rng)
        return self._load_case(data, "default", call=False), f"{path}:{k + 1}"

    def cache_entry(self, rng):
        name = rng.choice(self.entries)
        return self._cache_case(rng, name), name

    def store_file(self, rng):
        name = rng.choice(self.store_files)
        return self._cache_case(rng, os.path.join("native", name)), name

    def _cache_case(self, rng, name):
        from script import cache, store
        root = tempfile.mkdtemp(dir=self.work, prefix="case-")
        shutil.copytree(self.cache_base, root, dirs_exist_ok=True)
        path = os.path.join(root, name)
        data = open(path, "rb").read()
        how = rng.choice(["damaged", "digest", "other-key"])
        if name.endswith(".cache"):
            head = len(cache.MAGIC) + 65
            body = mutate(data[head:], rng)
            if how == "damaged":
                new = data[:head] + body
            else:
                tag = store.digest(body) if how == "digest" else \
                    hashlib.blake2b(body, digest_size=32, key=os.urandom(32)).hexdigest()
                new = cache.MAGIC + tag.encode() + b"\n" + body
        else:
            magic, n = store.OBJECT_MAGIC, len(store.OBJECT_MAGIC) + store.DIGEST_LENGTH
            shared = name.endswith(".so")
            payload = data[:-n] if shared else data[n:]
            payload = mutate(payload, rng, focus=1024)
            tag = (store.digest(payload) if how == "digest" else
                   hashlib.blake2b(payload, digest_size=32, key=os.urandom(32)).hexdigest()
                   if how == "other-key" else "0" * 64).encode()
            new = payload + magic + tag if shared else magic + tag + payload
        with open(path, "wb") as f:
            f.write(new)

        def run():
            os.environ["SCRIPT_CACHE_DIR"] = root
            sys.path.insert(0, self.work)
            import fz_cached
            got = outcomes(lambda n: getattr(fz_cached, n))
            return OK if got == self.expected else WRONG
        return run

    def _load_case(self, data: bytes, mode: str, call: bool, expect_right: bool = False,
                   must_recompile: bool = False):
        path = os.path.join(self.work, "case.smod")
        with open(path, "wb") as f:
            f.write(data)
        expected = self.expected

        def run():
            import script
            from script.errors import LoadError
            try:
                m = script.load(path, object_code=True if mode == "trust" else None)
            except LoadError:
                return OK_ERROR
            if must_recompile and m.__recompiled__ is None:
                return FORGED_RAN
            if not call:
                return OK
            got = outcomes(lambda n: getattr(m, n))
            return OK if not expect_right or got == expected else WRONG
        return run


def _semantic(f) -> str:
    """What of a manifest's function entry its calls' answers depend on."""
    if not isinstance(f, dict):
        return repr(f)
    return json.dumps({k: v for k, v in f.items() if k not in ("doc", "qualname", "module")},
                      sort_keys=True)


# ---- running ------------------------------------------------------------------------------

def prepare(work: str) -> None:
    """good.smod, evil.smod (each saved by a process of its own, so that their IR names are
    the same), the answers CPython gives, and a cache of the good functions."""
    env = dict(os.environ, PYTHONPATH=ROOT)
    for name, text in (("fz_good", GOOD), ("fz_evil", EVIL), ("fz_cached", CACHED)):
        with open(os.path.join(work, f"{name}.py"), "w") as f:
            f.write(text)
    for name in ("good", "evil"):
        code = (f"import sys; sys.path.insert(0, sys.argv[1]); import script, fz_{name} as m; "
                f"script.save([m.answer, m.collatz, m.poly, m.divide], sys.argv[1] + "
                f"'/{name}.smod', signatures={{'poly': [(float, int)]}})")
        subprocess.run([sys.executable, "-c", code, work], check=True, env=env, timeout=300)
    code = ("import sys, json; sys.path.insert(0, sys.argv[1]); sys.argv[2:] = []; "
            "import fz_good as m, fuzz_trust as F; "
            "json.dump(F.outcomes(lambda n: getattr(m, n).py_func), "
            "open(sys.argv[1] + '/expected.json', 'w'))")
    subprocess.run([sys.executable, "-c", code, work], check=True, timeout=300,
                   env=dict(env, PYTHONPATH=os.pathsep.join([ROOT, HERE])))
    base = os.path.join(work, "cache-base")
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import fz_cached as m, fuzz_trust as F; "
            "F.outcomes(lambda n: getattr(m, n))")
    subprocess.run([sys.executable, "-c", code, work], check=True, timeout=300,
                   env=dict(env, SCRIPT_CACHE_DIR=base,
                            PYTHONPATH=os.pathsep.join([ROOT, HERE])))


def run_child(run, timeout: float) -> str:
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        code = BAD_ERROR
        try:
            signal.alarm(int(timeout) + 1)
            os.dup2(os.open(os.devnull, os.O_WRONLY), 2)      # warnings, LLVM's messages
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                code = run()
        except BaseException as e:  # noqa: BLE001
            try:
                os.write(1, f"    unexpected {type(e).__name__}: {str(e)[:300]}\n".encode())
            except Exception:  # noqa: BLE001
                pass
            code = BAD_ERROR
        os._exit(code)
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return "hang"
        time.sleep(0.002)
    if os.WIFSIGNALED(status):
        return "hang" if os.WTERMSIG(status) == signal.SIGALRM else "crash"
    return OUTCOME.get(os.WEXITSTATUS(status), "crash")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--work", default=None)
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--kinds", default=",".join(KINDS))
    args = parser.parse_args()
    work = tempfile.mkdtemp(dir=args.work, prefix="fuzz-trust-")
    start = time.monotonic()
    prepare(work)
    sys.path.insert(0, work)
    import script  # noqa: F401 - loaded before forking: each child starts warm
    from script import loadpath
    from script.backend.llvm.jit import get_jit
    loadpath.runtime_library()
    get_jit()
    fuzz = Fuzz(work)
    kinds = [k for k in args.kinds.split(",") for _ in range(KINDS[k])]
    counts: dict = {"cases": 0, "crash": 0, "hang": 0, "wrong": 0, "forged_ran": 0,
                    "other_error": 0, "load_error": 0, "ok": 0}
    per_kind: dict = {}
    seconds: dict = {}
    failures = []
    rng = random.Random(args.seed)
    for i in range(args.cases):
        kind = kinds[i % len(kinds)]
        case_rng = random.Random(rng.getrandbits(64))
        run, what = getattr(fuzz, kind.replace("-", "_"))(case_rng)
        print(f"case {i} {kind} {what[:200]}", flush=True)
        began = time.monotonic()
        outcome = run_child(run, args.timeout)
        seconds[kind] = seconds.get(kind, 0) + time.monotonic() - began
        counts["cases"] += 1
        counts[outcome] += 1
        per_kind.setdefault(kind, {}).setdefault(outcome, 0)
        per_kind[kind][outcome] += 1
        if outcome in ("crash", "hang", "wrong", "forged_ran", "other_error"):
            failures.append([i, kind, what[:200], outcome])
            print(f"    FAILED: {outcome}", flush=True)
        for name in os.listdir(work):
            if name.startswith("case-"):
                shutil.rmtree(os.path.join(work, name), ignore_errors=True)
    shutil.rmtree(work, ignore_errors=True)
    counts["seconds"] = round(time.monotonic() - start, 1)
    print(json.dumps({**counts, "kinds": per_kind, "failures": failures[:50],
                      "seconds_per_kind": {k: round(v, 1) for k, v in seconds.items()}}))
    bad = counts["crash"] + counts["hang"] + counts["wrong"] + counts["forged_ran"] \
        + counts["other_error"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
