"""NumPy's counting and statistics functions written in the compiled subset: `bincount`,
`histogram`, `digitize`, `average`.

Compiled like numpy_lib's functions (see numpy_lib_call for how a call reaches them: a
parameter annotated ``np.ndarray`` must be an array, and dtype and rank rules are checked
at the user's line). Each follows NumPy's own algorithm where the result depends on it:
`histogram` computes its edges as ``np.linspace`` does and places a value as NumPy's
uniform-bin path does (scaled index, then corrected against the edges), so the counts agree
for values on or near an edge.
"""

import math

import numpy as np

builtins_range = range      # `range` is histogram's parameter

from script.frontend.library_intrinsics import raise_if


def bincount(x: np.ndarray, weights=None, minlength=0):
    """The number of occurrences of each value of the non-negative ints `x`, at least
    `minlength` long (with `weights`: `_bincount_weighted`)."""
    counts = np.zeros(_bincount_size(x, minlength), dtype=np.int64)
    for i in range(x.shape[0]):
        counts[int(x[i])] += 1
    return counts


def _bincount_weighted(x: np.ndarray, weights: np.ndarray, minlength=0):
    """The sum of the `weights` (as float64) of each value of `x`. (For an empty `x` NumPy
    returns int64 zeros without looking at the weights; float64 zeros here.)"""
    size = _bincount_size(x, minlength)
    if weights.shape[0] != x.shape[0] and x.shape[0] != 0:
        raise ValueError("The weights and list don't have the same length.")
    sums = np.zeros(size)
    for i in range(x.shape[0]):
        sums[int(x[i])] += weights[i]
    return sums


def _bincount_size(x, minlength):
    """max(x) + 1, at least `minlength`; NumPy's errors for a negative one of either."""
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    size = minlength
    for i in range(x.shape[0]):
        v = x[i]
        if v < 0:
            raise ValueError("'list' argument must have no negative elements")
        if v >= size:
            size = int(v) + 1
    return size


def histogram(a: np.ndarray, bins=10, range=None):    # noqa: A002 - NumPy's name
    """(counts, edges) of `bins` equal bins over `range` (default: the data's min to max);
    every bin is half-open but the last, which holds its right edge too."""
    if bins < 1:
        raise ValueError("`bins` must be positive, when an integer")
    values = a.ravel() * 1.0            # NumPy's cast to the edges' type: float64 for ints
    edges = np.empty(bins + 1, dtype=values.dtype)
    if range is not None:
        first, last = range
        if first > last:
            raise ValueError("max must be larger than min in range parameter.")
        if not (math.isfinite(first) and math.isfinite(last)):
            _not_finite(first, last, True)
        # NumPy computes the edges from Python scalars in float64, and scales by their
        # float64 difference
        lo = first * 1.0
        hi = last * 1.0
        if lo == hi:
            lo -= 0.5
            hi += 0.5
        _fill_edges(edges, lo, hi)
        _check_edges(edges)
        return _count(values, edges, hi - lo, True), edges
    if values.shape[0] == 0:
        _fill_edges(edges, 0.0, 1.0)
        return np.zeros(bins, dtype=np.int64), edges
    # min and max in the data's own type: float32 edges are computed in float32
    lo = values.min()
    hi = values.max()
    if not (math.isfinite(lo) and math.isfinite(hi)):
        _not_finite(lo, hi, False)
    if lo == hi:
        lo = lo - 0.5
        hi = hi + 0.5
    _fill_edges(edges, lo, hi)
    _check_edges(edges)
    return _count(values, edges, hi - lo, False), edges


def _histogram_edges(a: np.ndarray, bins: np.ndarray, range=None):    # noqa: A002 - NumPy's name
    """(counts, bins) for an array of edges: the values in [bins[k], bins[k + 1]) (the last
    bin closed), by NumPy's searchsorted over the sorted data; `range` plays no part."""
    if bins.ndim != 1:
        raise ValueError("`bins` must be 1d, when an array")
    for k in builtins_range(bins.shape[0] - 1):
        if bins[k] > bins[k + 1]:
            raise ValueError("`bins` must increase monotonically, when an array")
    nb = bins.shape[0] - 1
    counts = np.zeros(max(nb, 0), dtype=np.int64)
    if nb <= 0:
        return counts, bins
    values = np.sort(a.ravel())
    below = np.searchsorted(values, bins[0])
    for k in builtins_range(nb):
        if k == nb - 1:
            upper = np.searchsorted(values, bins[k + 1], side="right")
        else:
            upper = np.searchsorted(values, bins[k + 1])
        counts[k] = upper - below
        below = upper
    return counts, bins


def histogram_density(a: np.ndarray, bins=10, range=None):    # noqa: A002 - NumPy's name
    """``histogram(..., density=True)``: counts / bin widths / total (NaN for no data, as
    NumPy's 0/0)."""
    counts, edges = histogram(a, bins, range)
    return _density(counts, edges), edges


def _histogram_density_edges(a: np.ndarray, bins: np.ndarray, range=None):    # noqa: A002
    counts, edges = _histogram_edges(a, bins, range)
    return _density(counts, edges), edges


def _density(counts, edges):
    widths = (edges[1:] - edges[:-1]).astype(np.float64)
    return counts / widths / counts.sum()


def _not_finite(lo, hi, supplied) -> None:
    """NumPy's ValueError for a range that is not finite, with its numbers where constant
    text can spell them (NaN data, infinities at both ends)."""
    if supplied:
        if lo == -math.inf and hi == math.inf:
            raise ValueError("supplied range of [-inf, inf] is not finite")
        raise ValueError("supplied range is not finite")
    if lo != lo and hi != hi:
        raise ValueError("autodetected range of [nan, nan] is not finite")
    if lo == -math.inf and hi == math.inf:
        raise ValueError("autodetected range of [-inf, inf] is not finite")
    raise ValueError("autodetected range is not finite")


def _check_edges(edges) -> None:
    n = edges.shape[0] - 1
    for i in range(n):
        raise_if(not edges[i] < edges[i + 1], ValueError,
                 "Too many bins for data range. Cannot create %d finite-sized bins.", n)


def _fill_edges(edges, first, last) -> None:
    """np.linspace(first, last, len(edges)) computed in the type of `first` and `last`,
    stored into `edges`. As NumPy, the indices are first stored into the edges' own type (its
    ``arange(num, dtype=dt)``): an int variable next to a float32 would widen to float64."""
    div = edges.shape[0] - 1
    for i in range(div + 1):
        edges[i] = i
    delta = last - first
    step = delta / edges[div]
    for i in range(div):
        if step == 0:
            edges[i] = edges[i] / edges[div] * delta + first
        else:
            edges[i] = edges[i] * step + first
    edges[div] = last


def _count(values, edges, norm, wide):
    """NumPy's uniform-bin counting: the index (x - first) / norm * bins, moved by one where
    it disagrees with the edges (rounding near an edge); the last edge belongs to the last
    bin. `wide`: NumPy divides by a float64 `norm` (a given range), else in the data's type."""
    bins = edges.shape[0] - 1
    counts = np.zeros(bins, dtype=np.int64)
    first = edges[0]
    last = edges[bins]
    scale = np.empty(1, dtype=values.dtype)
    scale[0] = bins                     # the bin count in the data's type, as NumPy scales
    for i in range(values.shape[0]):
        x = values[i]
        if x >= first and x <= last:
            if wide:
                k = int(float(x - first) / norm * bins)
            else:
                k = int((x - first) / norm * scale[0])
            if k == bins:
                k -= 1
            if x < edges[k]:
                k -= 1
            elif x >= edges[k + 1] and k != bins - 1:
                k += 1
            counts[k] += 1
    return counts


def digitize(x: np.ndarray, bins: np.ndarray, right=False):
    """The index of the bin of each element of `x` (NumPy's np.digitize)."""
    flat = x.ravel()
    out = np.empty(flat.shape[0], dtype=np.int64)
    mono = _monotonicity(bins)
    for i in range(flat.shape[0]):
        out[i] = _bin_of(flat[i], bins, right, mono)
    return out.reshape(x.shape)


def _digitize_scalar(x, bins, right=False):
    return _bin_of(x, bins, right, _monotonicity(bins))


def _bin_of(v, bins, right, mono):
    n = bins.shape[0]
    if mono == -1:
        return n - _search_reversed(bins, v, not right)
    return _search(bins, v, not right)


def _monotonicity(bins):
    """1 for increasing bins, -1 for decreasing ones, as NumPy's check_array_monotonic
    decides (ties allowed; a first step that is not an increase, a NaN included, means
    decreasing); ValueError when neither."""
    n = bins.shape[0]
    i = 1
    while i < n and bins[i] == bins[0]:
        i += 1
    if i >= n:
        return 1
    if bins[i - 1] < bins[i]:
        for k in range(i + 1, n):
            if bins[k - 1] > bins[k]:
                raise ValueError("bins must be monotonically increasing or decreasing")
        return 1
    for k in range(i + 1, n):
        if bins[k - 1] < bins[k]:
            raise ValueError("bins must be monotonically increasing or decreasing")
    return -1


def _after(x, y, right):
    """Whether a search for y moves past x: x < y (side left) or x <= y (side right), NaN
    sorting last."""
    if right:
        return not (y < x or (x != x and y == y))
    return x < y or (y != y and x == x)


def _search(a, v, right):
    """np.searchsorted(a, v, side) for the increasing 1-d `a`."""
    lo = 0
    hi = a.shape[0]
    while lo < hi:
        mid = (lo + hi) // 2
        if _after(a[mid], v, right):
            lo = mid + 1
        else:
            hi = mid
    return lo


def _search_reversed(a, v, right):
    """np.searchsorted(a[::-1], v, side) for the decreasing 1-d `a`."""
    n = a.shape[0]
    lo = 0
    hi = n
    while lo < hi:
        mid = (lo + hi) // 2
        if _after(a[n - 1 - mid], v, right):
            lo = mid + 1
        else:
            hi = mid
    return lo


def average(a: np.ndarray, axis=None, weights=None):
    """The mean of all elements (with `weights`: `_average_weighted`; a constant axis:
    axis_stats.py)."""
    return a.mean()


def _average_weighted(a: np.ndarray, axis=None, weights: np.ndarray = None):
    """The weighted mean Σ a·w / Σ w, in NumPy's result type (float64 for int arrays)."""
    if a.ndim != weights.ndim:
        raise TypeError("Axis must be specified when shapes of a and weights differ.")
    for k in range(a.ndim):
        if a.shape[k] != weights.shape[k]:
            raise TypeError("Axis must be specified when shapes of a and weights differ.")
    products = (a * 1.0) * weights
    total = weights.astype(products.dtype).sum()
    if total == 0.0:
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    return products.sum() / total


# the function to call when the named parameter holds a scalar, or an array (numpy_lib_call;
# `weights is None` does not compile when `weights` is an array)
SCALAR_FORMS = {"digitize": ("x", _digitize_scalar)}
ARRAY_FORMS = {"bincount": ("weights", _bincount_weighted), "average": ("weights", _average_weighted),
               "histogram": ("bins", _histogram_edges), "histogram_density": ("bins", _histogram_density_edges)}
