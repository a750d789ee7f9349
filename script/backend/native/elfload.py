"""A loader for the relocatable ELF objects the JIT emits (x86-64, PIC, default code model):
what a static linker and a dynamic loader do for them, in Python, without LLVM.

`load(objects, resolve)` maps the allocated sections of one or several objects that
reference each other, binds each undefined symbol (to a global symbol of the objects
themselves, else to ``resolve(name)``), applies the relocations, makes the memory executable,
and returns an `Image` holding the address of every global symbol.

Layout: three page-aligned parts, each a block of its own region of a shared arena
(native.arena: the parts of every image of one protection merge into one memory map),
written while writable and then protected (W^X: no page is ever writable and executable):

    text    every .text*, then a jump stub per external function called
            (``jmp *0(%rip)`` and the 8-byte address: the C-API and libm are usually more
            than 2 GiB away, out of reach of a 32-bit call)                       r-x
    rodata  every .rodata* (jump tables, constants, strings), then the GOT: an 8-byte
            slot per symbol loaded through ``sym@GOTPCREL``                         r--
    data    every .data* and .bss*                                                  rw-

Relocations, as the System V x86-64 psABI defines them (S the symbol's address, A the
addend, P the place, L the symbol's stub, G+GOT its slot): R_X86_64_64 S+A; PC32 and PC64
S+A-P; PLT32 L+A-P, or S+A-P when S is in the image; GOTPCREL, GOTPCRELX and REX_GOTPCRELX
G+GOT+A-P (the instruction stays as it is: relaxing it is an optional optimization);
32 and 32S S+A when it fits.

Anything else is declined with `ElfError`, never guessed at: another OS, machine, byte
order or file type; TLS, common or indirect symbols; a section that is not code or data
(static constructors, which nothing here would run); REL relocations or another
relocation type; a value that does not fit its field; a symbol nobody defines. Every read
is bounds-checked, so a damaged object is an `ElfError` too. Callers fall back to LLVM's
linker, or report the damage. `.eh_frame` is not loaded: nothing unwinds through compiled
code (its exceptions are status codes), so only debuggers and profilers lose their way.
"""

from __future__ import annotations

import os
import sys
import weakref

from script.backend.native import arena
from script.store import is_supported

# Sizes of the ELF64 records, which are read as little-endian 64-bit words (`_words`), not
# with struct: a cache hit links through here, and struct cost it ~0.5 ms to import.
_EHDR_SIZE, _SHDR_SIZE, _SYM_SIZE, _RELA_SIZE = 64, 64, 24, 24
_M16, _M32 = 0xFFFF, 0xFFFFFFFF
_STUB = b"\xff\x25\x00\x00\x00\x00"     # jmp *0(%rip): the address follows the instruction
_STUB_SIZE = 16

_SHT_PROGBITS, _SHT_SYMTAB, _SHT_RELA, _SHT_NOBITS, _SHT_REL = 1, 2, 4, 8, 9
_SHT_X86_64_UNWIND = 0x70000001
_SHF_WRITE, _SHF_ALLOC, _SHF_EXECINSTR, _SHF_TLS = 0x1, 0x2, 0x4, 0x400
_SHN_UNDEF, _SHN_LORESERVE, _SHN_ABS = 0, 0xFF00, 0xFFF1
_STB_LOCAL, _STB_GLOBAL, _STB_WEAK = 0, 1, 2
_STT_TLS, _STT_GNU_IFUNC = 6, 10

_R_64, _R_PC32, _R_PLT32, _R_GOTPCREL, _R_32, _R_32S, _R_PC64 = 1, 2, 4, 9, 10, 11, 24
_R_GOT = frozenset({_R_GOTPCREL, 41, 42})       # GOTPCREL, GOTPCRELX, REX_GOTPCRELX
_R_KNOWN = frozenset({_R_64, _R_PC32, _R_PLT32, _R_32, _R_32S, _R_PC64}) | _R_GOT

_TEXT, _RODATA, _DATA = 0, 1, 2
_PROT = (arena.PROT_RX, arena.PROT_R, arena.PROT_RW)
_MAX_IMAGE = 1 << 30


class ElfError(Exception):
    """The objects cannot be loaded by this loader (see the module docstring)."""


class Image:
    """Loaded objects: `symbols` maps each global symbol they define to its address. The
    code stays mapped while the image is referenced (or for the process's life, after
    `keep`); whoever installs an address from it must keep the image alive. Its blocks
    (native.arena) are given back when it goes, never at exit, when objects that point into
    the code may still be freed."""

    def __init__(self, bases: list[int], sizes: list[int], owner, symbols: dict[str, int]):
        self.base = bases[_TEXT]
        self.size = sum(sizes)
        self.symbols = symbols
        self._release = weakref.finalize(self, arena.release, owner, bases, sizes)
        self._release.atexit = False

    def keep(self) -> None:
        """Never unmap this image."""
        self._release.detach()

    def __getitem__(self, name: str) -> int:
        return self.symbols[name]

    def __repr__(self):
        return f"<elfload.Image {len(self.symbols)} symbols at {self.base:#x}>"


def load(objects: "Sequence[bytes]", resolve: "Callable[[str], int | None]") -> Image:
    """Load `objects` as one image; undefined symbols that none of them defines are bound to
    ``resolve(name)`` (None: undefined, an `ElfError`)."""
    if not is_supported():
        raise ElfError(f"objects run only on x86-64 Linux, not {sys.platform} {os.uname().machine}")
    objs = [_Object(bytes(data), i) for i, data in enumerate(objects)]
    defined = _global_definitions(objs)
    sizes = [0, 0, 0]
    for o in objs:
        for sec in o.loaded.values():
            sec.offset = _align(sizes[sec.part], sec.align)
            sizes[sec.part] = sec.offset + sec.size
    external: dict[str, int] = {}
    stubs: dict[str, int] = {}
    slots: dict[tuple, int] = {}
    for o in objs:
        bound: dict[int, tuple] = {}        # symbol index -> target: many relocations share one
        for rel in o.relocations:
            target = bound.get(rel.symbol)
            if target is None:
                target = bound[rel.symbol] = _target(o, rel.symbol, defined, external, resolve)
            rel.target = target
            if rel.type == _R_PLT32 and target[0] == "abs" and target[1] not in stubs:
                stubs[target[1]] = len(stubs)
            elif rel.type in _R_GOT and target not in slots:
                slots[target] = len(slots)
    stub_start = _align(sizes[_TEXT], _STUB_SIZE)
    got_start = _align(sizes[_RODATA], 8)
    page = arena.page_size()
    part_size = [stub_start + _STUB_SIZE * len(stubs), got_start + 8 * len(slots), sizes[_DATA]]
    blocks = [_align(size, page) for size in part_size]
    if sum(blocks) > _MAX_IMAGE:
        raise ElfError(f"an image of {sum(blocks)} bytes")
    try:
        part_base, owner = arena.allocate(blocks)
    except arena.ArenaError as e:
        raise ElfError(str(e)) from None
    try:
        bufs = [bytearray(size) for size in part_size]
        at = _Addresses(part_base, objs, external)
        for o in objs:
            for sec in o.loaded.values():
                if sec.data is not None:
                    bufs[sec.part][sec.offset:sec.offset + sec.size] = sec.data
        for name, k in stubs.items():
            start = stub_start + _STUB_SIZE * k
            bufs[_TEXT][start:start + 14] = _STUB + external[name].to_bytes(8, "little")
        for target, k in slots.items():
            _put(bufs[_RODATA], got_start + 8 * k, at.of(target) % (1 << 64), 8, False)
        stub_base, got_base = part_base[_TEXT] + stub_start, part_base[_RODATA] + got_start
        for o in objs:
            for rel in o.relocations:
                _apply(bufs, rel, o, at, stub_base, stubs, got_base, slots)
        for part in (_TEXT, _RODATA, _DATA):
            if blocks[part]:
                arena.commit(part_base[part], bufs[part], _PROT[part])
        symbols = {name: at.of(("sym", o.index, i)) for name, (o, i) in defined.items()}
    except arena.ArenaError as e:
        arena.release(owner, part_base, blocks)
        raise ElfError(str(e)) from None
    except BaseException:
        arena.release(owner, part_base, blocks)
        raise
    return Image(part_base, blocks, owner, symbols)


def check_object(data: bytes) -> None:
    """ElfError unless `data` reads as an object this loader could link (every offset, size,
    section, symbol and relocation checked; nothing mapped or bound)."""
    _Object(bytes(data), 0)


# ---- reading one object -------------------------------------------------------------------

class _Section:
    __slots__ = ("name", "part", "align", "size", "data", "offset")

    def __init__(self, name, part, align, size, data):
        self.name, self.part, self.align, self.size, self.data = name, part, align, size, data
        self.offset = 0


class _Reloc:
    __slots__ = ("section", "offset", "type", "symbol", "addend", "target")

    def __init__(self, section, offset, type_, symbol, addend):
        self.section, self.offset, self.type, self.symbol, self.addend = \
            section, offset, type_, symbol, addend
        self.target = None          # what `symbol` stands for (`_target`), once bound


class _Object:
    """One object file, checked: its loaded sections, symbols and relocations."""

    def __init__(self, data: bytes, index: int):
        self.index = index
        if sys.byteorder != "little":
            raise ElfError("objects are read on little-endian hosts only")
        ident = _bytes(data, 0, 16)
        w = _words(data, 16, _EHDR_SIZE - 16)
        e_type, machine = w[0] & _M16, w[0] >> 16 & _M16
        shoff, shentsize, shnum, shstrndx = w[3], w[5] >> 16 & _M16, w[5] >> 32 & _M16, w[5] >> 48
        if ident[:4] != b"\x7fELF":
            raise ElfError("not an ELF object")
        if ident[4:6] != b"\x02\x01" or machine != 62:
            raise ElfError(f"not an x86-64 object (class {ident[4]}, data {ident[5]}, "
                           f"machine {machine})")
        if e_type != 1:
            raise ElfError(f"ELF type {e_type} is not a relocatable object")
        if shentsize != _SHDR_SIZE or not 0 < shnum < _SHN_LORESERVE or shstrndx >= shnum:
            raise ElfError("malformed section header table")
        w = _words(data, shoff, shnum * _SHDR_SIZE)
        headers = [(w[k] & _M32, w[k] >> 32, w[k + 1], w[k + 2], w[k + 3], w[k + 4],
                    w[k + 5] & _M32, w[k + 5] >> 32, w[k + 6], w[k + 7])
                   for k in range(0, len(w), 8)]
        names = _table(data, headers[shstrndx])
        self.loaded: dict[int, _Section] = {}
        symtabs = []
        for k, (name_at, type_, flags, _, offset, size, link, info, align, entsize) \
                in enumerate(headers):
            name = _name(names, name_at)
            if type_ == _SHT_SYMTAB:
                symtabs.append(k)
            if not flags & _SHF_ALLOC or name == ".eh_frame" or type_ == _SHT_X86_64_UNWIND:
                continue
            if flags & _SHF_TLS:
                raise ElfError(f"thread-local section {name}")
            if type_ not in (_SHT_PROGBITS, _SHT_NOBITS):
                raise ElfError(f"section {name} of type {type_:#x}")
            if flags & _SHF_EXECINSTR and flags & _SHF_WRITE:
                raise ElfError(f"section {name} is writable code")
            if align > 4096 or align & (align - 1):
                raise ElfError(f"section {name} has alignment {align}")
            part = _TEXT if flags & _SHF_EXECINSTR else _DATA if flags & _SHF_WRITE else _RODATA
            content = None if type_ == _SHT_NOBITS else _bytes(data, offset, size)
            self.loaded[k] = _Section(name, part, max(align, 1), size, content)
        if len(symtabs) > 1:
            raise ElfError("several symbol tables")
        self.kinds: list[tuple[int, int]] = []     # (type, size) of each symbol: elfso's
        self.symbols = self._read_symbols(data, headers, symtabs[0]) if symtabs else []
        self.relocations = self._read_relocations(data, headers, symtabs)

    def _read_symbols(self, data: bytes, headers: list, k: int) -> list:
        _, _, _, _, offset, size, link, _, _, entsize = headers[k]
        if entsize != _SYM_SIZE or size % _SYM_SIZE or link >= len(headers):
            raise ElfError("malformed symbol table")
        strings = _table(data, headers[link])
        symbols = []
        w = _words(data, offset, size)
        for k in range(0, len(w), 3):
            name_at, info, shndx, value, extent = \
                w[k] & _M32, w[k] >> 32 & 0xFF, w[k] >> 48, w[k + 1], w[k + 2]
            bind, type_ = info >> 4, info & 0xF
            if type_ in (_STT_TLS, _STT_GNU_IFUNC):
                raise ElfError(f"symbol {_name(strings, name_at)!r} of type {type_}")
            if shndx >= _SHN_LORESERVE and shndx != _SHN_ABS:
                raise ElfError(f"symbol {_name(strings, name_at)!r} in section {shndx:#x}")
            if bind not in (_STB_LOCAL, _STB_GLOBAL, _STB_WEAK):
                raise ElfError(f"symbol {_name(strings, name_at)!r} has binding {bind}")
            if shndx not in (_SHN_UNDEF, _SHN_ABS) and shndx not in self.loaded \
                    and shndx >= len(headers):
                raise ElfError("a symbol names a section that does not exist")
            name = _name(strings, name_at) if bind != _STB_LOCAL else None
            symbols.append((name, bind, shndx, value))
            self.kinds.append((type_, extent))
        return symbols

    def _read_relocations(self, data: bytes, headers: list, symtabs: list) -> list:
        out = []
        for k, (_, type_, _, _, offset, size, link, info, _, entsize) in enumerate(headers):
            if type_ not in (_SHT_RELA, _SHT_REL) or info not in self.loaded:
                continue           # relocations of a section not loaded (.eh_frame)
            if type_ == _SHT_REL:
                raise ElfError("REL relocations (x86-64 objects use RELA)")
            if entsize != _RELA_SIZE or size % _RELA_SIZE or [link] != symtabs:
                raise ElfError("malformed relocation section")
            section = self.loaded[info]
            nsymbols = len(self.symbols)
            w = _words(data, offset, size)
            for k in range(0, len(w), 3):
                r_offset, symbol, kind, addend = w[k], w[k + 1] >> 32, w[k + 1] & _M32, w[k + 2]
                if addend >= 1 << 63:
                    addend -= 1 << 64
                if kind not in _R_KNOWN:
                    raise ElfError(f"relocation type {kind} in {section.name}")
                if symbol >= nsymbols or section.data is None \
                        or r_offset + (8 if kind == _R_64 or kind == _R_PC64 else 4) > section.size:
                    raise ElfError(f"relocation out of range in {section.name}")
                out.append(_Reloc(info, r_offset, kind, symbol, addend))
        return out


def _global_definitions(objs: list) -> dict:
    """name -> (object, symbol index) for each global symbol the objects define: a strong
    definition wins over weak ones, the first weak one over later ones, two strong ones
    are an error."""
    defined: dict[str, tuple] = {}
    for o in objs:
        for i, (name, bind, shndx, _) in enumerate(o.symbols):
            if bind == _STB_LOCAL or shndx == _SHN_UNDEF:
                continue
            if shndx != _SHN_ABS and shndx not in o.loaded:
                continue                # defined in a section not loaded: never referenced
            old = defined.get(name)
            if old is not None:
                old_bind = old[0].symbols[old[1]][1]
                if old_bind == _STB_GLOBAL and bind == _STB_GLOBAL:
                    raise ElfError(f"symbol {name!r} is defined twice")
                if old_bind == _STB_GLOBAL or bind == _STB_WEAK:
                    continue
            defined[name] = (o, i)
    return defined


def _target(o: _Object, k: int, defined: dict, external: dict, resolve) -> tuple:
    """What symbol `k` of `o` stands for: ("sym", object index, symbol index) in the image,
    or ("abs", name) bound outside it (recorded in `external`)."""
    name, bind, shndx, _ = o.symbols[k]
    if shndx != _SHN_UNDEF or k == 0:
        if bind != _STB_LOCAL and name in defined:     # a weak symbol another one overrides
            owner, index = defined[name]
            return ("sym", owner.index, index)
        if shndx not in (_SHN_UNDEF, _SHN_ABS) and shndx not in o.loaded:
            raise ElfError("a relocation refers to a section that is not loaded")
        return ("sym", o.index, k)
    if not name:
        raise ElfError("an undefined local or unnamed symbol")
    if name in defined:
        owner, index = defined[name]
        return ("sym", owner.index, index)
    if name not in external:
        address = resolve(name)
        if not address:
            raise ElfError(f"undefined symbol {name!r}")
        external[name] = address
    return ("abs", name)


class _Addresses:
    """Final addresses of targets once the parts' blocks are placed (`part_base`)."""

    def __init__(self, part_base: list, objs: list, external: dict):
        self.part_base, self.objs, self.external = part_base, objs, external

    def of(self, target: tuple) -> int:
        if target[0] == "abs":
            return self.external[target[1]]
        o = self.objs[target[1]]
        _, _, shndx, value = o.symbols[target[2]]
        if shndx == _SHN_ABS or target[2] == 0:
            return value
        sec = o.loaded[shndx]
        return self.part_base[sec.part] + sec.offset + value


def _apply(bufs: list, rel: _Reloc, o: _Object, at: _Addresses, stub_base: int,
           stubs: dict, got_base: int, slots: dict) -> None:
    sec = o.loaded[rel.section]
    where = sec.offset + rel.offset
    place = at.part_base[sec.part] + where
    target = rel.target
    kind, a = rel.type, rel.addend
    if kind in _R_GOT:
        value, size, signed = got_base + 8 * slots[target] + a - place, 4, True
    elif kind == _R_PLT32:
        s = stub_base + _STUB_SIZE * stubs[target[1]] if target[0] == "abs" else at.of(target)
        value, size, signed = s + a - place, 4, True
    elif kind == _R_PC32:
        value, size, signed = at.of(target) + a - place, 4, True
    elif kind == _R_PC64:
        value, size, signed = at.of(target) + a - place, 8, True
    elif kind == _R_64:
        value, size, signed = (at.of(target) + a) % (1 << 64), 8, False
    elif kind == _R_32:
        value, size, signed = at.of(target) + a, 4, False
    else:
        value, size, signed = at.of(target) + a, 4, True
    _put(bufs[sec.part], where, value, size, signed, f"relocation type {kind} in {sec.name}")


def _put(buf: bytearray, where: int, value: int, size: int, signed: bool,
         what: str = "a GOT slot") -> None:
    """Write `value` little-endian in `size` bytes at `where`; ElfError when it does not fit."""
    if where + size > len(buf):     # (never: relocations are checked when read) not a resize
        raise ElfError(f"{what} out of range")
    try:
        buf[where:where + size] = value.to_bytes(size, "little", signed=signed)
    except OverflowError:
        raise ElfError(f"{what}: {value:#x} does not fit") from None


# ---- bounds-checked reads -----------------------------------------------------------------

def _words(data: bytes, offset: int, size: int) -> memoryview:
    """The 64-bit words (little-endian: the host's, `_Object` checks) of `size` bytes at
    `offset`, a multiple of 8."""
    return memoryview(_bytes(data, offset, size)).cast("Q")


def _bytes(data: bytes, offset: int, size: int) -> bytes:
    if offset < 0 or size < 0 or offset + size > len(data):
        raise ElfError("truncated object")
    return data[offset:offset + size]


def _table(data: bytes, header: tuple) -> bytes:
    return _bytes(data, header[4], header[5])


def _name(table: bytes, offset: int) -> str:
    end = table.find(b"\0", offset)
    if end < 0 or offset >= len(table):
        raise ElfError("malformed string table")
    try:
        return table[offset:end].decode("ascii")
    except UnicodeDecodeError:
        raise ElfError("a name that is not ASCII") from None


def _align(n: int, alignment: int) -> int:
    return (n + alignment - 1) & -alignment
