"""Kernels of tests/test_gaps_numpy2.py: sort/argsort/median/percentile along axes,
searchsorted, interp, diff, norm orders (numpy_lib.py); flips, repeat, tile, take, item and
friends (numpy_shape.py); formula ufuncs, cov, sets, NaN-skipping (numpy_more.py)."""

import numpy as np


def sort_axes(m):
    return np.sort(m, axis=0), np.sort(m, axis=1), np.sort(m), np.sort(m, axis=None), np.sort(m, axis=-2)


def sort_method_axis0(m):
    b = m.copy()
    b.sort(axis=0)
    return b


def argsort_axes(m):
    return np.argsort(m, axis=0, kind="stable"), np.argsort(m, axis=1, kind="stable"), m.argsort(kind="mergesort")


def argsort_flat(a):
    return np.argsort(a, kind="stable"), np.argsort(a, axis=None, kind="stable")


def median_axes(m):
    return np.median(m, axis=0), np.median(m, axis=1), np.median(m)


def percentiles(a, q):
    qs = np.array([0.0, q, 100.0])
    return np.percentile(a, q), np.percentile(a, qs), np.quantile(a, q / 100.0), np.quantile(a, qs / 100.0)


def percentile_axis(m, q):
    return np.percentile(m, q, axis=0), np.quantile(m, q / 100.0, axis=1)


def searchsorted_sides(a, v):
    s = np.sort(a)
    return (np.searchsorted(s, v), np.searchsorted(s, v, side="right"),
            np.searchsorted(s, v[0], side="left"), np.searchsorted(s, v[0], "right"))


def interp_many(x, xp, fp):
    return np.interp(x, xp, fp), np.interp(x, xp, fp, left=-1.0, right=2.0), np.interp(x[0], xp, fp)


def diffs(a, n):
    return np.diff(a, n), np.diff(a, n=n)


def diffs_2d(m, n):
    return np.diff(m, n, axis=0), np.diff(m, axis=1), np.diff(m, n=n, axis=-1)


def norms(v):
    return (np.linalg.norm(v, 1), np.linalg.norm(v, np.inf), np.linalg.norm(v, -np.inf),
            np.linalg.norm(v, 0), np.linalg.norm(v, ord=3), np.linalg.norm(v, 2))


def matrix_norms(m):
    return (np.linalg.norm(m, "fro"), np.linalg.norm(m, 1), np.linalg.norm(m, -1),
            np.linalg.norm(m, np.inf), np.linalg.norm(m, axis=0), np.linalg.norm(m, axis=1),
            np.linalg.norm(m, 1, axis=1))


def eye_dtypes(n, k):
    return np.eye(n, dtype=np.int64), np.eye(n, n + 1, k, dtype=np.float32), np.identity(n, dtype=np.bool_)


def meshgrid_ij(x, y):
    return np.meshgrid(x, y, indexing="ij")


def cross_rows(a, b):
    return np.cross(a, b), np.cross(a, b[0])


def nan_to_num_full(a):
    return np.nan_to_num(a, copy=True, nan=-1.0, posinf=9.0, neginf=-9.0), np.nan_to_num(a)


# ---- numpy_shape ----

def flips(m):
    return np.flip(m), np.flip(m, 0), np.flip(m, axis=1), np.fliplr(m), np.flipud(m)


def rot90s(m, k):
    return np.rot90(m), np.rot90(m, k), np.rot90(m, k=-k)


def repeats(a, k):
    return np.repeat(a, k), a.repeat(k)


def repeat_counts(a, r):
    return np.repeat(a, r)


def repeat_axis(m, k):
    return np.repeat(m, k, axis=0), np.repeat(m, k, axis=1)


def tiles(a, r, c):
    return np.tile(a, r), np.tile(a, (r, c))


def dstacks(a, b):
    return np.dstack((a, b))


def expand(a):
    return np.expand_dims(a, 0), np.expand_dims(a, axis=-1), np.atleast_2d(a)


def appends(a, b):
    return np.append(a, b), np.append(a, 1.5), np.delete(a, 0), np.insert(a, 1, 7)


def takes(a, idx, i):
    return np.take(a, idx), a.take(i), np.take(a, i)


def items(a, i):
    return a.item(i), a[:1].item()


def diagonals(m, k):
    return np.diagonal(m), m.diagonal(k), np.trace(m, k), m.trace()


def fill_diag(m, v):
    np.fill_diagonal(m, v)
    return m


def unravel(m):
    i = np.argmax(m)
    r, c = np.unravel_index(i, m.shape)
    return r, c, np.ravel_multi_index((r, c), m.shape)


def layouts(m):
    c = np.ascontiguousarray(m)
    f = np.asfortranarray(m)
    return c, f, np.reshape(m, (m.size,)), np.ravel(m), np.shape(m), np.size(m), np.ndim(m)


def contiguous_writes_through(a):
    c = np.ascontiguousarray(a)
    c[0] = 99
    return a


def copyto_(a, b):
    np.copyto(a, b)
    return a


def resize_vander(a, n):
    return np.resize(a, n), np.vander(a), np.vander(a, 3, increasing=True), np.diagflat(a), np.ediff1d(a)


# ---- numpy_more ----

def angles(x):
    return np.deg2rad(x), np.rad2deg(x), np.degrees(x), np.radians(x)


def formulas(x, y):
    return (np.logaddexp(x, y), np.logaddexp2(x, y), np.heaviside(x, 0.5), np.sinc(x),
            np.signbit(x), np.fix(x))


def modfs(x):
    return np.modf(x)


def gcds(a, b):
    return np.gcd(a, b), np.lcm(a, b), np.gcd(a, 6), np.gcd(12, 18)


def products(a, b):
    return np.vdot(a, b), np.inner(a, b)


def spaces(n):
    return np.logspace(0.0, 2.0, n), np.logspace(0, 3, n, endpoint=False, base=2.0), np.geomspace(1.0, 1000.0, n)


def matrix_powers(m, n):
    return np.linalg.matrix_power(m, n)


def covs(a, b):
    return np.cov(a, b), np.corrcoef(a, b), np.cov(a), np.cov(a, b, ddof=0)


def covs_2d(m):
    return np.cov(m), np.cov(m, rowvar=False), np.corrcoef(m), np.cov(m, bias=True)


def nan_skipping(a):
    return np.nancumsum(a), np.nancumprod(a), np.nanmedian(a), np.nanpercentile(a, 30.0), np.nanquantile(a, 0.7)


def sets(a, b):
    return np.isin(a, b), np.isin(a, b, invert=True), np.intersect1d(a, b), np.union1d(a, b), np.setdiff1d(a, b)


def uniques(a):
    u, c = np.unique(a, return_counts=True)
    v, inv = np.unique(a, return_inverse=True)
    return (u, c, v, inv, np.unique(a, return_index=True), np.unique(a, return_index=True, return_counts=True),
            np.unique(a, return_inverse=True, return_index=True, return_counts=True),
            np.unique(a, return_counts=True, return_inverse=True, return_index=False))


def polyfits(x, y, deg):
    return np.polyfit(x, y, deg), np.polyval(np.polyfit(x, y, 1), x)
