"""The container of a saved module: a zip archive of data members, written atomically and
read defensively.

An archive holds ``manifest.json``, ``manifest.sha256`` (the hex SHA-256 of the manifest's
bytes) and the members the manifest names, each with its size and SHA-256. What the members
mean is `saved_manifest`'s business; this module only guarantees that what it hands out is
byte for byte what was written:

- `write_archive` writes to a temporary file in the destination's directory and renames it
  into place (`os.replace`), so a reader never sees a half-written file and two writers of
  the same path never interleave: the last rename wins, whole.
- `read_archive` reads the file into memory (nothing is ever extracted to disk) and checks,
  before it decodes anything: the file size; that it is a zip archive; every member name
  (relative, ``[A-Za-z0-9._-]`` components separated by ``/``, no ``.`` or ``..``, no
  directories, no duplicates); the number of members and each one's size; stored or
  deflated, never encrypted; and the manifest's hash. `Archive.member` then returns a
  member only if its size and SHA-256 are the ones the (hash-checked) manifest gives, so a
  flipped bit anywhere is a `LoadError`, never code that runs.

Every failure, whatever zipfile or zlib raise on a damaged file, comes out as `LoadError`.
The hashes detect damage, not forgery: anyone can recompute them. The archive's
``manifest.sig`` (script.saved_trust) says who made it, and `script.load` links object code
only from archives signed under a key it trusts. Every size is capped on the zip's
directory before a byte is inflated (`MAX_*`), so a small file that declares huge members
fails at once.
"""

from __future__ import annotations

import io
import json
import os
import re
import zipfile

from script.store import read_file, sha256
from script.errors import LoadError
from script.saved_trust import MAX_SIGNATURE_BYTES, SIGNATURE

MANIFEST = "manifest.json"
MANIFEST_HASH = "manifest.sha256"

# Caps checked on the zip's directory, before a byte is inflated, so that a small file that
# declares huge members fails at once: the file, each member, all members together, and how
# far a member larger than `RATIO_FLOOR` may inflate (DEFLATE reaches ~1000x on zeros; IR
# text and object code inflate 2-10x).
MAX_ARCHIVE_BYTES = 1 << 30
MAX_MEMBER_BYTES = 64 << 20             # store MAX_OBJECT: no object is larger
MAX_TOTAL_BYTES = 256 << 20
MAX_MANIFEST_BYTES = 8 << 20
MAX_MEMBERS = 4096
MAX_RATIO = 64
RATIO_FLOOR = 1 << 20

_NAME = re.compile(r"[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*")
_FIXED_TIME = (1980, 1, 1, 0, 0, 0)      # archives of the same content are the same bytes




def is_member_name(name: object) -> bool:
    """Whether `name` is a name this format allows: relative, plain components, no . or .."""
    return (isinstance(name, str) and len(name) <= 255 and _NAME.fullmatch(name) is not None
            and all(part not in (".", "..") for part in name.split("/")))


def encode_manifest(manifest: dict) -> bytes:
    """The manifest as written: ASCII JSON, no NaN or infinity (floats are strings)."""
    return json.dumps(manifest, indent=1, allow_nan=False).encode("ascii") + b"\n"


def write_archive(path: str | os.PathLike, manifest: dict, members: dict[str, bytes],
                  key=None) -> None:
    """Write `manifest` and `members` (name -> bytes) to `path`, atomically, signed under
    `key` (saved_trust: the user's own by default)."""
    data = archive_bytes(manifest, members, key)
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    tmp = os.path.join(directory, f".tmp-{os.getpid()}-{os.urandom(6).hex()}.smod")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
                 | getattr(os, "O_BINARY", 0), 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def archive_bytes(manifest: dict, members: dict[str, bytes], key=None) -> bytes:
    """The archive of `manifest` and `members` (name -> bytes), signed under `key`, as
    `write_archive` writes it (also what a pickled function carries: script.pickling)."""
    from script.saved_trust import sign
    for name in members:
        if not is_member_name(name) or name in (MANIFEST, MANIFEST_HASH, SIGNATURE):
            raise ValueError(f"bad member name {name!r}")
    manifest_bytes = encode_manifest(manifest)
    signature = sign(manifest_bytes, key)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        _write_member(zf, MANIFEST, manifest_bytes)
        _write_member(zf, MANIFEST_HASH, sha256(manifest_bytes).encode("ascii") + b"\n")
        _write_member(zf, SIGNATURE, signature)
        for name, data in members.items():
            _write_member(zf, name, data)
    return out.getvalue()


def _write_member(zf: zipfile.ZipFile, name: str, data: bytes) -> None:
    info = zipfile.ZipInfo(name, _FIXED_TIME)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    zf.writestr(info, data)


class Archive:
    """A checked archive in memory: `manifest` (the decoded JSON, not yet validated) and
    its members, handed out by `member` only after their size and hash are checked."""

    def __init__(self, origin: str, zf: zipfile.ZipFile, infos: dict[str, zipfile.ZipInfo],
                 manifest: object, manifest_bytes: bytes = b"", signature: bytes | None = None):
        self.origin = origin
        self.manifest = manifest
        self.manifest_bytes = manifest_bytes    # what the signature signs (saved_trust)
        self.signature = signature              # the manifest.sig member, None when absent
        self._zf = zf
        self._infos = infos

    def check(self, name: str, size: int) -> None:
        """That member `name` exists with `size` bytes (as the zip directory says)."""
        info = self._infos.get(name)
        if info is None:
            raise LoadError(f"{self.origin}: member {name!r} named in the manifest is missing")
        if info.file_size != size:
            raise LoadError(f"{self.origin}: member {name!r} has {info.file_size} bytes, the "
                            f"manifest says {size}")

    def member(self, name: str, size: int, digest: str) -> bytes:
        """The bytes of member `name`, which the manifest says has `size` bytes and SHA-256
        `digest`."""
        self.check(name, size)
        info = self._infos[name]
        try:
            data = _read_member(self.origin, self._zf, info, size)
        except LoadError:
            raise
        except Exception as e:  # noqa: BLE001 - a damaged member: zlib, CRC, EOF errors
            raise LoadError(f"{self.origin}: member {name!r} is corrupt ({type(e).__name__}: "
                            f"{e})") from None
        if sha256(data) != digest:
            raise LoadError(f"{self.origin}: member {name!r} is corrupt (its SHA-256 differs "
                            "from the manifest's)")
        return data

    def text(self, name: str, size: int, digest: str) -> str:
        data = self.member(name, size, digest)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise LoadError(f"{self.origin}: member {name!r} is not UTF-8 text ({e})") from None


def read_archive(path: str | os.PathLike) -> Archive:
    """Open and check the archive at `path` (see the module docstring). Raises LoadError."""
    origin = os.fspath(path)
    try:
        data = read_file(origin, MAX_ARCHIVE_BYTES)
    except OSError as e:
        raise LoadError(f"cannot read saved module {origin!r}: {e.strerror or e}") from None
    return read_archive_bytes(data, origin)


def read_archive_bytes(data: bytes, origin: str) -> Archive:
    if len(data) > MAX_ARCHIVE_BYTES:
        raise LoadError(f"{origin}: larger than {MAX_ARCHIVE_BYTES} bytes")
    try:
        return _open(data, origin)
    except LoadError:
        raise
    except Exception as e:  # noqa: BLE001 - zipfile/zlib raise many kinds on damaged input
        raise LoadError(f"{origin}: not a valid saved module ({type(e).__name__}: {e})") from None


def _open(data: bytes, origin: str) -> Archive:
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise LoadError(f"{origin}: not a saved module (not a zip archive)") from None
    infos = zf.infolist()
    if len(infos) > MAX_MEMBERS:
        raise LoadError(f"{origin}: {len(infos)} members, more than the {MAX_MEMBERS} allowed")
    by_name: dict[str, zipfile.ZipInfo] = {}
    total = 0
    for info in infos:
        name = info.filename
        if not is_member_name(name) or info.orig_filename != name:
            raise LoadError(f"{origin}: member name {name!r} is not allowed (absolute, '..', "
                            "a directory or unusual characters)")
        if name in by_name:
            raise LoadError(f"{origin}: member {name!r} appears twice")
        if info.flag_bits & 0x1:
            raise LoadError(f"{origin}: member {name!r} is encrypted")
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise LoadError(f"{origin}: member {name!r} uses unsupported compression "
                            f"{info.compress_type}")
        if info.file_size > MAX_MEMBER_BYTES:
            raise LoadError(f"{origin}: member {name!r} is too large ({info.file_size} bytes)")
        if info.file_size > max(RATIO_FLOOR, MAX_RATIO * info.compress_size):
            raise LoadError(f"{origin}: member {name!r} declares {info.file_size} bytes in "
                            f"{info.compress_size} (more than {MAX_RATIO}x: a zip bomb?)")
        total += info.file_size
        by_name[name] = info
    if total > MAX_TOTAL_BYTES:
        raise LoadError(f"{origin}: members add up to {total} bytes, more than the "
                        f"{MAX_TOTAL_BYTES} allowed")
    for name in (MANIFEST, MANIFEST_HASH):
        if name not in by_name:
            raise LoadError(f"{origin}: not a saved module (no {name})")
    manifest_info = by_name[MANIFEST]
    if manifest_info.file_size > MAX_MANIFEST_BYTES:
        raise LoadError(f"{origin}: manifest too large ({manifest_info.file_size} bytes)")
    manifest_bytes = _read_member(origin, zf, manifest_info, manifest_info.file_size)
    hash_info = by_name[MANIFEST_HASH]
    if hash_info.file_size > 100:
        raise LoadError(f"{origin}: {MANIFEST_HASH} is malformed")
    recorded = _read_member(origin, zf, hash_info, hash_info.file_size).strip()
    if recorded != sha256(manifest_bytes).encode("ascii"):
        raise LoadError(f"{origin}: the manifest is corrupt (its SHA-256 differs from "
                        f"{MANIFEST_HASH})")
    signature = None
    sig_info = by_name.get(SIGNATURE)
    if sig_info is not None:
        if sig_info.file_size > MAX_SIGNATURE_BYTES:
            raise LoadError(f"{origin}: {SIGNATURE} is malformed")
        signature = _read_member(origin, zf, sig_info, sig_info.file_size)
    return Archive(origin, zf, by_name, _decode_json(manifest_bytes, origin), manifest_bytes,
                   signature)


def _read_member(origin: str, zf: zipfile.ZipFile, info: zipfile.ZipInfo, size: int) -> bytes:
    if info.file_size != size:
        raise LoadError(f"{origin}: member {info.filename!r} has {info.file_size} bytes, the "
                        f"manifest says {size}")
    with zf.open(info) as f:
        data = f.read(size + 1)
    if len(data) != size:
        raise LoadError(f"{origin}: member {info.filename!r} is truncated")
    return data


def _decode_json(data: bytes, origin: str) -> object:
    def no_constants(name):
        raise ValueError(f"{name} is not allowed")

    def no_duplicates(pairs):
        out = dict(pairs)
        if len(out) != len(pairs):
            raise ValueError("a key appears twice in one object")
        return out

    try:
        return json.loads(data.decode("utf-8"), parse_constant=no_constants,
                          object_pairs_hook=no_duplicates)
    except (ValueError, RecursionError) as e:
        raise LoadError(f"{origin}: the manifest is not valid JSON ({e})") from None
