"""The loader's fuzzer, run in a child process by test_save_load.py (so that a crash is a
failed test, not a dead pytest).

    python tests/fuzz_saved.py bytes|manifest ARCHIVE CALLS EXPECTED EXAMPLES

`bytes` mutates the archive's bytes (bit flips, truncation, overwritten, inserted and deleted
spans; deflated and stored copies): every load must raise `LoadError` or give functions whose
`CALLS` have the `EXPECTED` outcomes. `manifest` replaces one node of the manifest by a
random JSON value and fixes the manifest's hash (a forgery, not damage): every load must
raise `LoadError` or succeed, and the loaded functions, when their signatures are the
original's, may then answer anything but must not crash the process (with other types they
are not called: the object code is trusted to take the types the manifest says). `ir` edits the IR text of one specialization (hashes fixed, the CPU
changed so that the IR is compiled): every load must raise `LoadError` or succeed; the
functions are not called (verified IR may still divide by zero unchecked: a forgery).
Each case is printed before it runs, so a crash names it. Ends with ``FUZZ OK {counts}``.
"""

import ast
import hashlib
import io
import json
import os
import sys
import tempfile
import zipfile

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import script
from script.errors import LoadError

mode, archive, calls_file, expected_file, examples = sys.argv[1:6]
calls = ast.literal_eval(open(calls_file).read())
expected = json.load(open(expected_file))
workdir = tempfile.mkdtemp()
counts = {"cases": 0, "load_error": 0, "loaded": 0}


def outcomes(m):
    out = []
    for name, args, kwargs in calls:
        try:
            out.append(["ok", repr(getattr(m, name)(*args, **kwargs))])
        except Exception as e:  # noqa: BLE001
            out.append(["raise", type(e).__name__, str(e)])
    return out


def members_of(data: bytes) -> dict:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return {name: zf.read(name) for name in zf.namelist()}


def zip_of(members: dict, compression) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return out.getvalue()


def _signatures(m) -> dict:
    return {name: getattr(m, name).signatures for name in m.__all__}


SIGNATURES = _signatures(script.load(archive))
ORIGINAL = open(archive, "rb").read()
MEMBERS = members_of(ORIGINAL)
BASES = [ORIGINAL, zip_of(MEMBERS, zipfile.ZIP_STORED)]


def try_load(data: bytes, case) -> None:
    counts["cases"] += 1
    path = os.path.join(workdir, "case.smod")
    with open(path, "wb") as f:
        f.write(data)
    print("case", repr(case)[:400], flush=True)
    try:
        m = script.load(path)
    except LoadError:
        counts["load_error"] += 1
        return
    counts["loaded"] += 1
    if mode == "ir" or _signatures(m) != SIGNATURES:
        return          # a forged type is trusted like a native library: its calls may crash
    got = outcomes(m)
    if mode == "bytes":
        assert got == expected, (case, got)


def mutate(data: bytes, m) -> bytes:
    kind = m[0]
    b = bytearray(data)
    if kind == "flip":
        for at, bit in m[1]:
            b[at % len(b)] ^= 1 << bit
    elif kind == "truncate":
        del b[m[1] % len(b):]
    elif kind == "overwrite":
        at = m[1] % len(b)
        b[at:at + len(m[2])] = m[2]
    elif kind == "insert":
        b[m[1] % (len(b) + 1):m[1] % (len(b) + 1)] = m[2]
    elif kind == "delete":
        at = m[1] % len(b)
        del b[at:at + m[2]]
    return bytes(b)


positions = st.integers(0, 1 << 20)
byte_mutation = st.one_of(
    st.tuples(st.just("flip"), st.lists(st.tuples(positions, st.integers(0, 7)), min_size=1, max_size=8)),
    st.tuples(st.just("truncate"), positions),
    st.tuples(st.just("overwrite"), positions, st.binary(min_size=1, max_size=16)),
    st.tuples(st.just("insert"), positions, st.binary(min_size=1, max_size=16)),
    st.tuples(st.just("delete"), positions, st.integers(1, 64)),
)

MANIFEST = json.loads(MEMBERS["manifest.json"])


def paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from paths(v, prefix + (i,))


PATHS = list(paths(MANIFEST))[1:]
interesting = st.sampled_from([-1, 0, 1, 3, 2**40, 2**63, 10**30, "", "i64", "f64", "bool", "none",
                               "../x", "/abs", "f0/s0.o", "f0/s1.o", {"tuple": ["i64"]},
                               {"float": "nan"}, {"tuple": []}, "0" * 64, [], {}])
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12) | interesting,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6)


def replaced(path, value, members=None):
    manifest = json.loads(MEMBERS["manifest.json"])
    node = manifest
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    members = dict(members or MEMBERS)
    return _with_manifest(manifest, members)


def _with_manifest(manifest, members):
    data = json.dumps(manifest).encode()
    members["manifest.json"] = data
    members["manifest.sha256"] = hashlib.sha256(data).hexdigest().encode()
    return zip_of(members, zipfile.ZIP_DEFLATED)


IR_TOKENS = ["%1", "%7", "bb1", "bb9", ": i64", ": f64", ": bool", "add", "fdiv", "cbr", "br",
             "ret", "call", ",", "(", ")", "{", "}", "\n", " ", "1.5:f64", "0:i64", "nan:f64",
             "-> i64", "@collatz.i64", '"x":1', "; 3:4", "(i64, f64)", "f64[:]"]
SPECS = [s for f in MANIFEST["functions"] for s in f["specializations"]]


def ir_edited(index, edit):
    spec = SPECS[index % len(SPECS)]
    path = spec["members"]["ir"]["path"]
    lines = MEMBERS[path].decode().split("\n")
    kind, at, token = edit
    at %= len(lines)
    if kind == "delete":
        del lines[at]
    elif kind == "duplicate":
        lines.insert(at, lines[at])
    elif kind == "insert":
        col = (len(token) * 7) % (len(lines[at]) + 1)
        lines[at] = lines[at][:col] + token + lines[at][col:]
    elif kind == "swap":
        other = (at * 31 + 7) % len(lines)
        lines[at], lines[other] = lines[other], lines[at]
    text = "\n".join(lines).encode()
    manifest = json.loads(MEMBERS["manifest.json"])
    manifest["target"]["cpu"] = "some-other-cpu"
    for f in manifest["functions"]:
        for s in f["specializations"]:
            if s["members"]["ir"]["path"] == path:
                s["members"]["ir"].update(size=len(text), sha256=hashlib.sha256(text).hexdigest())
    return _with_manifest(manifest, {**MEMBERS, path: text})


SETTINGS = settings(max_examples=int(examples), deadline=None, database=None,
                    suppress_health_check=list(HealthCheck))

if mode == "bytes":
    @SETTINGS
    @given(st.integers(0, len(BASES) - 1), byte_mutation)
    def fuzz(base, mutation):
        try_load(mutate(BASES[base], mutation), (base, mutation))
elif mode == "manifest":
    @SETTINGS
    @given(st.sampled_from(PATHS), json_values)
    def fuzz(path, value):
        try_load(replaced(path, value), (path, value))
else:
    @SETTINGS
    @given(st.integers(0, 64), st.tuples(st.sampled_from(["delete", "duplicate", "insert", "swap"]),
                                         st.integers(0, 1000), st.sampled_from(IR_TOKENS)))
    def fuzz(index, edit):
        try_load(ir_edited(index, edit), (index, edit))

fuzz()
print("FUZZ OK", repr(counts), flush=True)
