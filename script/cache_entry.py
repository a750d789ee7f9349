"""The file of one compile-cache entry (script.cache): a flat file that a cache hit reads
with one ``open`` and one BLAKE2b digest (native.store `digest`), without zipfile, json or
the manifest's checks.

Layout (docs/saved-modules.md, "The compile cache")::

    script-cache-entry 2\\n          the format and its version (`MAGIC`)
    <64 hex digits>\\n               digest of everything below this line
    <text size> <ir> <ssa> <object>\\n   decimal byte counts (ssa -1 when absent)
    <text>                          UTF-8 lines "field<TAB>value<TAB>..." (below)
    <ir><ssa><object>               the members' bytes, in that order

Fields of the text, each once, in any order (readers ignore fields they do not know):
``key`` (the cache key), ``compiler`` (version), ``python`` (ABI), ``llvm``, ``target``
(triple, CPU, features), ``qualname``, ``types`` (argument types, printed as the IR prints
them, then the return type), ``entry``, ``opt_level``, ``function`` (one per IR function,
entry first, followed by the ones it calls), and ``source`` (one per function the key
describes, in the key's order: qualified name, file, first line, digest of the file and
of the source text, outside names; script.cache `Source`).

The digest covers every byte after it, so truncation, a flipped bit or a stray write is
found before anything is parsed; a file of another format or version, a digest that does
not match, a malformed field: every failure is a `LoadError`, which the cache reports and
replaces. Writes go to a temporary file beside the entry and are renamed into place, so
readers see a whole entry or none. Like a saved module, the file is data: nothing in it is
evaluated, and the only code that runs is the object code it carries.

This module is on the path of every cache hit: it imports what Python starts with, and
`script.ir.types` (which `import script` has loaded).
"""

from __future__ import annotations

import json

from script.backend.native.store import digest, sha256
from script.errors import LoadError
from script.ir import types as T

MAGIC = b"script-cache-entry 2\n"
_PREFIX = b"script-cache-entry "        # any version: another one is reported as such
_DIGEST = 64
MAX_ENTRY_BYTES = 256 << 20
_MEMBERS = ("ir", "ssa", "object")


class Source:
    """A function a cache key describes, as the entry records it (script.cache)."""

    __slots__ = ("qualname", "file", "line", "file_digest", "source_digest", "names")

    def __init__(self, qualname: str, file: str, line: int, file_digest: str,
                 source_digest: str, names: tuple):
        self.qualname, self.file, self.line = qualname, file, line
        self.file_digest, self.source_digest, self.names = file_digest, source_digest, names

    def fields(self) -> list:
        return [self.qualname, self.file, str(self.line), self.file_digest, self.source_digest,
                *self.names]

    def __eq__(self, other):
        return isinstance(other, Source) and self.fields() == other.fields()


class Member:
    """A member of an entry: `saved_manifest.Member`'s fields. `sha256` is None: the entry's
    own digest, checked when it was read, covers the bytes."""

    __slots__ = ("path", "size", "sha256")

    def __init__(self, path: str, size: int):
        self.path, self.size, self.sha256 = path, size, None


class Record:
    """The specialization an entry holds: the fields of `saved_manifest.SpecEntry` that
    loading and saving read (script.saved `LoadedSpecialization`, `spec_record`)."""

    __slots__ = ("arg_types", "ret_type", "entry", "opt_level", "functions", "calls", "ir",
                 "ssa", "object")

    def __init__(self, arg_types, ret_type, entry, opt_level, functions, calls, ir, ssa, obj):
        self.arg_types, self.ret_type, self.entry, self.opt_level = arg_types, ret_type, entry, \
            opt_level
        self.functions, self.calls, self.ir, self.ssa, self.object = functions, calls, ir, ssa, obj


class Entry:
    """A read entry: its fields, and its members handed out like `saved_archive.Archive`'s
    (`check`, `member`, `text`), from memory. `digest` is its own (of all that follows
    the digest line), which identifies its object code as well as the object's own would."""

    digest = ""

    def __init__(self, origin: str, fields: dict, record: Record, sources: tuple,
                 members: dict):
        self.origin = origin
        self.path = origin
        self.key = fields["key"][0]
        self.compiler, self.python_abi, self.llvm = (fields[k][0] for k in
                                                     ("compiler", "python", "llvm"))
        self.target = tuple(fields["target"])
        self.qualname = fields["qualname"][0]
        self.record = record
        self.sources = sources
        self._members = members

    def check(self, name: str, size: int) -> None:
        data = self._members.get(name)
        if data is None or len(data) != size:
            raise LoadError(f"{self.origin}: member {name!r} is missing or has another size")

    def member(self, name: str, size: int, digest=None) -> bytes:
        self.check(name, size)
        data = self._members[name]
        if digest is not None and sha256(data) != digest:
            raise LoadError(f"{self.origin}: member {name!r} is corrupt")
        return data

    def text(self, name: str, size: int, digest=None) -> str:
        try:
            return self.member(name, size, digest).decode("utf-8")
        except UnicodeDecodeError as e:
            raise LoadError(f"{self.origin}: member {name!r} is not UTF-8 text ({e})") from None


# ---- writing ------------------------------------------------------------------------------

def encode(fields: list, members: dict) -> bytes:
    """The bytes of an entry: `fields` a list of lists of strings (the first of each its
    name), `members` "ir", "ssa" (or None) and "object" -> bytes. ValueError when a field
    holds a tab or a line break (such an entry could not be read back)."""
    lines = []
    for field in fields:
        if any(not isinstance(v, str) or "\t" in v or "\n" in v or "\r" in v for v in field):
            raise ValueError(f"a cache entry field cannot hold {field!r}")
        lines.append("\t".join(field))
    text = ("\n".join(lines) + "\n").encode("utf-8")
    ssa = members.get("ssa")
    sizes = [len(text), len(members["ir"]), -1 if ssa is None else len(ssa),
             len(members["object"])]
    body = b"".join([" ".join(map(str, sizes)).encode("ascii"), b"\n", text, members["ir"],
                     ssa or b"", members["object"]])
    return MAGIC + digest(body).encode("ascii") + b"\n" + body


def entry_fields(key: str, compiler: str, python_abi: str, llvm: str, target: tuple,
                 qualname: str, record, sources) -> list:
    """The text fields of an entry for `record` (a `saved_manifest.SpecEntry` or `Record`)."""
    out = [["key", key], ["compiler", compiler], ["python", python_abi], ["llvm", llvm],
           ["target", *target], ["qualname", qualname],
           ["types", *map(str, record.arg_types), str(record.ret_type)],
           ["entry", record.entry], ["opt_level", str(record.opt_level)]]
    for name in record.functions:
        out.append(["function", name, *record.calls[name]])
    for s in sources or ():
        out.append(["source", *s.fields()])
    return out


# ---- reading ------------------------------------------------------------------------------

def decode(data: bytes, origin: str) -> Entry:
    """The entry in `data` (a file's bytes), every byte checked against its digest and every
    field parsed; LoadError naming what is wrong."""
    if not data.startswith(MAGIC):
        if data.startswith(_PREFIX):
            version = data[len(_PREFIX):data.find(b"\n", 0, 64)][:16]
            raise LoadError(f"{origin}: a cache entry of another version "
                            f"({version.decode('ascii', 'replace')!r}; this script writes "
                            f"{MAGIC.strip().decode()!r})")
        raise LoadError(f"{origin}: not a cache entry of this format")
    if len(data) > MAX_ENTRY_BYTES:
        raise LoadError(f"{origin}: larger than {MAX_ENTRY_BYTES} bytes")
    start = len(MAGIC) + _DIGEST + 1
    body = data[start:]
    if len(data) < start or data[start - 1:start] != b"\n" \
            or data[len(MAGIC):start - 1] != digest(body).encode("ascii"):
        raise LoadError(f"{origin}: the entry is damaged (its digest does not match)")
    try:
        entry = _parse(body, origin)
    except LoadError:
        raise
    except (ValueError, KeyError, IndexError) as e:
        raise LoadError(f"{origin}: malformed cache entry ({type(e).__name__}: {e})") from None
    entry.digest = data[len(MAGIC):start - 1].decode("ascii")
    return entry


def _parse(body: bytes, origin: str) -> Entry:
    end = body.index(b"\n", 0, 128)
    sizes = [int(s) for s in body[:end].split(b" ")]
    if len(sizes) != 4 or min(sizes[0], sizes[1], sizes[3]) < 0 or sizes[2] < -1 \
            or end + 1 + sum(max(s, 0) for s in sizes) != len(body):
        raise LoadError(f"{origin}: malformed cache entry (its sizes do not add up)")
    at = end + 1
    text = body[at:at + sizes[0]].decode("utf-8")
    at += sizes[0]
    members = {}
    for kind, size in zip(_MEMBERS, sizes[1:]):
        if size >= 0:
            members[kind] = body[at:at + size]
            at += size
    fields: dict = {}
    functions, calls, sources = [], {}, []
    if not text.endswith("\n"):
        raise ValueError("the text does not end a line")
    for line in text[:-1].split("\n"):
        name, *values = line.split("\t")
        if name == "function":
            functions.append(values[0])
            calls[values[0]] = tuple(values[1:])
        elif name == "source":
            q, file, line_no, file_sha, source_sha, *names = values
            if len(file_sha) != 64 or len(source_sha) != 64:
                raise ValueError("a source's digests are not 64 hex digits")
            sources.append(Source(q, file, int(line_no), file_sha, source_sha, tuple(names)))
        elif name in fields:
            raise ValueError(f"field {name!r} appears twice")
        else:
            fields[name] = values
    for name, count in (("key", 1), ("compiler", 1), ("python", 1), ("llvm", 1), ("target", 3),
                        ("qualname", 1), ("entry", 1), ("opt_level", 1)):
        if len(fields.get(name, ())) != count:
            raise ValueError(f"field {name!r} is missing or malformed")
    types = [parse_type(t) for t in fields.get("types", ())]
    entry = fields["entry"][0]
    opt_level = int(fields["opt_level"][0])
    if not types or not functions or functions[0] != entry or len(set(functions)) != \
            len(functions) or not 0 <= opt_level <= 3 or "ir" not in members \
            or "object" not in members \
            or any(not set(c) <= set(functions) for c in calls.values()):
        raise ValueError("its types, functions or members are inconsistent")
    record = Record(tuple(types[:-1]), types[-1], entry, opt_level, tuple(functions), calls,
                    Member("ir", len(members["ir"])),
                    Member("ssa", len(members["ssa"])) if "ssa" in members else None,
                    Member("object", len(members["object"])))
    return Entry(origin, fields, record, tuple(sources), members)


def parse_type(text: str) -> T.Type:
    """The type `str(t)` printed as `text` (scalars, tuples, arrays, lists); ValueError for
    anything else."""
    t = _parse_type(text, 0)
    if str(t) != text:
        raise ValueError(f"{text!r} is not a type as script prints it")
    return t


def _split_top(inner: str) -> list[str]:
    """`inner` split at its commas outside brackets."""
    parts, level, start = [], 0, 0
    for i, c in enumerate(inner):
        if c in "([":
            level += 1
        elif c in ")]":
            level -= 1
        elif c == "," and level == 0:
            parts.append(inner[start:i].strip())
            start = i + 1
    last = inner[start:].strip()
    if last:
        parts.append(last)
    return parts


def _parse_named(inner: str, depth: int) -> T.NamedTupleType:
    """``"mod:P", "x": i64, ...`` (types.NamedTupleType's spelling; names have no commas or
    brackets: a class's qualname and field names are identifiers)."""
    key, *parts = _split_top(inner)
    fields, elems = [], []
    for part in parts:
        name, sep, t = part.partition(": ")
        if not sep:
            raise ValueError(f"{part!r} is not a named tuple field")
        fields.append(json.loads(name))
        elems.append(_parse_type(t, depth + 1))
    return T.NamedTupleType(json.loads(key), fields, elems)


def _parse_type(text: str, depth: int) -> T.Type:
    if depth > 16:
        raise ValueError("a type nested too deeply")
    scalar = T.parse_scalar(text)
    if scalar is not None:
        return scalar
    if text.startswith("(") and text.endswith(")"):
        return T.TupleType([_parse_type(p, depth + 1) for p in _split_top(text[1:-1])])
    if text.startswith("named[") and text.endswith("]"):
        return _parse_named(text[6:-1], depth)
    if text.startswith("opt[") and text.endswith("]"):
        value = _parse_type(text[4:-1], depth + 1)
        if not T.is_optional_value(value):
            raise ValueError(f"optionals of {value} are not supported")
        return T.OptionalType(value)
    if text.startswith("set[") and text.endswith("]"):
        key = _parse_type(text[4:-1], depth + 1)
        if not T.is_key_type(key):
            raise ValueError(f"sets of {key} are not supported")
        return T.SetType(key)
    if text.startswith("dict[") and text.endswith("]"):
        parts = _split_top(text[5:-1])
        if len(parts) != 2:
            raise ValueError(f"{text!r} is not a dict type")
        key, value = (_parse_type(p, depth + 1) for p in parts)
        if not T.is_key_type(key) or not T.is_list_element(value):
            raise ValueError(f"dicts of {key}, {value} are not supported")
        return T.DictType(key, value)
    if text.startswith("list[") and text.endswith("]"):
        elem = _parse_type(text[5:-1], depth + 1)
        if not T.is_list_element(elem):
            raise ValueError(f"lists of {elem} are not supported")
        return T.ListType(elem)
    dtype, bracket, dims = text.partition("[")
    dtype_type = T.parse_scalar(dtype)
    if bracket and dims.endswith("]") and dtype_type is not None and dtype_type.is_numeric():
        parts = dims[:-1].split(",")
        layout = "C" if parts[-1] == "::1" else "A"
        if 1 <= len(parts) <= 32:
            return T.ArrayType(dtype_type, len(parts), layout)
    raise ValueError(f"{text!r} is not a type this version of script knows")
