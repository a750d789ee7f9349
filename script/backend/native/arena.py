"""The memory elfload puts code in: a few large reservations shared by every image, so that
many loaded libraries cost a few memory maps in all instead of three or four each.

An arena is one anonymous reservation (``PROT_NONE``, no memory behind it until written) of
three regions, one per protection of an image's parts (native.elfload: text r-x, rodata r--,
data rw-). An image takes page-aligned blocks, one per part, each from its own region of one
arena; the kernel merges neighbouring pages of the same protection into one mapping, so the
code of every loaded library is one map, their constants another and their data a third
(plus the reserved rest of each region). The map count no longer grows with the number of
live libraries (LLJIT's memory manager, and elfload's mapping per image before, cost 3-5
maps each; the kernel's limit of 65,530 was reached near 16k live functions).

A block is never writable and executable at once: it is made read-write, filled, then given
its final protection (`commit`). A freed block is made ``PROT_NONE`` and its pages are handed
back to the kernel (``MADV_DONTNEED``) at once; the address range is used again for later
images (first fit, neighbours coalesced). Arenas are never unmapped.

The three regions of an arena lie within 3 x 64 MiB, so every 32-bit PC-relative reference
between the parts of one image reaches (x86-64: +-2 GiB). An image with a part larger than a
region gets an arena of its own, sized to it.

Thread safety: allocation and release take a lock. Release runs from a finalizer, which the
garbage collector may call in any thread and in the middle of an allocation of the same
thread; then it does not wait for the lock but leaves the blocks to the next allocation or
release that holds it (`_pending`).
"""

from __future__ import annotations

import os
import threading

from script import store

REGION_SIZE = 64 << 20
PROT_NONE, PROT_R, PROT_RW, PROT_RX = 0, 0x1, 0x1 | 0x2, 0x1 | 0x4


class ArenaError(Exception):
    """The kernel refused a mapping or a protection change."""


class _Region:
    """One region of an arena: its free address ranges, sorted by start, none adjacent."""

    def __init__(self, start: int, size: int):
        self.starts = [start]
        self.sizes = [size]

    def take(self, size: int) -> int | None:
        for k, free in enumerate(self.sizes):
            if free >= size:
                start = self.starts[k]
                if free == size:
                    del self.starts[k], self.sizes[k]
                else:
                    self.starts[k] += size
                    self.sizes[k] -= size
                return start
        return None

    def give(self, start: int, size: int) -> None:
        import bisect       # here, not above: only a release needs it, and a cache hit none
        k = bisect.bisect(self.starts, start)
        if k and self.starts[k - 1] + self.sizes[k - 1] == start:       # merge with the one before
            k -= 1
            self.sizes[k] += size
        else:
            self.starts.insert(k, start)
            self.sizes.insert(k, size)
        if k + 1 < len(self.starts) and self.starts[k] + self.sizes[k] == self.starts[k + 1]:
            self.sizes[k] += self.sizes.pop(k + 1)
            del self.starts[k + 1]


class _Arena:
    def __init__(self, region_sizes: list[int], dedicated: bool = False):
        total = sum(region_sizes)
        self.dedicated = dedicated      # one large image's: unmapped when it is released
        try:
            base = _memory().reserve(total)
        except OSError as e:
            raise ArenaError(f"reserving {total} bytes failed: {e.strerror}") from None
        self.regions = []
        for size in region_sizes:
            self.regions.append(_Region(base, size))
            base += size

    def take(self, sizes: list[int]) -> list[int] | None:
        """A block of each size (0: none, address 0), each from its region; None, taking
        nothing, when one does not fit."""
        bases = []
        for region, size in zip(self.regions, sizes):
            start = region.take(size) if size else 0
            if start is None:
                for r, s, b in zip(self.regions, sizes, bases):
                    if s:
                        r.give(b, s)
                return None
            bases.append(start)
        return bases

    def unmap(self) -> None:
        first = self.regions[0].starts[0]
        _memory().unmap(first, sum(r.sizes[0] for r in self.regions))


_arenas: list[_Arena] = []
_lock = threading.Lock()
_pending: list[tuple] = []        # (arena, bases, sizes) released while the lock was held


def allocate(sizes: list[int]) -> tuple[list[int], object]:
    """Page-aligned blocks of `sizes` (multiples of the page size; 0 for none: address 0), one
    per part, each reserved but not yet accessible; and the handle `release` takes."""
    with _lock:
        _release_pending()
        for arena in _arenas:
            bases = arena.take(sizes)
            if bases is not None:
                return bases, arena
        if all(size <= REGION_SIZE for size in sizes):
            arena = _Arena([REGION_SIZE] * len(sizes))
            _arenas.append(arena)
        else:
            arena = _Arena([max(s, page_size()) for s in sizes], dedicated=True)
        return arena.take(sizes), arena


def commit(address: int, data, prot: int) -> None:
    """Write `data` (a bytearray) at `address`, the start of a block `allocate` gave, and
    give the block's pages protection `prot`."""
    size = _round(len(data))
    _protect(address, size, PROT_RW)
    _memory().write(address, data)
    if prot != PROT_RW:
        _protect(address, size, prot)


def release(arena, bases: list[int], sizes: list[int]) -> None:
    """Give the blocks back: inaccessible at once, their memory returned to the kernel, their
    addresses free for later images. Safe in a finalizer (module docstring)."""
    if not _lock.acquire(blocking=False):
        _pending.append((arena, bases, sizes))
        return
    try:
        _release(arena, bases, sizes)
        _release_pending()
    finally:
        _lock.release()


def _release_pending() -> None:
    while _pending:
        _release(*_pending.pop())


def _release(arena, bases: list[int], sizes: list[int]) -> None:
    memory = _memory()
    if arena.dedicated:
        for region, base, size in zip(arena.regions, bases, sizes):
            if size:
                region.give(base, size)     # whole again: one free range each, for `unmap`
        arena.unmap()
        return
    for region, base, size in zip(arena.regions, bases, sizes):
        if size:
            memory.protect(base, size, PROT_NONE)
            memory.discard(base, size)
            region.give(base, size)


def _protect(address: int, size: int, prot: int) -> None:
    try:
        _memory().protect(address, size, prot)
    except OSError as e:
        raise ArenaError(f"mprotect failed: {e.strerror}") from None


_page = 0


def page_size() -> int:
    global _page
    if not _page:
        _page = os.sysconf("SC_PAGE_SIZE")
    return _page


def _round(n: int) -> int:
    return (n + page_size() - 1) & -page_size()


def _memory():
    """The runtime module (backend runtime.pymodule): mmap, mprotect, madvise, munmap and a
    copy into memory without ctypes, which a cache hit does not import. Requires: the runtime
    library is loaded (elfload's callers load it to bind their objects' symbols)."""
    return store.runtime_library().module
