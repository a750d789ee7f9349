"""Features added for realistic_np3.py, each against NumPy on the same inputs: np.pad,
np.average/count_nonzero/ptp along an axis, reductions over a tuple of axes, augmented
assignment through an array index, np.diff's prepend/append, np.histogram's edges and
density, np.partition, the triangles' indices, np.ndindex and tuple indices,
np.linspace(retstep=True), list arguments, and np.random.default_rng's forms and errors."""

import resource

import numpy as np
import pytest

import script
from difftest import check_all_levels, compiled


def pads_1d(a, w):
    return (np.pad(a, w), np.pad(a, (w, 1), mode="edge"), np.pad(a, w, "wrap"),
            np.pad(a, (2, w), mode="reflect"), np.pad(a, ((w, 0),), mode="symmetric"),
            np.pad(a, 1, constant_values=7))


def pads_2d(a, w):
    return (np.pad(a, w), np.pad(a, ((w, 0), (1, 2)), mode="edge"), np.pad(a, (1, w), mode="reflect"),
            np.pad(a, w, mode="symmetric"), np.pad(a, ((1,), (w,)), "wrap"))


def pads_3d(a):
    return np.pad(a, 1), np.pad(a, ((0, 1), (1, 0), (2, 2)), mode="reflect")


@pytest.mark.parametrize("w", [0, 1, 3, 7, -1])
def test_pad(w):
    for a in (np.arange(5.0), np.arange(1, 4), np.array([3.0]), np.arange(5, dtype=np.uint8), np.zeros(0)):
        check_all_levels(pads_1d, a, w)
    for a in (np.arange(12.0).reshape(3, 4), np.arange(6).reshape(2, 3).T, np.ones((1, 1)), np.zeros((0, 2))):
        check_all_levels(pads_2d, a, w)


def test_pad_3d_and_errors():
    check_all_levels(pads_3d, np.arange(24).reshape(2, 3, 4))

    def bad_mode(a):
        return np.pad(a, 1, mode="median")

    def bad_width(a):
        return np.pad(a, ((1, 2, 3),))

    for fn in (bad_mode, bad_width):
        with pytest.raises(script.CompileError) as e:
            script.script(fn)(np.ones(3))
        assert f"test_np3_features.py:{fn.__code__.co_firstlineno + 1}:" in str(e.value)


def average_rows(a, w):
    return np.average(a, axis=0, weights=w)


def average_last(a, w):
    return np.average(a, 1, w)


def axis_forms(a):
    return (np.average(a, axis=1), np.average(a, axis=None), np.count_nonzero(a, axis=1),
            np.count_nonzero(a, axis=(0, 1)), np.ptp(a, axis=0), np.ptp(a, axis=-1))


def axis_tuples(a):
    return (a.sum(axis=(0, 2)), a.max(axis=(1, 2)), a.mean(axis=(0, 1)), np.any(a > 2, axis=(0, 2)),
            a.min(axis=(2, 0)), np.sum(a, axis=(0, 1, 2)))


def test_axis_forms():
    m = np.arange(12).reshape(3, 4)
    for a in (m, m * 0.5, m.astype(np.float32), m.astype(np.int8), m.T):
        check_all_levels(average_rows, a, np.arange(1.0, 1.0 + a.shape[0]), approx=True)
        check_all_levels(average_rows, a, np.ones(a.shape), approx=True)
        check_all_levels(average_rows, a, np.arange(a.shape[0]).astype(np.float32), approx=True)
        check_all_levels(average_rows, a, np.zeros(a.shape[0]))         # ZeroDivisionError
        check_all_levels(average_rows, a, np.ones(7))                   # ValueError
        check_all_levels(average_last, a, np.ones(a.shape[1]), approx=True)
        check_all_levels(axis_forms, a, approx=True)
    v = np.arange(24.0).reshape(2, 3, 4)
    check_all_levels(average_rows, v, np.array([1.0, 3.0]), approx=True)
    check_all_levels(average_last, v, np.array([1.0, 3.0, 2.0]), approx=True)
    check_all_levels(axis_tuples, v, approx=True)
    check_all_levels(axis_tuples, np.arange(24).reshape(2, 3, 4))

    def duplicate(a):
        return a.sum(axis=(0, 0))

    with pytest.raises(script.CompileError, match="duplicate value in 'axis'"):
        script.script(duplicate)(v)


def aug_mask(a):
    a[a > 2] += 10
    return a


def aug_index(a, idx):
    a[idx] *= 2
    a[[0, 1]] -= 1
    return a


def aug_broadcast(a, idx):
    a[idx] += np.arange(3)
    return a


def aug_rows(m):
    m[m[:, 0] > 0] *= 2.0
    m[:, 1][m[:, 1] < 0] = 0.0
    return m


def aug_plan(m, idx):
    m[idx, 1:] += 100
    m[:, idx] -= m[0, 0]
    return m


def aug_float_into_int(a, idx):
    a[idx] += 1.5
    return a


def test_augmented_assignment_through_index():
    for a in (np.arange(6.0), np.arange(6), np.arange(6).astype(np.int8)):
        check_all_levels(aug_mask, a)
        check_all_levels(aug_index, a, np.array([1, 1, 3, -1]))         # duplicates: the last write
        check_all_levels(aug_index, a, np.array([9]))                   # IndexError, nothing written
        check_all_levels(aug_broadcast, a, np.array([0, 2, 5]))
        check_all_levels(aug_broadcast, a, np.array([0, 2]))            # broadcast ValueError
    check_all_levels(aug_float_into_int, np.arange(6.0), np.array([0, 2]))
    m = np.arange(12.0).reshape(3, 4) - 5
    check_all_levels(aug_rows, m)
    check_all_levels(aug_plan, m, np.array([0, 2]))
    check_all_levels(aug_plan, m.astype(np.int32), np.array([2, 2]))
    with pytest.raises(script.CompileError, match="same_kind"):        # NumPy's UFuncTypeError
        script.script(aug_float_into_int)(np.arange(6), np.array([0, 2]))


def diffs_1d(a):
    return (np.diff(a, prepend=0.0), np.diff(a, append=a[-1]), np.diff(a, n=2, prepend=1, append=2),
            np.diff(a, prepend=a[:2]))


def diffs_2d(m):
    return np.diff(m, axis=0, prepend=0), np.diff(m, append=1.5), np.diff(m, axis=0, prepend=m[:1], append=m[-1:])


def test_diff_prepend_append():
    for a in (np.arange(5.0) ** 2, np.arange(4), np.array([True, False, True])):
        check_all_levels(diffs_1d, a)
    for m in (np.arange(12.0).reshape(3, 4) ** 2, np.arange(6).reshape(2, 3), np.arange(6, dtype=np.uint8).reshape(3, 2)):
        check_all_levels(diffs_2d, m)


def hist_edges(a, e):
    return np.histogram(a, bins=e)


def hist_density_edges(a, e):
    return np.histogram(a, e, density=True)


def hist_density(a):
    return (np.histogram(a, bins=4, density=True), np.histogram(a, 3, range=(0.0, 5.0), density=True),
            np.histogram(a, 3, density=False))


def test_histogram_edges_and_density():
    rng = np.random.default_rng(1)
    for a in (rng.normal(size=50), np.arange(10), np.array([1.0, np.nan, 3.0]), np.zeros(0), np.array([2.0, 2.0])):
        for e in (np.array([-1.0, 0.0, 2.0, 5.0]), np.array([0, 3, 9]), np.array([1.0, 0.0]), np.array([3.0]),
                  np.array([0.0, 2.0, 2.0, 4.0])):
            check_all_levels(hist_edges, a, e)
            with np.errstate(all="ignore"):
                check_all_levels(hist_density_edges, a, e, approx=True)
        with np.errstate(all="ignore"):
            check_all_levels(hist_density, a, approx=True)


def partitions(a, k):
    return np.sort(np.partition(a, k)[:k]), np.sort(a[np.argpartition(a, k)[:k]]), np.partition(a, k)[k]


def triangles(n, k):
    return np.triu_indices(n), np.triu_indices(n, k), np.tril_indices(n, k), np.tril_indices(n, k, n + 1)


def test_partition_and_triangles():
    a = np.array([5.0, -1.0, 3.0, 3.0, 9.0, 0.5])
    for k in (0, 2, 5, -1, 6):
        check_all_levels(partitions, a, k)
    for n in (0, 1, 4):
        for k in (-1, 0, 2):
            check_all_levels(triangles, n, k)


def ndindex_weighted(m):
    t = 0.0
    for idx in np.ndindex(m.shape):
        t += m[idx] * (idx[0] + 1)
    return t


def ndindex_pairs(a, b):
    out = []
    for i, j in np.ndindex(a, b):
        out.append(i * 10 + j)
    return out


def ndindex_starred(v):
    c = 0
    for i, j, k in np.ndindex(*v.shape):
        c += (i + j + k) * v[i, j, k]
    return c


def tuple_index(m, i, j):
    p = (i, j)
    m[p] += 1.0
    m[p] = m[p] * 2
    return m[p], m[(i,)], m[(j, i)], m


def test_ndindex_and_tuple_indices():
    check_all_levels(ndindex_weighted, np.arange(12.0).reshape(3, 4))
    check_all_levels(ndindex_weighted, np.zeros((0, 3)))
    for a, b in ((2, 3), (0, 4), (3, 1), (-1, 2)):
        check_all_levels(ndindex_pairs, a, b)
    check_all_levels(ndindex_starred, np.arange(24).reshape(2, 3, 4))
    for i, j in ((0, 1), (2, 3), (-1, 0), (5, 0)):
        check_all_levels(tuple_index, np.arange(12.0).reshape(3, 4), i, j)


def linspaces(n):
    return (np.linspace(0.0, 1.0, n, retstep=True), np.linspace(2, 3, n, endpoint=False, retstep=True),
            np.linspace(0, 1, n, retstep=False))


def list_arguments(a):
    return np.percentile(a, [10.0, 50.0, 90.0]), np.quantile(a, [0.25, 0.75]), np.isin(a, [1.0, 2.0])


def test_linspace_retstep_and_list_arguments():
    for n in (0, 1, 2, 5, -1):
        check_all_levels(linspaces, n)
    check_all_levels(list_arguments, np.arange(7.0))


# ---- np.random.default_rng ---------------------------------------------------------------------

def rng_forms(seed):
    rng = np.random.default_rng(seed)
    a = rng.integers(3, 9, size=(2, 3), endpoint=True)
    b = rng.choice(np.array([1.5, 2.5]), size=4, p=np.array([0.25, 0.75]))
    c = rng.choice(5, p=[0.0, 0.0, 1.0, 0.0, 0.0])
    d = rng.permutation(6)
    e = rng.exponential(2.0, 3)
    f = rng.poisson(3.0, 1000)
    g = rng.poisson(40.0, 1000)
    h = np.random.default_rng(seed).random()
    return a, b, c, d, e, f, g, h


def rng_helper(rng, n):
    return rng.normal(size=n)


def rng_passed(seed):
    rng = np.random.default_rng(seed)
    return rng_helper(rng, 3), np.random.default_rng(seed).normal(size=3)


def rng_bad_p(p):
    rng = np.random.default_rng(1)
    return rng.choice(3, size=2, p=p)


def rng_negative(seed):
    return np.random.default_rng(seed).random()


def test_generator_forms():
    a, b, c, d, e, f, g, h = compiled(rng_forms)(5)
    assert a.shape == (2, 3) and a.min() >= 3 and a.max() <= 9 and a.dtype == np.int64
    assert set(b) <= {1.5, 2.5} and c == 2 and sorted(d) == list(range(6)) and (e >= 0).all()
    assert abs(f.mean() - 3.0) < 0.3 and abs(g.mean() - 40.0) < 1.5 and f.min() >= 0
    assert 0.0 <= h < 1.0
    x, y = compiled(rng_passed)(11)
    np.testing.assert_array_equal(x, y)          # the same seed, the same numbers
    for p in (np.array([0.5, 0.5]), np.array([0.5, 0.6, -0.1]), np.array([0.2, 0.2, 0.2])):
        with pytest.raises(ValueError) as want:
            rng_bad_p(p)
        with pytest.raises(ValueError) as got:
            compiled(rng_bad_p)(p)
        assert str(got.value) == str(want.value)
    with pytest.raises(ValueError, match="expected non-negative integer"):
        compiled(rng_negative)(-1)


def rng_errors(kind, n):
    rng = np.random.default_rng(3)
    if kind == 0:
        return float(rng.choice(n, size=2).sum())
    if kind == 1:
        return float(rng.choice(n, size=4, replace=False).sum())
    if kind == 2:
        return float(rng.integers(n, size=2).sum())
    if kind == 3:
        return float(rng.integers(n, 0, size=2).sum())
    if kind == 4:
        return float(rng.normal(0.0, float(n), 2).sum() * 0.0)
    if kind == 5:
        return float(rng.poisson(float(n), 2).sum() * 0)
    return float(rng.choice(np.zeros(n), size=2).sum())


def test_generator_errors_are_numpys():
    """Errors come before any draw, so they compare with NumPy's Generator exactly."""
    for kind in range(7):
        for n in (-1, 0):
            check_all_levels(rng_errors, kind, n)
    check_all_levels(rng_errors, 1, 3)


def test_generator_unsupported_forms():
    def as_value(s):
        g = [np.random.default_rng(s)]
        return len(g)

    def no_replace_with_p(s):
        rng = np.random.default_rng(s)
        return rng.choice(3, size=2, replace=False, p=np.ones(3) / 3)

    def other_method(s):
        rng = np.random.default_rng(s)
        return rng.gamma(3.0)

    def reassigned(s):
        rng = np.random.default_rng(s)
        rng = 3
        return rng

    for fn in (as_value, no_replace_with_p, other_method, reassigned):
        with pytest.raises(script.CompileError) as e:
            script.script(fn)(1)
        assert "test_np3_features.py:" in str(e.value), str(e.value)


def _loop(n):
    t = 0.0
    for k in range(n):
        a = np.arange(8.0)
        a[a > 3] += 1.0
        b = np.pad(a, 2, mode="reflect")
        t += np.average(b.reshape(3, 4), axis=0, weights=np.ones(3))[0] + np.diff(a, prepend=0.0)[1]
    return t


def test_new_paths_free_what_they_allocate():
    f = compiled(_loop)
    assert f(10) == _loop(10)
    f(1000)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    f(300_000)
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 20_000     # KB


def rows_1d(n):
    rows = []
    for i in range(n):
        rows.append(np.arange(3.0) * i)
    return (np.array(rows), np.vstack(rows), np.stack(rows), np.concatenate(rows), np.hstack(rows),
            np.asarray(rows), np.array(rows, dtype=np.int32))


def blocks_2d(n):
    blocks = []
    for i in range(n):
        blocks.append(np.ones((i + 1, 2)) * i)
    return np.vstack(blocks), np.concatenate(blocks)


def ragged_array(n):
    rows = []
    for i in range(n):
        rows.append(np.arange(i + 1))
    return np.array(rows)


def ragged_stack(n):
    rows = []
    for i in range(n):
        rows.append(np.arange(i + 1))
    return np.stack(rows)


def ragged_vstack(n):
    blocks = []
    for i in range(n):
        blocks.append(np.ones((2, i + 1)))
    return np.vstack(blocks)


def lists_and_items(x, y, a):
    return np.min([x, y]), np.max([x, y, 0.5]), np.sum([x, y]), np.mean([x, y]), a[0].item(), a.sum().item()


def test_lists_of_arrays_built_at_run_time():
    for n in (1, 3):
        check_all_levels(rows_1d, n)
        check_all_levels(ragged_array, n)        # NumPy's inhomogeneous-shape ValueError
        check_all_levels(ragged_stack, n)
        check_all_levels(ragged_vstack, n)
    for n in (0, 1, 3):
        check_all_levels(blocks_2d, n)           # 0: need at least one array
    check_all_levels(lists_and_items, 1.5, -2.0, np.array([0.25, 3.0]))
