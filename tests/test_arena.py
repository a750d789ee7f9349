"""native.arena, the memory elfload places images in: blocks per protection that merge into
few memory maps, are given back when released (even from a finalizer that runs while the
arena is busy), and are used again."""

import pytest

from script.backend.native import arena, elfload

pytestmark = pytest.mark.skipif(not elfload.is_supported(), reason="elfload runs on x86-64 Linux")

PAGE = arena.page_size()


@pytest.fixture(autouse=True, scope="module")
def runtime():
    """The arena's memory calls are the runtime module's: loaded as elfload's callers do."""
    from script.loadpath import runtime_library
    runtime_library()


def maps_in(start: int, end: int) -> list[tuple[int, int, str]]:
    """(start, end, permissions) of each memory map of this process within [start, end)."""
    out = []
    with open("/proc/self/maps") as f:
        for line in f:
            span, perms = line.split()[:2]
            a, b = (int(x, 16) for x in span.split("-"))
            if a < end and b > start:
                out.append((a, b, perms[:3]))
    return out


def fill(sizes, protections=(arena.PROT_RX, arena.PROT_R, arena.PROT_RW)):
    bases, owner = arena.allocate(sizes)
    for base, size, prot in zip(bases, sizes, protections):
        if size:
            arena.commit(base, bytearray(b"\xcc" * size), prot)
    return bases, owner


def test_blocks_of_one_protection_merge_into_one_map():
    images = [fill([PAGE, PAGE, PAGE]) for _ in range(40)]
    owner = images[0][1]
    assert all(o is owner for _, o in images)          # one arena for all of them
    text = sorted(b[0] for b, _ in images)
    maps = maps_in(text[0], text[-1] + PAGE)
    assert [m[2] for m in maps] == ["r-x"], maps
    rodata = sorted(b[1] for b, _ in images)
    assert [m[2] for m in maps_in(rodata[0], rodata[-1] + PAGE)] == ["r--"]
    data = sorted(b[2] for b, _ in images)
    assert [m[2] for m in maps_in(data[0], data[-1] + PAGE)] == ["rw-"]
    for bases, o in images:
        arena.release(o, bases, [PAGE, PAGE, PAGE])


def test_released_blocks_are_inaccessible_and_used_again():
    bases, owner = fill([2 * PAGE, PAGE, 0])
    assert bases[2] == 0                                  # no data: no block
    arena.release(owner, bases, [2 * PAGE, PAGE, 0])
    assert [m[2] for m in maps_in(bases[0], bases[0] + 2 * PAGE)] == ["---"]
    again, _ = fill([2 * PAGE, PAGE, 0])
    assert again[:2] == bases[:2]                         # first fit: the same addresses
    arena.release(owner, again, [2 * PAGE, PAGE, 0])


def test_freed_neighbours_coalesce():
    region = arena._Region(0x10000, 10 * PAGE)
    starts = [region.take(PAGE) for _ in range(10)]
    assert region.take(PAGE) is None
    for k in (1, 3, 2, 0, 9, 5, 4, 8, 6, 7):
        region.give(starts[k], PAGE)
    assert (region.starts, region.sizes) == ([0x10000], [10 * PAGE])


def test_a_release_while_the_arena_is_busy_waits_for_the_next_allocation():
    bases, owner = fill([PAGE, 0, 0])
    with arena._lock:                                     # a finalizer run inside allocate
        arena.release(owner, bases, [PAGE, 0, 0])
        assert arena._pending
    again, _ = fill([PAGE, 0, 0])
    assert not arena._pending and again[0] == bases[0]
    arena.release(owner, again, [PAGE, 0, 0])


def test_a_part_larger_than_a_region_gets_an_arena_that_goes_with_it(monkeypatch):
    monkeypatch.setattr(arena, "REGION_SIZE", 4 * PAGE)
    monkeypatch.setattr(arena, "_arenas", [])             # none with room for it
    bases, owner = fill([8 * PAGE, PAGE, 0])
    assert owner.dedicated and arena._arenas == []
    assert [m[2] for m in maps_in(bases[0], bases[0] + 8 * PAGE)] == ["r-x"]
    arena.release(owner, bases, [8 * PAGE, PAGE, 0])
    assert maps_in(bases[0], bases[0] + 9 * PAGE) == []   # unmapped


def test_dropped_images_give_their_blocks_back():
    import script

    def f(x):
        return x * 3 + 1

    g = script.script(f)
    assert g(2) == 7
    image = next(iter(g._specializations.values())).native._tracker
    assert isinstance(image, elfload.Image)
    start = image.base
    del g, image
    import gc
    gc.collect()
    assert all(m[2] == "---" for m in maps_in(start, start + PAGE))
