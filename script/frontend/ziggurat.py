"""The ziggurat tables of NumPy's Generator (``standard_normal``, ``standard_exponential``),
read from NumPy's own C library of its random distributions.

NumPy's Generator draws normals and exponentials by the ziggurat method over 256 strips,
with tables (`ki`, `wi`, `fi` for the normal, `ke`, `we`, `fe` for the exponential) that
NumPy generated once in double precision and ships as constants. Recomputing them from the
construction (Marsaglia and Tsang's recurrence) gives values a few ulps away in the top
strips, where rounding errors of the recurrence accumulate, so a compiled Generator built
on recomputed tables would give other numbers than NumPy's. NumPy does ship the tables:
`numpy/random/lib/libnpyrandom.a` (the static library NumPy provides for C and Cython code
that calls its distributions) holds them as named objects of its distributions object file.
`tables()` reads them out of that archive (the ar format, then the ELF object's symbol
table), and checks them: a ziggurat run here in Python on the raw words of a PCG64 must give
the numbers NumPy's Generator gives for the same seed (`_CHECK_DRAWS` of each kind). Where
the archive is missing, not ELF, or the check fails, `tables()` raises LookupError with the
reason, and the compiled methods that need the tables are a CompileError (refused rather
than different).

Read once per process, on the first compile of a method that needs them (about 30 ms).
"""

from __future__ import annotations

import functools
import math
import os
import struct

import numpy as np

NORMAL_R = 3.6541528853610087963519472518          # the normal's tail: the last strip's x
NORMAL_INV_R = 0.27366123732975827203338247596
EXPONENTIAL_R = 7.6971174701310497140446280481
_NAMES = ("ki_double", "wi_double", "fi_double", "ke_double", "we_double", "fe_double")
_CHECK_DRAWS = 5000


@functools.cache
def tables() -> dict[str, np.ndarray]:
    """NumPy's six tables (256 entries each: uint64 for `k*`, float64 for the others), by
    their C names; LookupError when they cannot be found or do not reproduce NumPy."""
    path = os.path.join(os.path.dirname(np.random.__file__), "lib", "libnpyrandom.a")
    try:
        with open(path, "rb") as f:
            archive = f.read()
    except OSError as e:
        raise LookupError(f"NumPy's libnpyrandom.a is not readable ({e})") from None
    found = {}
    for member in _ar_members(archive):
        found.update(_elf_objects(member, _NAMES))
    if set(found) != set(_NAMES) or any(len(v) != 256 * 8 for v in found.values()):
        raise LookupError("NumPy's libnpyrandom.a does not hold its ziggurat tables as expected")
    out = {name: np.frombuffer(data, dtype="<u8" if name[0] == "k" else "<f8").astype(
        np.uint64 if name[0] == "k" else np.float64) for name, data in found.items()}
    _check(out)
    return out


def _ar_members(archive: bytes):
    """The contents of each member of a Unix ar archive."""
    if not archive.startswith(b"!<arch>\n"):
        return
    at = 8
    while at + 60 <= len(archive):
        header = archive[at:at + 60]
        size = int(header[48:58].decode("ascii").strip() or 0)
        yield archive[at + 60:at + 60 + size]
        at += 60 + size + (size & 1)


def _elf_objects(obj: bytes, names) -> dict[str, bytes]:
    """The bytes of the objects named `names` that a little-endian ELF64 relocatable object
    defines in its symbol table."""
    if obj[:4] != b"\x7fELF" or obj[4] != 2 or obj[5] != 1:
        return {}
    shoff, = struct.unpack_from("<Q", obj, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", obj, 0x3a)
    sections = [struct.unpack_from("<IIQQQQIIQQ", obj, shoff + k * shentsize) for k in range(shnum)]
    found = {}
    for sh in sections:
        if sh[1] != 2:                                  # SHT_SYMTAB
            continue
        strtab = sections[sh[6]]
        for k in range(sh[5] // 24):
            name_at, _, _, shndx, value, size = struct.unpack_from("<IBBHQQ", obj, sh[4] + 24 * k)
            start = strtab[4] + name_at
            name = obj[start:obj.index(b"\0", start)].decode("ascii", "replace")
            if name in names and 0 < shndx < len(sections) and sections[shndx][1] == 1:    # PROGBITS
                base = sections[shndx][4] + value
                found[name] = obj[base:base + size]
    return found


def _check(t: dict) -> None:
    """NumPy's Generator and a ziggurat here on the same raw words agree."""
    seed = 20240601
    t = {name: table.tolist() for name, table in t.items()}
    raw = iter(np.random.PCG64(seed).random_raw(_CHECK_DRAWS * 3).tolist())
    want = np.random.Generator(np.random.PCG64(seed)).standard_normal(_CHECK_DRAWS)
    got = [_normal(raw, t) for _ in range(_CHECK_DRAWS)]
    raw = iter(np.random.PCG64(seed).random_raw(_CHECK_DRAWS * 3).tolist())
    want_e = np.random.Generator(np.random.PCG64(seed)).standard_exponential(_CHECK_DRAWS)
    got_e = [_exponential(raw, t) for _ in range(_CHECK_DRAWS)]
    if got != want.tolist() or got_e != want_e.tolist():
        raise LookupError("the ziggurat tables read from NumPy's libnpyrandom.a do not reproduce NumPy's draws")


def _double(raw) -> float:
    return (next(raw) >> 11) * (1.0 / 9007199254740992.0)


def _normal(raw, t) -> float:
    ki, wi, fi = t["ki_double"], t["wi_double"], t["fi_double"]
    while True:
        r = next(raw)
        idx = r & 0xff
        r >>= 8
        rabs = (r >> 1) & 0x000fffffffffffff
        x = rabs * wi[idx]
        if r & 1:
            x = -x
        if rabs < ki[idx]:
            return x
        if idx == 0:
            while True:
                xx = -NORMAL_INV_R * math.log1p(-_double(raw))
                yy = -math.log1p(-_double(raw))
                if yy + yy > xx * xx:
                    return -(NORMAL_R + xx) if (rabs >> 8) & 1 else NORMAL_R + xx
        elif (fi[idx - 1] - fi[idx]) * _double(raw) + fi[idx] < math.exp(-0.5 * x * x):
            return x


def _exponential(raw, t) -> float:
    ke, we, fe = t["ke_double"], t["we_double"], t["fe_double"]
    while True:
        r = next(raw) >> 3
        idx = r & 0xff
        r >>= 8
        x = r * we[idx]
        if r < ke[idx]:
            return x
        if idx == 0:
            return EXPONENTIAL_R - math.log1p(-_double(raw))
        if (fe[idx - 1] - fe[idx]) * _double(raw) + fe[idx] < math.exp(-x):
            return x
