"""Real-world NumPy-style functions, the kind people decorate with numba.njit: statistics,
stencils, image filters, histograms, distance matrices, physics steps, Monte Carlo with the
Generator API (tests/test_realistic_np3.py runs each in CPython and compiled)."""

import numpy as np


# --- statistics and normalisation -----------------------------------------------------------

def weighted_column_means(m, w):
    """np.average along an axis with weights: one weight per row."""
    return np.average(m, axis=0, weights=w), np.average(m[:, 0], weights=w)


def standardize_rows(m):
    mu = m.mean(axis=1, keepdims=True)
    sd = m.std(axis=1, keepdims=True)
    sd = np.where(sd == 0.0, 1.0, sd)
    return (m - mu) / sd


def minmax_columns(m):
    lo = m.min(axis=0, keepdims=True)
    hi = m.max(axis=0, keepdims=True)
    span = hi - lo
    span[span == 0] = 1.0
    return (m - lo) / span


def softmax_rows(x):
    z = x - np.max(x, axis=1, keepdims=True)
    e = np.exp(z)
    return e / np.sum(e, axis=1, keepdims=True)


def running_stats(m):
    c = np.cumsum(m, axis=1)
    d = np.diff(m, axis=0)
    return c, d, np.cumsum(m, axis=0)[-1], np.diff(m[0])


def nan_column_means(m):
    mm = m.copy()
    mm[mm < -50.0] = np.nan
    return np.nanmean(mm, axis=0), np.nanmax(mm, axis=1), np.nansum(mm), np.nanstd(mm)


def masked_mean(a):
    good = a[np.isfinite(a)]
    if good.size == 0:
        return 0.0
    return float(good.mean())


def nan_fill_previous(a):
    out = a.copy()
    mask = np.isnan(out)
    for i in range(1, out.shape[0]):
        if mask[i]:
            out[i] = out[i - 1]
    return out


def medians_and_percentiles(m):
    return np.median(m, axis=0), np.percentile(m, 90.0), np.percentile(m[:, 0], [10.0, 50.0])


def row_norms(x):
    return np.linalg.norm(x, axis=1), np.linalg.norm(x, axis=0), np.linalg.norm(x)


def zscore_outliers(a, k):
    mu = a.mean()
    sd = a.std()
    if sd == 0.0:
        return np.zeros(0, dtype=np.int64)
    return np.nonzero(np.abs(a - mu) > k * sd)[0]


# --- sorting, searching, counting -----------------------------------------------------------

def rank_rows(m):
    order = np.argsort(m, axis=1)
    return order, np.sort(m, axis=0)


def top_k_indices(a, k):
    idx = np.argsort(a)[::-1][:k]
    return idx, a[idx]


def bin_index(edges, x):
    return np.searchsorted(edges, x, side="right") - 1, np.searchsorted(edges, x)


def value_counts(labels):
    vals, counts = np.unique(labels, return_counts=True)
    return vals, counts


def class_histogram(labels, k):
    return np.bincount(labels, minlength=k)


def image_histogram(img):
    """img: a uint8 image; its 256-bin histogram and CDF."""
    h = np.bincount(img.ravel(), minlength=256)
    cdf = np.cumsum(h)
    return h, cdf


def equalize(img):
    h = np.bincount(img.ravel(), minlength=256)
    cdf = np.cumsum(h).astype(np.float64)
    cdf = (cdf - cdf.min()) / max(cdf.max() - cdf.min(), 1.0) * 255.0
    lut = cdf.astype(np.uint8)
    return lut[img]


def hist_range(a, nbins):
    counts, edges = np.histogram(a, bins=nbins, range=(-10.0, 10.0))
    return counts, edges


def inverse_cdf_sample(p, u):
    """Sampling from a discrete distribution by inverting its CDF."""
    cdf = np.cumsum(p)
    cdf = cdf / cdf[-1]
    return np.searchsorted(cdf, u)


# --- element-wise and masks -----------------------------------------------------------------

def leaky_relu(x, alpha):
    return np.where(x > 0, x, alpha * x)


def clip_and_threshold(m, lo, hi):
    c = np.clip(m, lo, hi)
    m2 = m.copy()
    m2[m2 > hi] = hi
    return c, m2, int(np.count_nonzero(c == hi))


def replace_negative_columns(m):
    out = m.copy()
    neg = out.sum(axis=0) < 0
    out[:, neg] = 0.0
    return out


def select_rows(m, idx):
    return m[idx, :], m[:, idx[:2]], m[idx, idx]


def one_hot(labels, k):
    out = np.zeros((labels.shape[0], k), dtype=np.float64)
    out[np.arange(labels.shape[0]), labels] = 1.0
    return out


def one_hot_eye(labels, k):
    return np.eye(k)[labels]


def any_all_rows(m):
    return np.any(m > 2, axis=1), np.all(m > -3, axis=0), np.count_nonzero(m > 0, axis=0)


# --- creation, dtype, layout ----------------------------------------------------------------

def gaussian_kernel(n, sigma):
    x = np.linspace(-1.0, 1.0, n)
    xx, yy = np.meshgrid(x, x)
    k = np.exp(-(xx ** 2 + yy ** 2) / (2.0 * sigma ** 2))
    return k / k.sum()


def float_grid(start, stop, step):
    xs = np.arange(start, stop, step)
    return xs, np.outer(xs, xs[:3])


def quantize_image(img):
    """float image in [0, 1] -> uint8, and back to float32."""
    q = (np.clip(img, 0.0, 1.0) * 255.0).round().astype(np.uint8)
    back = q.astype(np.float32) / np.float32(255.0)
    return q, back


def like_with_dtype(a):
    z = np.zeros_like(a, dtype=np.int32)
    e = np.empty_like(a, dtype=np.float32)
    e[...] = 1.5
    f = np.full_like(a, 7)
    return z, e, f


def reversed_views(m):
    return m[::-1], m[:, ::-1], m[::-2, 1::2].copy(), m[-1::-1, 0]


def volume_stats(v):
    """3-D arrays: per-slice means and a 6-neighbour Laplacian."""
    means = v.mean(axis=2)
    lap = np.zeros_like(v)
    lap[1:-1, 1:-1, 1:-1] = (v[:-2, 1:-1, 1:-1] + v[2:, 1:-1, 1:-1] + v[1:-1, :-2, 1:-1]
                             + v[1:-1, 2:, 1:-1] + v[1:-1, 1:-1, :-2] + v[1:-1, 1:-1, 2:]
                             - 6.0 * v[1:-1, 1:-1, 1:-1])
    return means, lap, v.sum(axis=(0, 1))


def volume_loop(v):
    nx, ny, nz = v.shape
    out = np.zeros((nx, ny), dtype=v.dtype)
    for i in range(nx):
        for j in range(ny):
            acc = 0.0
            for k in range(nz):
                acc += v[i, j, k] * v[i, j, k]
            out[i, j] = acc
    return out


def int32_accumulate(a):
    b = a.astype(np.int32)
    s = np.zeros(4, dtype=np.int32)
    for i in range(b.shape[0]):
        s[i % 4] += b[i] * 3
    return s, b.sum(), (b * b).dtype == np.int32


def float32_dynamics(x, steps):
    x = x.astype(np.float32)
    v = np.zeros_like(x)
    dt = np.float32(0.01)
    for _ in range(steps):
        a = -x
        v += dt * a
        x += dt * v
    return x, v


def padded(a):
    return np.pad(a, 2), np.pad(a, (1, 3), mode="edge")


def padded_2d(m):
    return np.pad(m, 1)


# --- signal processing ----------------------------------------------------------------------

def smooth_signal(x, w):
    k = np.ones(w) / w
    return np.convolve(x, k, mode="same"), np.convolve(x, k, mode="valid")


def resample(x, y, n):
    xs = np.linspace(x[0], x[-1], n)
    return np.interp(xs, x, y)


def area_under(y, dx):
    return np.trapezoid(y, dx=dx), np.trapezoid(y, x=np.cumsum(np.ones_like(y)))


def circular_shift(m, k):
    return np.roll(m, k, axis=1), np.roll(m, -k, axis=0), np.roll(m[0], k)


def moving_average_cumsum(x, w):
    c = np.cumsum(np.concatenate((np.zeros(1), x)))
    return (c[w:] - c[:-w]) / w


def autocorr(x, maxlag):
    x = x - x.mean()
    n = x.shape[0]
    out = np.empty(maxlag)
    d = np.dot(x, x)
    for lag in range(maxlag):
        out[lag] = np.dot(x[:n - lag], x[lag:]) / d if d != 0.0 else 0.0
    return out


# --- joining --------------------------------------------------------------------------------

def build_design(x):
    ones = np.ones_like(x)
    X = np.stack((ones, x, x * x), axis=1)
    return X, np.vstack((x, x)), np.hstack((x, ones)), np.concatenate((X, X), axis=0)


def column_stack_like(a, b):
    return np.stack([a, b]), np.stack([a, b], axis=-1)


# --- linear algebra -------------------------------------------------------------------------

def linreg(x, y):
    X = np.column_stack((np.ones_like(x), x))
    beta = np.linalg.solve(X.T @ X, X.T @ y)
    resid = y - X @ beta
    return beta, float(resid @ resid)


def power_iteration(a, iters):
    v = np.ones(a.shape[0])
    lam = 0.0
    for _ in range(iters):
        w = a @ v
        nrm = np.linalg.norm(w)
        if nrm == 0.0:
            break
        v = w / nrm
        lam = v @ (a @ v)
    return lam, v


def pairwise_dist(X):
    diff = X[:, None, :] - X[None, :, :]
    return np.sqrt((diff ** 2).sum(axis=-1))


def pairwise_dist_dot(X):
    sq = (X * X).sum(axis=1)
    d2 = sq[:, None] + sq[None, :] - 2.0 * X @ X.T
    return np.sqrt(np.maximum(d2, 0.0))


def nearest_centroid(X, C):
    d = ((X[:, None, :] - C[None, :, :]) ** 2).sum(axis=2)
    return np.argmin(d, axis=1)


# --- physics and images ---------------------------------------------------------------------

def nbody_step(pos, vel, mass, dt):
    n = pos.shape[0]
    acc = np.zeros_like(pos)
    for i in range(n):
        d = pos - pos[i]
        r2 = (d * d).sum(axis=1) + 1e-3
        inv = mass / (r2 * np.sqrt(r2))
        inv[i] = 0.0
        acc[i] = (d * inv[:, None]).sum(axis=0)
    vel = vel + dt * acc
    return pos + dt * vel, vel


def heat_step(u, alpha, steps):
    u = u.copy()
    for _ in range(steps):
        u[1:-1, 1:-1] = u[1:-1, 1:-1] + alpha * (
            u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2] - 4.0 * u[1:-1, 1:-1])
    return u


def sobel(img):
    gx = np.zeros_like(img)
    gy = np.zeros_like(img)
    gx[1:-1, 1:-1] = (img[:-2, 2:] + 2 * img[1:-1, 2:] + img[2:, 2:]
                      - img[:-2, :-2] - 2 * img[1:-1, :-2] - img[2:, :-2])
    gy[1:-1, 1:-1] = (img[2:, :-2] + 2 * img[2:, 1:-1] + img[2:, 2:]
                      - img[:-2, :-2] - 2 * img[:-2, 1:-1] - img[:-2, 2:])
    return np.hypot(gx, gy)


def box_blur_uint8(img):
    f = img.astype(np.int32)
    out = f.copy()
    out[1:-1, 1:-1] = (f[:-2, :-2] + f[:-2, 1:-1] + f[:-2, 2:] + f[1:-1, :-2] + f[1:-1, 1:-1]
                       + f[1:-1, 2:] + f[2:, :-2] + f[2:, 1:-1] + f[2:, 2:]) // 9
    return out.astype(np.uint8)


def threshold_image(img, t):
    out = np.zeros(img.shape, dtype=np.uint8)
    out[img > t] = 255
    return out, int((img > t).sum())


# --- Monte Carlo with the Generator API (statistics checked, not the stream) ----------------

def mc_pi(n, seed):
    rng = np.random.default_rng(seed)
    x = rng.random(n)
    y = rng.random(n)
    return 4.0 * np.mean(x * x + y * y <= 1.0)


def random_walks(n, steps, seed):
    rng = np.random.default_rng(seed)
    s = rng.standard_normal((n, steps))
    return np.cumsum(s, axis=1)


def bootstrap_means(a, reps, seed):
    rng = np.random.default_rng(seed)
    out = np.empty(reps)
    n = a.shape[0]
    for r in range(reps):
        idx = rng.integers(0, n, size=n)
        out[r] = a[idx].mean()
    return out


def noisy_samples(n, seed):
    rng = np.random.default_rng(seed)
    return rng.normal(2.0, 0.5, size=n), rng.uniform(-1.0, 1.0, size=(n, 2)), rng.integers(5, size=n)


def shuffled(a, seed):
    rng = np.random.default_rng(seed)
    b = a.copy()
    rng.shuffle(b)
    return b


def sample_without_replacement(n, k, seed):
    rng = np.random.default_rng(seed)
    return rng.choice(n, size=k, replace=False), rng.choice(n, size=k)


def metropolis(n, seed):
    """Random-walk Metropolis sampling a standard normal, scalar draws."""
    rng = np.random.default_rng(seed)
    x = 0.0
    out = np.empty(n)
    for i in range(n):
        prop = x + rng.normal(0.0, 1.0)
        if rng.random() < np.exp(0.5 * (x * x - prop * prop)):
            x = prop
        out[i] = x
    return out


# --- a second batch: more of what kernels written for numba use ------------------------------

def kmeans_step(X, C):
    d = ((X[:, None, :] - C[None, :, :]) ** 2).sum(axis=2)
    labels = np.argmin(d, axis=1)
    newC = C.copy()
    for k in range(C.shape[0]):
        members = X[labels == k]
        if members.shape[0] > 0:
            newC[k] = members.mean(axis=0)
    return labels, newC


def top_k_partition(a, k):
    idx = np.argpartition(a, -k)[-k:]
    return np.sort(a[idx]), np.sort(np.partition(a, k)[:k])


def diff_prepend(a):
    return np.diff(a, prepend=0.0), np.diff(a, append=a[-1]), np.diff(a, n=2)


def pair_indices(n):
    i, j = np.triu_indices(n, k=1)
    r, c = np.tril_indices(n)
    return i, j, r, c


def pair_distances_triu(X):
    i, j = np.triu_indices(X.shape[0], 1)
    d = X[i] - X[j]
    return np.sqrt((d * d).sum(axis=1))


def membership(a, b):
    return np.isin(a, b), a[np.isin(a, b, invert=True)]


def floyd_warshall(w):
    d = w.copy()
    n = d.shape[0]
    for k in range(n):
        d = np.minimum(d, d[:, k:k + 1] + d[k:k + 1, :])
    return d


def floyd_warshall_inf(n, edges):
    d = np.full((n, n), np.inf)
    np.fill_diagonal(d, 0.0)
    for e in range(edges.shape[0]):
        d[int(edges[e, 0]), int(edges[e, 1])] = edges[e, 2]
    for k in range(n):
        for i in range(n):
            for j in range(n):
                if d[i, k] + d[k, j] < d[i, j]:
                    d[i, j] = d[i, k] + d[k, j]
    return d


def histogram_edges(a, edges):
    counts, _ = np.histogram(a, bins=edges)
    dens, e2 = np.histogram(a, bins=5, density=True)
    return counts, dens, e2


def correlation(x, y):
    return np.corrcoef(x, y)[0, 1], np.cov(x, y)


def column_stats(m):
    return m.std(axis=0, ddof=1), np.ptp(m, axis=0), np.median(m, axis=1), np.var(m, axis=1)


def labels_inverse(a):
    vals, inv = np.unique(a, return_inverse=True)
    return vals, inv


def masks_logic(a, lo, hi):
    m = np.logical_and(a > lo, a < hi) | np.isnan(a)
    return m, np.logical_not(m).sum(), np.where(m)[0], np.mean(m)


def rounding(a):
    return np.round(a, 2), np.floor(a).astype(np.int64), np.ceil(a).astype(np.int32), np.rint(a), np.trunc(a)


def int_ops(a, b):
    return np.floor_divide(a, b), np.mod(a, b), np.abs(a), np.sign(a), a // 3, a % 3, np.maximum(a, b)


def spaces(n):
    x, step = np.linspace(0.0, 1.0, n, endpoint=False, retstep=True)
    return x, step, np.logspace(0.0, 2.0, n), np.arange(n)[::-1], np.geomspace(1.0, 1000.0, 4)


def ising_energy(spins):
    """Periodic nearest-neighbour energy of a 2-D spin lattice."""
    return -float(np.sum(spins * (np.roll(spins, 1, axis=0) + np.roll(spins, 1, axis=1))))


def ising_sweep(n, beta, seed):
    rng = np.random.default_rng(seed)
    s = rng.choice([-1, 1], size=(n, n))
    for _ in range(n * n):
        i = rng.integers(0, n)
        j = rng.integers(0, n)
        nb = s[(i + 1) % n, j] + s[(i - 1) % n, j] + s[i, (j + 1) % n] + s[i, (j - 1) % n]
        dE = 2 * s[i, j] * nb
        if dE <= 0 or rng.random() < np.exp(-beta * dE):
            s[i, j] = -s[i, j]
    return s


def ndindex_sum(m):
    total = 0.0
    for idx in np.ndindex(m.shape):
        total += m[idx] * (idx[0] + 1)
    return total


def rows_loop(m):
    out = []
    for row in m:
        out.append(float(row.max() - row.min()))
    return np.array(out)


def zip_arrays(a, b):
    acc = 0.0
    for x, y in zip(a, b):
        acc += x * y
    return acc, np.shape(a), np.size(a), a.size, a.ndim


def row_mask_update(m):
    out = m.copy()
    out[out[:, 0] > 0] *= 2.0
    out[:, 1][out[:, 1] < 0] = 0.0
    return out, m[m[:, 0] > 0], m[m[:, 0] > 0, 1:]


def clip_array_bounds(a, lo, hi):
    return np.clip(a, lo, hi), np.minimum(np.maximum(a, lo), hi)


def tiles_2d(a):
    return np.tile(a, (2, 3)), np.repeat(a, 2, axis=0), np.ascontiguousarray(a.T)


def mandelbrot(w, h, iters):
    out = np.zeros((h, w), dtype=np.int32)
    for py in range(h):
        for px in range(w):
            c = complex(-2.0 + 3.0 * px / w, -1.0 + 2.0 * py / h)
            z = 0j
            n = 0
            while abs(z) <= 2.0 and n < iters:
                z = z * z + c
                n += 1
            out[py, px] = n
    return out


def nan_quantiles(a):
    b = a.copy()
    b[b > 50.0] = np.nan
    return np.nanmedian(b), np.nanpercentile(b, 75.0), np.nanmin(b), np.nanargmax(b)


def lstsq_fit(x, y):
    A = np.vstack([x, np.ones(len(x))]).T
    sol, res, rank, sv = np.linalg.lstsq(A, y, rcond=None)
    return sol, rank


def cumulative_int32(a):
    b = a.astype(np.int32)
    return np.cumsum(b), np.cumprod(b[:4]), b.sum(axis=0), np.max(b), b.mean()


def argsort_desc(a):
    return np.argsort(-a, kind="stable"), np.sort(a)[::-1], np.argmax(a), np.argmin(a)


def dtype_mix_arrays(a):
    f = a.astype(np.float32)
    g = f * 2 + 1
    h = np.sqrt(np.abs(g))
    return g, h, h.dtype == np.float32, float(f.sum()), np.float32(1.5) * f


def float32_scalar_by_int(a):
    """Known difference: a float32 scalar divided by an int value (not a literal) is
    float64 in compiled code, float32 in NumPy (NEP 50 takes Python ints as weak)."""
    f = a.astype(np.float32)
    return f.sum() / f.size
