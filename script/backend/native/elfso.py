"""A static linker of the relocatable objects the JIT emits (x86-64, PIC, default code model:
what native.elfload loads) into an ELF shared object that glibc's ``dlopen`` loads, so that a
fresh process maps prebuilt code with the dynamic loader instead of linking it in Python.

`link_shared(objects)` reads the objects with elfload's reader, binds each relocation's symbol
as elfload does (a global definition of the objects, a strong one over weak ones, else an
import), and returns the bytes of the shared object. Every global symbol the objects define is
exported; every symbol they use but do not define is imported from the global scope at
``dlopen`` (the C-API of the executable or libpython, libc, libm, and libraries loaded before
with RTLD_GLOBAL), bound at once (DF_BIND_NOW). Nothing is preemptible: references inside the
image are resolved here, as with ``-Bsymbolic``.

Layout: the file offset of every byte is its address (relative to the load base), and each
segment starts on a page of its own (W^X, no text relocation):

    R     ELF header, program headers, .hash (SysV), .dynsym, .dynstr, .rela.dyn, and .rodata:
          every read-only data section without an absolute relocation             r--
    RX    .text: every code section, then a 16-byte stub ``jmp *slot(%rip)`` per imported
          function that is called (PLT32)                                         r-x
    RW    RELRO (read-only once relocated): .data.rel.ro (every .data.rel.ro* and read-only
          section with an R_X86_64_64), .got (a slot per GOTPCREL target and per stub), and
          .dynamic, up to the next page; then .data, and .bss (not in the file)    rw-

with PT_DYNAMIC, PT_GNU_RELRO and PT_GNU_STACK (a non-executable stack), and a section
header table for readelf, nm and gdb (the loader needs none of it).

Relocations (S the symbol, A the addend, P the place): PC32, PC64 and PLT32 to the image are
written here (S+A-P); PLT32 to an import goes through its stub; GOTPCREL, GOTPCRELX and
REX_GOTPCRELX get a GOT slot (the instruction is left as it is), which the loader fills with
R_X86_64_RELATIVE (a target in the image) or R_X86_64_GLOB_DAT (an import); R_X86_64_64 in
data becomes R_X86_64_RELATIVE or R_X86_64_64 against the import.

Declined with `ElfError` (callers fall back to linking in-process): whatever elfload
declines, absolute 32-bit relocations (R_X86_64_32, 32S: not position-independent), a PC32 or
PC64 to an import (it would need a copy relocation) or to an absolute symbol, and an
R_X86_64_64 in code (a text relocation). `.eh_frame` is left out, as elfload leaves it.
The output depends only on the input bytes.
"""

from __future__ import annotations

import struct
from typing import Sequence

from script import store
from script.backend.native.elfload import (
    _DATA, _R_32, _R_32S, _R_64, _R_GOT, _R_PLT32, _RODATA, _SHN_ABS,
    _SHT_NOBITS, _SHT_PROGBITS, _SHT_RELA, _STB_GLOBAL, _STUB_SIZE, _TEXT, _MAX_IMAGE,
    ElfError, _Addresses, _Object, _align, _apply, _global_definitions, _target)

__all__ = ["ElfError", "link_shared", "link_into_store"]

_PAGE = 4096
_EHDR = struct.Struct("<16sHHIQQQIHHHHHH")      # the records elfload reads, as written here
_SHDR = struct.Struct("<IIQQQQIIQQ")
_SYM = struct.Struct("<IBBHQQ")
_RELA = struct.Struct("<QQq")
_PHDR = struct.Struct("<IIQQQQQQ")
_DYN = struct.Struct("<qQ")
_PT_LOAD, _PT_DYNAMIC, _PT_GNU_STACK, _PT_GNU_RELRO = 1, 2, 0x6474E551, 0x6474E552
_PF_X, _PF_W, _PF_R = 1, 2, 4
_SHT_STRTAB, _SHT_HASH, _SHT_DYNAMIC, _SHT_DYNSYM = 3, 5, 6, 11
_A, _AW, _AX = 0x2, 0x3, 0x6                    # SHF_ALLOC, with SHF_WRITE or SHF_EXECINSTR
_DT_NULL, _DT_NEEDED, _DT_HASH, _DT_STRTAB, _DT_SYMTAB, _DT_RELA, _DT_RELASZ, _DT_RELAENT, \
    _DT_STRSZ, _DT_SYMENT, _DT_SONAME, _DT_FLAGS = 0, 1, 4, 5, 6, 7, 8, 9, 10, 11, 14, 30
_DT_RELACOUNT, _DT_FLAGS_1 = 0x6FFFFFF9, 0x6FFFFFFB
_DF_BIND_NOW, _DF_1_NOW = 0x8, 0x1
_R_GLOB_DAT, _R_RELATIVE = 6, 8
_STT_OBJECT = 1
_STUB = b"\xff\x25"                             # jmp *disp32(%rip), then int3s

# The output sections in address order: name, type, flags, segment (a new one starts a page).
_SECTIONS = (
    (".hash", _SHT_HASH, _A, "R"), (".dynsym", _SHT_DYNSYM, _A, "R"),
    (".dynstr", _SHT_STRTAB, _A, "R"), (".rela.dyn", _SHT_RELA, _A, "R"),
    (".rodata", _SHT_PROGBITS, _A, "R"),
    (".text", _SHT_PROGBITS, _AX, "RX"),
    (".data.rel.ro", _SHT_PROGBITS, _AW, "RELRO"), (".got", _SHT_PROGBITS, _AW, "RELRO"),
    (".dynamic", _SHT_DYNAMIC, _AW, "RELRO"),
    (".data", _SHT_PROGBITS, _AW, "RW"), (".bss", _SHT_NOBITS, _AW, "RW"))
_ENTSIZE = {".hash": 4, ".dynsym": _SYM.size, ".rela.dyn": _RELA.size, ".got": 8,
            ".dynamic": _DYN.size}


class _Output:
    """An output section: the input sections in it, then `tail` bytes the linker writes
    (at `tail_at`). Its address is its file offset (.bss excepted: it is not in the file)."""
    __slots__ = ("name", "type", "flags", "inputs", "tail", "tail_align", "addr", "size",
                 "tail_at", "index")

    def __init__(self, name: str, type_: int, flags: int):
        self.name, self.type, self.flags = name, type_, flags
        self.inputs: list = []
        self.tail = 0
        self.tail_align = _STUB_SIZE if name == ".text" else _ENTSIZE.get(name, 1)
        self.addr = self.size = self.tail_at = self.index = 0

    @property
    def align(self) -> int:
        return max([self.tail_align] + [sec.align for sec in self.inputs])


def link_shared(objects: Sequence[bytes], *, soname: str | None = None,
                needed: Sequence[str] = (), late=None) -> bytes:
    """The shared object of `objects` (see the module docstring); `soname` is its DT_SONAME
    and `needed` its DT_NEEDED libraries, none by default. `late(name)` says which undefined
    symbols the caller binds after loading, instead of the system's loader: each gets a GOT
    slot left zero and exported as ``script.got.<name>``, ``script.late`` names the first
    of them, and the GOT stays writable (outside PT_GNU_RELRO)."""
    objs = [_Object(bytes(data), i) for i, data in enumerate(objects)]
    defined = _global_definitions(objs)
    imports, slots, stubs, ro_relocated = _bind(objs, defined, late or (lambda name: False))
    late_slots = [(target[1], k) for target, k in slots.items() if target[0] == "abs"
                  and target[1] not in imports]
    for name in ("script.late", *(f"script.got.{n}" for n, _ in late_slots)):
        if name in defined:
            raise ElfError(f"the objects define {name!r}, a name of late binding")
    exported = [*defined] + (["script.late"] if late_slots else []) \
        + [f"script.got.{n}" for n, _ in late_slots]
    late_bound = [name for name, _ in late_slots]
    n_rela = sum(not _is_absolute(objs, t) and t[1] not in late_bound
                 for t in slots) + sum(
        rel.type == _R_64 and not _is_absolute(objs, rel.target)
        for o in objs for rel in o.relocations)
    strings = _Strings([soname or "", *needed, *exported, *imports])
    dynamic = ([(_DT_NEEDED, strings[n]) for n in needed]
               + ([(_DT_SONAME, strings[soname])] if soname else [])
               + [(_DT_HASH, ".hash"), (_DT_STRTAB, ".dynstr"), (_DT_SYMTAB, ".dynsym"),
                  (_DT_STRSZ, len(strings.data)), (_DT_SYMENT, _SYM.size)]
               + ([(_DT_RELA, ".rela.dyn"), (_DT_RELASZ, n_rela * _RELA.size),
                   (_DT_RELAENT, _RELA.size), (_DT_RELACOUNT, None)] if n_rela else [])
               + [(_DT_FLAGS, _DF_BIND_NOW), (_DT_FLAGS_1, _DF_1_NOW), (_DT_NULL, 0)])
    outs = {name: _Output(name, type_, flags) for name, type_, flags, _ in _SECTIONS}
    home: dict[tuple, _Output] = {}         # (object, section) -> where it goes
    for o in objs:
        for k, sec in o.loaded.items():
            out = home[o.index, k] = outs[_output_of(sec, (o.index, k) in ro_relocated)]
            out.inputs.append(sec)
    nsyms = 1 + len(exported) + len(imports)
    nbucket = (nsyms - 1) | 1
    sizes = {".hash": 4 * (2 + nbucket + nsyms), ".dynsym": _SYM.size * nsyms,
             ".dynstr": len(strings.data), ".rela.dyn": _RELA.size * n_rela,
             ".text": _STUB_SIZE * len(stubs), ".got": 8 * len(slots),
             ".dynamic": _DYN.size * len(dynamic)}
    for name, size in sizes.items():
        outs[name].tail = size
    has_text = bool(stubs) or any(sec.size for sec in outs[".text"].inputs)
    nphdr = 5 + has_text
    segments = _lay_out(outs, _EHDR.size + _PHDR.size * nphdr)
    file_end = max(out.addr + out.size for out in outs.values()
                   if out.type != _SHT_NOBITS and out.size)
    memory_end = outs[".bss"].addr + outs[".bss"].size
    if memory_end > _MAX_IMAGE:
        raise ElfError(f"an image of {memory_end} bytes")
    shown = [out for out in outs.values() if out.size]
    k = 0
    for out in outs.values():       # a symbol of an empty section: in the one before
        k = out.index = k + bool(out.size)

    buf = bytearray(file_end)
    at = _Addresses([0, 0, 0], objs,         # address = file offset; imports bound by ld.so
                    dict.fromkeys([*imports, *late_bound], 0))
    _write_image(buf, objs, outs, at, slots, stubs)
    symbol_index = {name: nsyms - len(imports) + j for j, name in enumerate(imports)}
    rela = _dynamic_relocations(objs, at, slots, outs[".got"].tail_at, symbol_index)
    relative = sum(r_info == _R_RELATIVE for _, r_info, _ in rela)
    dynamic = [(tag, outs[value].addr if isinstance(value, str) else
                relative if tag == _DT_RELACOUNT else value) for tag, value in dynamic]
    got = outs[".got"]
    lates = [(strings[f"script.got.{name}"], got.tail_at + 8 * k) for name, k in late_slots]
    lates = lates[:1] and [(strings["script.late"], lates[0][1])] + lates
    symbols = _dynamic_symbols(defined, imports, strings, home, at)
    symbols[len(defined) + 1:len(defined) + 1] = [
        (name, _STB_GLOBAL << 4 | _STT_OBJECT, 0, got.index, value, 8) for name, value in lates]
    _put(buf, outs[".hash"], _hash_table([*exported, *imports], nbucket))
    _put(buf, outs[".dynsym"], b"".join(_SYM.pack(*sym) for sym in symbols))
    _put(buf, outs[".dynstr"], strings.data)
    _put(buf, outs[".rela.dyn"], b"".join(_RELA.pack(*r) for r in rela))
    _put(buf, outs[".dynamic"], b"".join(_DYN.pack(*d) for d in dynamic))
    _program_headers(buf, outs, segments, has_text, file_end, memory_end,
                     relro_end=got.addr if late_slots else None)
    return _finish(buf, shown, outs, nphdr)


def link_into_store(path: str, objects: list, late=None) -> bool:
    """Link `objects` into a shared object stored at `path` in the per-machine store
    (script.store `write_shared`; `late` as for `link_shared`); whether the store now holds
    it whole."""
    try:
        data = link_shared(objects, late=late)
    except ElfError:
        return False
    store.write_shared(path, data)
    return store.check_shared(path)


def _bind(objs: list, defined: dict, late) -> tuple[dict, dict, dict, set]:
    """Bind each relocation's symbol (`rel.target`, elfload's `_target`) and decline what a
    shared object cannot hold. Returns the imports (name -> st_info: weak when every
    reference is), the GOT slots (target -> index), the stubs (import -> index), and the
    read-only sections with absolute relocations ((object, section) indices)."""
    imports: dict[str, int] = {}
    slots: dict[tuple, int] = {}
    stubs: dict[str, int] = {}
    ro_relocated: set[tuple] = set()
    unbound: dict[str, int] = {}
    for o in objs:
        bound: dict[int, tuple] = {}
        for rel in o.relocations:
            target = bound.get(rel.symbol)
            if target is None:
                target = bound[rel.symbol] = _target(o, rel.symbol, defined, unbound,
                                                     lambda name: 1)    # ld.so binds it
            rel.target = target
            sec, kind = o.loaded[rel.section], rel.type
            if target[0] == "abs" and late(target[1]):
                if kind not in _R_GOT and kind != _R_PLT32:
                    raise ElfError(f"relocation type {kind} in {sec.name} to {target[1]!r}, "
                                   f"bound late")
            elif target[0] == "abs":
                info = o.symbols[rel.symbol][1] << 4 | o.kinds[rel.symbol][0]
                if imports.setdefault(target[1], info) >> 4 != _STB_GLOBAL:
                    imports[target[1]] = info
            if kind in (_R_32, _R_32S):
                raise ElfError(f"relocation type {kind} (absolute, 32 bits) in {sec.name}: "
                               f"not position-independent code")
            if kind == _R_64:
                if sec.part == _TEXT:
                    raise ElfError(f"relocation type {kind} in code ({sec.name})")
                if sec.part == _RODATA:
                    ro_relocated.add((o.index, rel.section))
            elif kind in _R_GOT:
                slots.setdefault(target, len(slots))
            elif target[0] == "abs":
                if kind != _R_PLT32:
                    raise ElfError(f"relocation type {kind} in {sec.name} to {target[1]!r}, "
                                   f"defined outside the objects (a copy relocation)")
                stubs.setdefault(target[1], len(stubs))
                slots.setdefault(target, len(slots))
            elif _is_absolute(objs, target):
                raise ElfError(f"relocation type {kind} in {sec.name} to an absolute address")
    return imports, slots, stubs, ro_relocated


def _is_absolute(objs: list, target: tuple) -> bool:
    """Whether a target bound in the image (not an import) is an address that does not move
    with the load base: an SHN_ABS symbol, or no symbol."""
    return target[0] == "sym" and (target[2] == 0
                                   or objs[target[1]].symbols[target[2]][2] == _SHN_ABS)


def _output_of(sec, has_absolute_relocation: bool) -> str:
    """The output section of an input section (elfload's `_Section`)."""
    if sec.part == _TEXT:
        return ".text"                  # .bss-like code, if any, is zeros in the file
    if sec.data is None:
        return ".bss"
    if sec.part == _RODATA:
        return ".data.rel.ro" if has_absolute_relocation else ".rodata"
    assert sec.part == _DATA
    return ".data.rel.ro" if sec.name.startswith(".data.rel.ro") else ".data"


def _lay_out(outs: dict, start: int) -> dict:
    """Place the sections from `start` on, each segment on a page of its own; returns each
    segment's (start, end)."""
    segments: dict[str, list] = {}
    cursor = start
    for name, _, _, segment in _SECTIONS:
        out = outs[name]
        if segment not in segments:
            if segments:
                cursor = _align(cursor, _PAGE)
            segments[segment] = [cursor, cursor]
        out.addr = cursor = _align(cursor, out.align)
        for sec in out.inputs:
            sec.offset = cursor = _align(cursor, sec.align)
            cursor += sec.size
        out.tail_at = cursor = _align(cursor, out.tail_align)
        cursor += out.tail
        out.size = cursor - out.addr
        segments[segment][1] = cursor
    return {name: tuple(span) for name, span in segments.items()}


def _write_image(buf: bytearray, objs: list, outs: dict, at: _Addresses, slots: dict,
                 stubs: dict) -> None:
    """Write the sections of the objects, the GOT and the stubs, and apply the relocations
    that need no loader (elfload's `_apply`: the file offset of a byte is its address)."""
    for out in outs.values():
        for sec in out.inputs:
            if sec.data is not None:
                buf[sec.offset:sec.offset + sec.size] = sec.data
    stub_base, got_base = outs[".text"].tail_at, outs[".got"].tail_at
    for target, k in slots.items():
        struct.pack_into("<Q", buf, got_base + 8 * k, at.of(target) % (1 << 64))
    for name, k in stubs.items():
        place = stub_base + _STUB_SIZE * k
        slot = got_base + 8 * slots["abs", name]
        buf[place:place + _STUB_SIZE] = (_STUB + struct.pack("<i", slot - place - 6)).ljust(
            _STUB_SIZE, b"\xcc")
    for o in objs:
        for rel in o.relocations:
            _apply([buf] * 3, rel, o, at, stub_base, stubs, got_base, slots)     # one file


def _dynamic_symbols(defined: dict, imports: dict, strings: _Strings, home: dict,
                     at: _Addresses) -> list:
    """.dynsym: the null symbol, the exports in the order of `defined`, then the imports."""
    symbols = [(0, 0, 0, 0, 0, 0)]
    for name, (o, i) in defined.items():
        _, bind, shndx, _ = o.symbols[i]
        type_, size = o.kinds[i]
        shndx = shndx if shndx == _SHN_ABS else home[o.index, shndx].index
        symbols.append((strings[name], bind << 4 | type_, 0, shndx,
                        at.of(("sym", o.index, i)) % (1 << 64), size))
    return symbols + [(strings[name], info, 0, 0, 0, 0) for name, info in imports.items()]


def _program_headers(buf: bytearray, outs: dict, segments: dict, has_text: bool,
                     file_end: int, memory_end: int, relro_end: int | None = None) -> None:
    """Write the program headers: a PT_LOAD per segment (RX only when there is code),
    PT_DYNAMIC, PT_GNU_RELRO up to the page where .data starts (or `relro_end`, which the
    loader rounds down to a page), PT_GNU_STACK."""
    rw_start = segments["RELRO"][0]
    relro_end = segments["RW"][0] if relro_end is None else relro_end
    dynamic_end = outs[".dynamic"].addr + outs[".dynamic"].size
    headers = [(_PT_LOAD, _PF_R, 0, segments["R"][1])]
    if has_text:
        headers.append((_PT_LOAD, _PF_R | _PF_X, *segments["RX"]))
    headers += [(_PT_LOAD, _PF_R | _PF_W, rw_start, memory_end, file_end),
                (_PT_DYNAMIC, _PF_R | _PF_W, outs[".dynamic"].addr, dynamic_end),
                (_PT_GNU_RELRO, _PF_R, rw_start, relro_end, dynamic_end),
                (_PT_GNU_STACK, _PF_R | _PF_W, 0, 0)]
    for k, (type_, flags, start, end, *file) in enumerate(headers):
        filesz = (file[0] if file else end) - start
        align = _PAGE if type_ == _PT_LOAD else 16 if type_ == _PT_GNU_STACK else 8
        _PHDR.pack_into(buf, _EHDR.size + _PHDR.size * k, type_, flags, start, start, start,
                        filesz, end - start, align)


def _dynamic_relocations(objs: list, at: _Addresses, slots: dict, got_base: int,
                         symbol_index: dict) -> list:
    """.rela.dyn: the R_X86_64_RELATIVE ones first (DT_RELACOUNT), then the symbolic ones."""
    relative, symbolic = [], []
    for target, k in slots.items():
        place = got_base + 8 * k
        if target[0] == "abs" and target[1] not in symbol_index:
            continue                    # bound late, by the caller
        if target[0] == "abs":
            symbolic.append((place, symbol_index[target[1]] << 32 | _R_GLOB_DAT, 0))
        elif not _is_absolute(objs, target):
            relative.append((place, _R_RELATIVE, _signed(at.of(target))))
    for o in objs:
        for rel in o.relocations:
            if rel.type != _R_64:
                continue
            place = o.loaded[rel.section].offset + rel.offset
            if rel.target[0] == "abs":
                symbolic.append((place, symbol_index[rel.target[1]] << 32 | _R_64, rel.addend))
            elif not _is_absolute(objs, rel.target):
                relative.append((place, _R_RELATIVE, _signed(at.of(rel.target) + rel.addend)))
    return relative + symbolic


def _finish(buf: bytearray, shown: list, outs: dict, nphdr: int) -> bytes:
    """Append the section header table (with its .shstrtab) and write the ELF header."""
    names = _Strings([out.name for out in shown] + [".shstrtab"])
    shstrtab_at = len(buf)
    buf += names.data
    shoff = _align(len(buf), 8)
    buf += bytes(shoff - len(buf))
    dynstr, dynsym = outs[".dynstr"].index, outs[".dynsym"].index
    links = {".hash": dynsym, ".dynsym": dynstr, ".rela.dyn": dynsym, ".dynamic": dynstr}
    headers = [bytes(_SHDR.size)]
    for out in shown:
        headers.append(_SHDR.pack(names[out.name], out.type, out.flags, out.addr, out.addr,
                                  out.size, links.get(out.name, 0),
                                  1 if out.name == ".dynsym" else 0, out.align,
                                  _ENTSIZE.get(out.name, 0)))
    headers.append(_SHDR.pack(names[".shstrtab"], _SHT_STRTAB, 0, 0, shstrtab_at,
                              len(names.data), 0, 0, 1, 0))
    buf += b"".join(headers)
    ident = b"\x7fELF\x02\x01\x01".ljust(16, b"\0")
    _EHDR.pack_into(buf, 0, ident, 3, 62, 1, 0, _EHDR.size, shoff, 0, _EHDR.size,
                    _PHDR.size, nphdr, _SHDR.size, len(headers), len(headers) - 1)
    return bytes(buf)


class _Strings:
    """A string table of `names` (each once, in order of first appearance); `[name]` is the
    offset of a name."""

    def __init__(self, names):
        self.offsets: dict[str, int] = {"": 0}
        data = bytearray(b"\0")
        for name in names:
            if name not in self.offsets:
                self.offsets[name] = len(data)
                data += name.encode("ascii") + b"\0"
        self.data = bytes(data)

    def __getitem__(self, name: str) -> int:
        return self.offsets[name]


def _hash_table(names: list, nbucket: int) -> bytes:
    """The SysV .hash of the dynamic symbols 1.. named `names`."""
    buckets, chains = [0] * nbucket, [0] * (len(names) + 1)
    for k, name in enumerate(names, 1):
        h = 0
        for c in name.encode("ascii"):
            h = (h << 4) + c
            h = (h ^ (h & 0xF0000000) >> 24) & 0x0FFFFFFF
        chains[k], buckets[h % nbucket] = buckets[h % nbucket], k
    return struct.pack(f"<II{nbucket}I{len(chains)}I", nbucket, len(chains), *buckets, *chains)


def _signed(n: int) -> int:
    """`n` as a 64-bit two's complement addend (a damaged object's may not fit)."""
    return (n + (1 << 63)) % (1 << 64) - (1 << 63)


def _put(buf: bytearray, out: _Output, data: bytes) -> None:
    assert len(data) == out.tail, out.name
    buf[out.tail_at:out.tail_at + len(data)] = data
