"""Real-world NumPy functions, fourth corpus: signal processing, 2-d image operations,
statistics, linear algebra, geometry, construction, boolean logic, finite differences,
integration, Monte Carlo, fancy indexing, in-place updates and dtype handling, written as
people write them for numba.njit, with and without explicit loops
(tests/test_realistic_np4.py runs each in CPython and compiled)."""

import numpy as np


# --- signal processing ------------------------------------------------------------------------

def moving_average_valid(x, w):
    return np.convolve(x, np.ones(w) / w, mode="valid")


def moving_average_same(x, w):
    return np.convolve(x, np.ones(w) / w, mode="same")


def moving_average_cumsum(x, w):
    c = np.cumsum(np.concatenate((np.zeros(1), x)))
    return (c[w:] - c[:-w]) / w


def xcorr_lag(x, y):
    c = np.correlate(x, y, mode="full")
    return int(np.argmax(c)) - (len(y) - 1)


def detrend_linear(y):
    t = np.arange(len(y), dtype=np.float64)
    p = np.polyfit(t, y, 1)
    return y - np.polyval(p, t)


def ema(x, alpha):
    out = np.empty_like(x)
    out[0] = x[0]
    for i in range(1, x.shape[0]):
        out[i] = alpha * x[i] + (1.0 - alpha) * out[i - 1]
    return out


def rms_envelope(x, w):
    return np.sqrt(np.convolve(x ** 2, np.ones(w), mode="same") / w)


def zero_crossings(x):
    return np.nonzero(np.diff(np.sign(x)))[0]


def find_peaks_loop(x, thresh):
    peaks = []
    for i in range(1, len(x) - 1):
        if x[i] > x[i - 1] and x[i] >= x[i + 1] and x[i] > thresh:
            peaks.append(i)
    return np.array(peaks, dtype=np.int64)


def fir_filter_loop(x, h):
    n = x.shape[0]
    m = h.shape[0]
    y = np.zeros(n)
    for i in range(n):
        acc = 0.0
        for k in range(m):
            if i - k >= 0:
                acc += h[k] * x[i - k]
        y[i] = acc
    return y


def dft_magnitude(x):
    n = x.shape[0]
    k = np.arange(n)
    out = np.zeros(n)
    for f in range(n):
        s = np.sum(x * np.exp(-2j * np.pi * f * k / n))
        out[f] = np.abs(s)
    return out


def dft_matrix(x):
    n = x.shape[0]
    k = np.arange(n)
    w = np.exp(-2j * np.pi * np.outer(k, k) / n)
    return w @ x


def hann_window(n):
    return 0.5 - 0.5 * np.cos(2.0 * np.pi * np.arange(n) / (n - 1))


def windowed_energy(x, n):
    w = np.hanning(n)
    frames = len(x) // n
    e = np.zeros(frames)
    for f in range(frames):
        seg = x[f * n:(f + 1) * n] * w
        e[f] = np.dot(seg, seg)
    return e


def second_derivative(x, dx):
    return np.diff(x, n=2) / dx ** 2


def normalized_xcorr(x, y):
    xz = (x - x.mean()) / x.std()
    yz = (y - y.mean()) / y.std()
    return np.correlate(xz, yz, mode="valid")[0] / len(x)


def median_filter_1d(x, k):
    h = k // 2
    p = np.pad(x, h, mode="edge")
    out = np.empty_like(x)
    for i in range(len(x)):
        out[i] = np.median(p[i:i + k])
    return out


# --- image-like 2-d operations -------------------------------------------------------------------

def box_blur_slices(img):
    out = np.zeros_like(img)
    out[1:-1, 1:-1] = (img[:-2, :-2] + img[:-2, 1:-1] + img[:-2, 2:]
                       + img[1:-1, :-2] + img[1:-1, 1:-1] + img[1:-1, 2:]
                       + img[2:, :-2] + img[2:, 1:-1] + img[2:, 2:]) / 9.0
    return out


def sobel_magnitude(img):
    gx = (img[:-2, 2:] + 2 * img[1:-1, 2:] + img[2:, 2:]) - (img[:-2, :-2] + 2 * img[1:-1, :-2] + img[2:, :-2])
    gy = (img[2:, :-2] + 2 * img[2:, 1:-1] + img[2:, 2:]) - (img[:-2, :-2] + 2 * img[:-2, 1:-1] + img[:-2, 2:])
    return np.hypot(gx, gy), np.degrees(np.arctan2(gy, gx))


def padded_blur_loop(img):
    p = np.pad(img, 1, mode="edge")
    h, w = img.shape
    out = np.empty((h, w))
    for i in range(h):
        for j in range(w):
            out[i, j] = p[i:i + 3, j:j + 3].mean()
    return out


def orientations(img):
    return np.rot90(img), np.rot90(img, 2), np.flip(img, axis=0), np.fliplr(img), img.T.copy(), np.transpose(img)


def threshold_mask(img, t):
    return np.where(img > t, 1.0, 0.0), (img > t).sum()


def clip_normalize(img):
    lo = img.min()
    hi = img.max()
    if hi == lo:
        return np.zeros_like(img)
    return np.clip((img - lo) / (hi - lo), 0.0, 1.0)


def gamma_float32(img, g):
    x = img.astype(np.float32) / np.float32(255.0)
    return x ** np.float32(g)


def integral_image(img):
    return img.cumsum(axis=0).cumsum(axis=1)


def box_sum_integral(img, r):
    s = np.zeros((img.shape[0] + 1, img.shape[1] + 1))
    s[1:, 1:] = img.cumsum(0).cumsum(1)
    h, w = img.shape
    out = np.zeros((h - r + 1, w - r + 1))
    for i in range(h - r + 1):
        for j in range(w - r + 1):
            out[i, j] = s[i + r, j + r] - s[i, j + r] - s[i + r, j] + s[i, j]
    return out


def local_maxima(img):
    h, w = img.shape
    out = np.zeros((h, w), dtype=np.bool_)
    for i in range(1, h - 1):
        for j in range(1, w - 1):
            v = img[i, j]
            if v == img[i - 1:i + 2, j - 1:j + 2].max() and v > 0:
                out[i, j] = True
    return out


def binary_erode(mask):
    h, w = mask.shape
    out = np.zeros_like(mask)
    for i in range(1, h - 1):
        for j in range(1, w - 1):
            out[i, j] = np.all(mask[i - 1:i + 2, j - 1:j + 2])
    return out


def downsample_2x2(img):
    h = img.shape[0] // 2 * 2
    w = img.shape[1] // 2 * 2
    x = img[:h, :w]
    return (x[0::2, 0::2] + x[1::2, 0::2] + x[0::2, 1::2] + x[1::2, 1::2]) / 4.0


def downsample_reshape(img):
    h, w = img.shape
    return img.reshape(h // 2, 2, w // 2, 2).mean(axis=(1, 3))


def rgb_to_gray(rgb):
    return 0.299 * rgb[..., 0] + 0.587 * rgb[..., 1] + 0.114 * rgb[..., 2]


def rgb_to_gray_dot(rgb):
    return rgb @ np.array([0.299, 0.587, 0.114])


def crop_center(img, ch, cw):
    h, w = img.shape
    i0 = (h - ch) // 2
    j0 = (w - cw) // 2
    return img[i0:i0 + ch, j0:j0 + cw].copy()


def uint8_saturate(img, delta):
    return np.clip(img.astype(np.int32) + delta, 0, 255).astype(np.uint8)


def convolve2d_loop(img, k):
    kh, kw = k.shape
    h, w = img.shape
    out = np.zeros((h - kh + 1, w - kw + 1))
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            out[i, j] = np.sum(img[i:i + kh, j:j + kw] * k)
    return out


# --- statistics ----------------------------------------------------------------------------------

def column_quartiles(m):
    return np.percentile(m, [25, 50, 75], axis=0)


def row_quantiles(m):
    return np.quantile(m, 0.5, axis=1), np.quantile(m, [0.1, 0.9], axis=1), np.median(m, axis=1)


def sample_stats(x):
    return np.std(x, ddof=1), np.var(x, ddof=1), x.mean()


def corr_matrix(m):
    return np.corrcoef(m), np.corrcoef(m[0], m[1])


def cov_matrix(m):
    return np.cov(m.T), np.cov(m, rowvar=False), np.cov(m[:, 0], m[:, 1])


def zscores(m):
    return (m - m.mean(axis=0)) / m.std(axis=0, ddof=1)


def group_means(labels, values, k):
    sums = np.bincount(labels, weights=values, minlength=k)
    counts = np.bincount(labels, minlength=k)
    return sums / np.maximum(counts, 1)


def mode_of(a):
    vals, counts = np.unique(a, return_counts=True)
    return vals[np.argmax(counts)]


def lexsort_records(last, first):
    return np.lexsort((first, last))


def bucketize(edges, x):
    return np.searchsorted(edges, x, side="right") - 1, np.searchsorted(edges, x, side="left")


def rank_data(x):
    r = np.empty(len(x), dtype=np.int64)
    r[np.argsort(x, kind="stable")] = np.arange(len(x))
    return r, np.argsort(np.argsort(x, kind="stable"), kind="stable")


def mad(x):
    med = np.median(x)
    return np.median(np.abs(x - med))


def iqr_outliers(x):
    q1, q3 = np.percentile(x, [25, 75])
    iqr = q3 - q1
    return x[(x < q1 - 1.5 * iqr) | (x > q3 + 1.5 * iqr)]


def running_max(x):
    return np.maximum.accumulate(x), np.minimum.accumulate(x)


def skew_kurt(x):
    n = x.shape[0]
    m = x.mean()
    d = x - m
    m2 = (d ** 2).sum() / n
    m3 = (d ** 3).sum() / n
    m4 = (d ** 4).sum() / n
    return m3 / m2 ** 1.5, m4 / m2 ** 2 - 3.0


def ecdf(x):
    xs = np.sort(x)
    ys = np.arange(1, len(xs) + 1) / len(xs)
    return xs, ys


def hist2d_loop(x, y, nb):
    h = np.zeros((nb, nb), dtype=np.int64)
    xmin, xmax = x.min(), x.max()
    ymin, ymax = y.min(), y.max()
    for i in range(x.shape[0]):
        bx = int((x[i] - xmin) / (xmax - xmin + 1e-12) * nb)
        by = int((y[i] - ymin) / (ymax - ymin + 1e-12) * nb)
        h[min(bx, nb - 1), min(by, nb - 1)] += 1
    return h


def welford(x):
    mean = 0.0
    m2 = 0.0
    for i in range(x.size):
        d = x[i] - mean
        mean += d / (i + 1)
        m2 += d * (x[i] - mean)
    return mean, m2 / (x.size - 1)


# --- linear algebra ------------------------------------------------------------------------------

def solve_and_residual(a, b):
    x = np.linalg.solve(a, b)
    return x, np.linalg.norm(a @ x - b)


def inverse_identity(a):
    return np.linalg.inv(a) @ a


def det_trace(a):
    return np.linalg.det(a), np.trace(a), a.trace()


def vector_norms(x):
    return np.linalg.norm(x, 1), np.linalg.norm(x, np.inf), np.linalg.norm(x, ord=2), np.linalg.norm(x)


def sym_eigs(a):
    s = (a + a.T) / 2
    w, v = np.linalg.eigh(s)
    return w, np.abs(v[:, -1])


def general_eigvals(a):
    w = np.linalg.eigvals(a @ a.T)
    return np.sort(w.real)


def poly_lstsq(x, y, deg):
    A = np.vander(x, deg + 1)
    coef, res, rank, sv = np.linalg.lstsq(A, y, rcond=None)
    return coef, rank


def qr_solve(a, b):
    q, r = np.linalg.qr(a)
    return np.linalg.solve(r, q.T @ b)


def cholesky_solve(a, b):
    spd = a @ a.T + a.shape[0] * np.eye(a.shape[0])
    L = np.linalg.cholesky(spd)
    y = np.linalg.solve(L, b)
    return np.linalg.solve(L.T, y)


def gram_schmidt(a):
    n, k = a.shape
    q = np.zeros((n, k))
    for j in range(k):
        v = a[:, j].copy()
        for i in range(j):
            v -= np.dot(q[:, i], a[:, j]) * q[:, i]
        q[:, j] = v / np.linalg.norm(v)
    return q


def rank_one_update(a, u, v):
    return a + np.outer(u, v), a - 0.5 * np.outer(v, u)


def einsum_forms(a, b):
    return (np.einsum("ij,jk->ik", a, b), np.einsum("ii", a), np.einsum("ij->j", a),
            np.einsum("i,i->", a[0], b[:, 0]), np.einsum("ij,ij->i", a, b.T))


def cross_rows(p, q):
    return np.cross(p, q), np.cross(p[0], q[0])


def kron_blocks(a):
    return np.kron(np.eye(2), a), np.kron(a, np.ones((2, 2)))


def hat_matrix(x):
    return x @ np.linalg.inv(x.T @ x) @ x.T


def matrix_powers(a):
    return np.linalg.matrix_power(a, 3), np.linalg.matrix_power(a, 0)


def rotation_2d(theta):
    c = np.cos(theta)
    s = np.sin(theta)
    return np.array([[c, -s], [s, c]])


def diag_ops(a, v):
    return np.diag(np.diag(a)), np.diag(v) @ a, np.identity(a.shape[0], dtype=np.float32), np.eye(3, k=1)


def triangular_solve_loop(L, b):
    n = b.shape[0]
    x = np.zeros(n)
    for i in range(n):
        x[i] = (b[i] - L[i, :i] @ x[:i]) / L[i, i]
    return x


def conjugate_gradient(a, b, iters):
    spd = a @ a.T + a.shape[0] * np.eye(a.shape[0])
    x = np.zeros_like(b)
    r = b - spd @ x
    p = r.copy()
    rs = r @ r
    for _ in range(iters):
        ap = spd @ p
        alpha = rs / (p @ ap)
        x += alpha * p
        r -= alpha * ap
        rs_new = r @ r
        if np.sqrt(rs_new) < 1e-12:
            break
        p = r + (rs_new / rs) * p
        rs = rs_new
    return x


# --- geometry -------------------------------------------------------------------------------------

def pairwise_broadcast(a, b):
    d = a[:, None, :] - b[None, :, :]
    return np.sqrt((d ** 2).sum(axis=-1))


def nearest_neighbour(a, b):
    d = ((a[:, np.newaxis, :] - b[np.newaxis, :, :]) ** 2).sum(axis=2)
    return d.argmin(axis=1), d.min(axis=1)


def to_polar(x, y):
    return np.hypot(x, y), np.degrees(np.arctan2(y, x)), np.rad2deg(np.arctan2(y, x))


def polygon_area(x, y):
    return 0.5 * np.abs(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1)))


def rotate_points(p, theta):
    c, s = np.cos(theta), np.sin(theta)
    r = np.array([[c, -s], [s, c]])
    return p @ r.T


def bounding_box(p):
    lo = p.min(axis=0)
    hi = p.max(axis=0)
    return lo, hi, np.prod(hi - lo)


def angles_between(u, v):
    cos = np.sum(u * v, axis=1) / (np.linalg.norm(u, axis=1) * np.linalg.norm(v, axis=1))
    return np.arccos(np.clip(cos, -1.0, 1.0))


def haversine(lat1, lon1, lat2, lon2):
    lat1, lon1, lat2, lon2 = np.radians(lat1), np.radians(lon1), np.radians(lat2), np.radians(lon2)
    a = np.sin((lat2 - lat1) / 2) ** 2 + np.cos(lat1) * np.cos(lat2) * np.sin((lon2 - lon1) / 2) ** 2
    return 2 * 6371.0 * np.arcsin(np.sqrt(a))


def centroid_and_spread(p):
    c = p.mean(axis=0)
    return c, np.sqrt(((p - c) ** 2).sum(axis=1)).max()


# --- array construction -----------------------------------------------------------------------------

def grid_eval(n):
    x = np.linspace(0.0, 1.0, n)
    X, Y = np.meshgrid(x, x)
    return np.sin(np.pi * X) * np.cos(np.pi * Y)


def freq_axes(n):
    return np.logspace(0, 3, n), np.geomspace(1.0, 1000.0, n), np.linspace(0, 1, n, endpoint=False)


def filled(n, m):
    a = np.full((n, m), 7, dtype=np.int32)
    b = np.zeros_like(a, dtype=np.float32)
    c = np.empty_like(a)
    c[:] = 3
    d = np.ones((n,), dtype=np.uint8)
    return a, b, c, d, np.full(n, np.nan)


def stacking(a, b):
    return (np.stack((a, b)), np.stack((a, b), axis=1), np.column_stack((a, b)), np.hstack((a, b)),
            np.vstack((a, b)), np.concatenate((a[:, None], b[:, None]), axis=1))


def stacking_2d(m):
    return np.concatenate((m, m), axis=1), np.vstack([m, m[:1]]), np.hstack([m, m[:, :1]])


def repeat_tile(a):
    return np.repeat(a, 3), np.tile(a, 2), np.tile(a, (2, 1)), np.repeat(a[None, :], 2, axis=0)


def reshapes(a):
    m = a.reshape(2, -1)
    return a.reshape(-1), m, m.ravel(), m.flatten(), m.T.flatten(), m.reshape((-1, 2)).T.copy()


def arange_float(start, stop, step):
    return np.arange(start, stop, step), np.arange(5, dtype=np.float32), np.arange(2, 11, 3)


def conversions(x):
    return (x * 10).astype(np.int32), x.astype(np.float32), (x > 0).astype(np.int8), np.round(x).astype(int)


def index_grids(h, w):
    ii, jj = np.indices((h, w))
    return ii * w + jj


def mgrid_points(n):
    g = np.mgrid[0:n, 0:n]
    return g[0] + 10 * g[1]


def squeeze_column(m):
    col = m[:, :1]
    return np.squeeze(col), col.squeeze()


def array_from_loop(n):
    out = []
    for i in range(n):
        out.append(i * i)
    return np.array(out), np.asarray(out, dtype=np.float64)


# --- boolean logic -------------------------------------------------------------------------------

def any_all_axes(m):
    return np.any(m > 0, axis=0), np.all(m > -50, axis=1), (m > 0).any(), np.all(m != 0)


def count_positive(m):
    return np.count_nonzero(m > 0), np.count_nonzero(m > 0, axis=1), np.sum(m > 0, axis=0)


def argwhere_big(m, t):
    return np.argwhere(m > t), np.nonzero(m > t)


def closeness(a, b):
    return np.isclose(a, b), np.allclose(a, b), np.allclose(a, b, atol=1e-3), np.isclose(a, b, rtol=1e-3, atol=0.0)


def nan_handling(a):
    return (np.nan_to_num(a), np.nan_to_num(a, nan=-1.0, posinf=1e9, neginf=-1e9), np.isnan(a).sum(),
            np.isfinite(a).all(), np.nanmean(a), np.nanmax(a), np.nansum(a))


def nan_axis(m):
    return np.nanmean(m, axis=0), np.nanmax(m, axis=1), np.nanmin(m, axis=0), np.nansum(m, axis=1)


def select_piecewise(x):
    return np.select([x < 0, x < 1], [-x, x ** 2], default=1.0)


def where_chain(x):
    return np.where(x < 0, -1, np.where(x > 1, 1, 0))


def logical_ops(a, b):
    return np.logical_and(a > 0, b > 0), np.logical_or(a > 0, b > 0), np.logical_xor(a > 0, b > 0), np.logical_not(a > 0)


# --- cumulative ------------------------------------------------------------------------------------

def cumulative(m):
    return np.cumsum(m, axis=0), np.cumprod(m, axis=1), m.cumsum(), np.diff(m, n=2, axis=1)


def cumsum_int32(a):
    return np.cumsum(a, dtype=np.int32), a.cumsum(dtype=np.int64)


def drawdown(prices):
    peak = np.maximum.accumulate(prices)
    return (prices - peak) / peak, np.min((prices - peak) / peak)


# --- finite differences and PDE steps ----------------------------------------------------------

def heat_1d(u0, r, steps):
    u = u0.copy()
    for _ in range(steps):
        u[1:-1] += r * (u[2:] - 2 * u[1:-1] + u[:-2])
    return u


def heat_1d_loop(u0, r, steps):
    u = u0.copy()
    n = u.shape[0]
    new = u.copy()
    for _ in range(steps):
        for i in range(1, n - 1):
            new[i] = u[i] + r * (u[i + 1] - 2.0 * u[i] + u[i - 1])
        u, new = new, u
    return u


def jacobi_2d(u0, iters):
    u = u0.copy()
    for _ in range(iters):
        u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
    return u


def laplacian_5pt(u, h):
    lap = np.zeros_like(u)
    lap[1:-1, 1:-1] = (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * u[1:-1, 1:-1]) / h ** 2
    return lap


def gradient_1d(f, dx):
    return np.gradient(f), np.gradient(f, dx)


def gradient_2d(f):
    gy, gx = np.gradient(f)
    return gy, gx


def wave_1d(u0, c, steps):
    u_prev = u0.copy()
    u = u0.copy()
    for _ in range(steps):
        u_next = np.zeros_like(u)
        u_next[1:-1] = 2 * u[1:-1] - u_prev[1:-1] + c * c * (u[2:] - 2 * u[1:-1] + u[:-2])
        u_prev = u
        u = u_next
    return u


def advect_upwind(u0, c, steps):
    u = u0.copy()
    for _ in range(steps):
        u = u - c * (u - np.roll(u, 1))
    return u


def game_of_life(board, steps):
    b = board.copy()
    for _ in range(steps):
        n = np.zeros_like(b)
        n[1:-1, 1:-1] = (b[:-2, :-2] + b[:-2, 1:-1] + b[:-2, 2:] + b[1:-1, :-2] + b[1:-1, 2:]
                         + b[2:, :-2] + b[2:, 1:-1] + b[2:, 2:])
        b = ((n == 3) | ((b == 1) & (n == 2))).astype(b.dtype)
    return b


# --- integration and root finding ------------------------------------------------------------

def integrate_trapezoid(x):
    y = np.exp(-x ** 2)
    return np.trapezoid(y, x), np.trapezoid(y, dx=0.1)


def simpson(y, dx):
    return dx / 3.0 * (y[0] + y[-1] + 4.0 * y[1:-1:2].sum() + 2.0 * y[2:-1:2].sum())


def cumulative_trapezoid(y, dx):
    return np.concatenate((np.zeros(1), np.cumsum((y[1:] + y[:-1]) / 2.0 * dx)))


def bisect_poly(p, lo, hi):
    flo = np.polyval(p, lo)
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        fm = np.polyval(p, mid)
        if (fm < 0) == (flo < 0):
            lo = mid
            flo = fm
        else:
            hi = mid
    return 0.5 * (lo + hi)


def newton_poly(p, x0):
    dp = np.polyder(p)
    x = x0
    for _ in range(30):
        x = x - np.polyval(p, x) / np.polyval(dp, x)
    return x


def poly_roots_companion(p):
    return np.sort(np.roots(p).real)


# --- Monte Carlo --------------------------------------------------------------------------------

def mc_integral(n, seed):
    rng = np.random.default_rng(seed)
    x = rng.random(n)
    return np.mean(np.sqrt(1.0 - x ** 2)) * 4.0


def legacy_mc_pi(n, seed):
    np.random.seed(seed)
    x = np.random.rand(n)
    y = np.random.rand(n)
    return 4.0 * np.sum(x * x + y * y <= 1.0) / n


def random_walk_2d(n, seed):
    rng = np.random.default_rng(seed)
    steps = rng.normal(size=(n, 2))
    return steps.cumsum(axis=0)


def coin_flips(n, p, seed):
    rng = np.random.default_rng(seed)
    return rng.binomial(n, p, size=10)


def legacy_normal_stats(n, seed):
    np.random.seed(seed)
    x = np.random.normal(1.0, 2.0, n)
    return x.mean(), x.std()


def bootstrap_ci(a, reps, seed):
    rng = np.random.default_rng(seed)
    means = np.empty(reps)
    for r in range(reps):
        idx = rng.integers(0, len(a), len(a))
        means[r] = a[idx].mean()
    return np.percentile(means, [2.5, 97.5])


# --- fancy indexing ---------------------------------------------------------------------------------

def submatrix_ix(m, rows, cols):
    return m[np.ix_(rows, cols)]


def scatter_add(n, idx, vals):
    out = np.zeros(n)
    np.add.at(out, idx, vals)
    return out


def take_sorted_rows(m):
    order = np.argsort(m, axis=1)
    return np.take_along_axis(m, order, axis=1)


def argmax_gather(m):
    return m[np.arange(m.shape[0]), m.argmax(axis=1)]


def gather_scatter(a, idx):
    b = a.copy()
    b[idx] = a[idx] * 2
    return b, a[idx[::-1]]


def column_swap(m, i, j):
    out = m.copy()
    out[:, [i, j]] = out[:, [j, i]]
    return out


# --- in-place and out= -----------------------------------------------------------------------------

def ufunc_out(a, b):
    c = np.empty_like(a)
    np.add(a, b, out=c)
    np.multiply(c, 2.0, out=c)
    return c


def inplace_slices(a):
    b = a.copy()
    b[1:-1] += 0.5 * (a[2:] - a[:-2])
    b[::2] *= -1
    b[-1] -= b[0]
    return b


# --- dtype handling ----------------------------------------------------------------------------------

def float32_pipeline(x):
    y = x.astype(np.float32)
    z = y * 2 + 1
    return z, z.sum(), z.mean(), np.sqrt(np.abs(z)).dtype == np.float32


def int32_accumulate(a):
    acc = np.zeros(4, dtype=np.int32)
    for i in range(a.shape[0]):
        acc[i % 4] += a[i]
    return acc


def complex_ops(re, im):
    z = re + 1j * im
    return np.abs(z), np.angle(z), z.conj(), z.real * 2, z.imag, np.exp(1j * re)


def complex_roots_of_unity(n):
    k = np.arange(n)
    w = np.exp(2j * np.pi * k / n)
    return w, np.abs(w.sum()) < 1e-9


# --- scalars, shapes, validation ------------------------------------------------------------------

def scalars_from_arrays(a):
    return a.sum().item(), float(a.max()), int(np.argmax(a)), a.size, a.ndim


def shape_unpack(m):
    n, k = m.shape
    out = np.zeros((k, n))
    for i in range(n):
        for j in range(k):
            out[j, i] = m[i, j]
    return out


def require_matrix(m):
    if m.ndim != 2:
        raise ValueError("expected a 2-d array")
    if m.shape[0] != m.shape[1]:
        raise ValueError("expected a square matrix")
    return m.T @ m


def require_length(a, n):
    if a.size != n:
        raise ValueError("wrong length")
    return a.reshape(n, 1) * a


def normalize_rows_safe(m):
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return m / norms


def softmax_stable(x):
    e = np.exp(x - x.max())
    return e / e.sum()


def logsumexp_rows(m):
    mx = m.max(axis=1)
    return mx + np.log(np.exp(m - mx[:, None]).sum(axis=1))


def kmeans_assign(X, C):
    d = ((X[:, None, :] - C[None, :, :]) ** 2).sum(axis=2)
    labels = d.argmin(axis=1)
    newC = np.zeros_like(C)
    for k in range(C.shape[0]):
        members = X[labels == k]
        if members.shape[0] > 0:
            newC[k] = members.mean(axis=0)
        else:
            newC[k] = C[k]
    return labels, newC


def one_hot_eye(labels, k):
    return np.eye(k)[labels]


def confusion_matrix(y_true, y_pred, k):
    cm = np.zeros((k, k), dtype=np.int64)
    for t, p in zip(y_true, y_pred):
        cm[t, p] += 1
    return cm


# --- second batch: machine learning, ODEs, scalar helpers, random sampling ----------------------

def pca_project(x, k):
    xc = x - x.mean(axis=0)
    u, s, vt = np.linalg.svd(xc, full_matrices=False)
    return np.abs(xc @ vt[:k].T), s ** 2 / (x.shape[0] - 1)


def logistic_regression(x, y, lr, iters):
    w = np.zeros(x.shape[1])
    b = 0.0
    for _ in range(iters):
        z = x @ w + b
        pr = 1.0 / (1.0 + np.exp(-z))
        g = pr - y
        w -= lr * (x.T @ g) / x.shape[0]
        b -= lr * g.mean()
    return w, b


def top_k_desc(x, k):
    return np.argsort(-x)[:k], np.sort(x)[::-1][:k]


def reverse_cumsum(x):
    return x[::-1].cumsum()[::-1], np.cumsum(x[::-1])[::-1].copy()


def rounding_ops(x):
    return np.round(x, 2), np.floor(x).astype(np.int64), np.ceil(x), np.trunc(x), np.rint(x), np.fix(x)


def modular(a, b):
    return np.mod(a, b), np.fmod(a, b), np.remainder(a, b), np.floor_divide(a, b), a % b


def special_functions(x):
    ax = np.abs(x)
    return np.exp2(x), np.log1p(ax), np.expm1(x), np.log10(ax + 1), np.sinh(x), np.cosh(x), np.cbrt(x), np.log2(ax + 1)


def inf_handling(x):
    best = np.full_like(x, np.inf)
    best[x > 0] = x[x > 0]
    return best, np.isinf(best).sum(), np.isposinf(best), np.where(np.isinf(best), -1.0, best)


def literal_matrix():
    a = np.array([[1, 2, 3], [4, 5, 6]])
    b = np.array([[1.0, 0.5], [2, 3], [0, 1]])
    return a @ b, a.T.copy(), np.ascontiguousarray(a.T), a.dtype == np.int64


def range_stats(m):
    return m.max(axis=1) - m.min(axis=1), np.argmin(m, axis=0), np.ptp(m, axis=0)


def enumerate_rows(m):
    out = np.zeros(m.shape[0])
    for i, row in enumerate(m):
        out[i] = row.sum() * i
    return out


def roulette_select(weights, u):
    c = np.cumsum(weights)
    c /= c[-1]
    return np.searchsorted(c, u)


def legacy_sampling(n, seed):
    np.random.seed(seed)
    a = np.random.normal(0.0, 1.0, (n, 2))
    b = np.random.uniform(-1.0, 1.0, size=n)
    c = np.random.randint(0, 10, size=n)
    idx = np.arange(n)
    np.random.shuffle(idx)
    return a, b, c, idx, np.random.permutation(n), np.random.choice(n, 3)


def convergence_loop(a, tol):
    x = a.copy()
    it = 0
    while True:
        new = 0.5 * (x + a / x)
        it += 1
        if np.max(np.abs(new - x)) < tol or it > 100:
            return new, it
        x = new


def rk4_oscillator(y0, dt, steps):
    def f(y):
        return np.array([y[1], -y[0]])
    y = y0.copy()
    for _ in range(steps):
        k1 = f(y)
        k2 = f(y + 0.5 * dt * k1)
        k3 = f(y + 0.5 * dt * k2)
        k4 = f(y + dt * k3)
        y = y + dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)
    return y


def lotka_volterra(x0, y0, dt, steps):
    out = np.empty((steps + 1, 2))
    out[0] = (x0, y0)
    for t in range(steps):
        x, y = out[t]
        out[t + 1, 0] = x + dt * (1.1 * x - 0.4 * x * y)
        out[t + 1, 1] = y + dt * (0.1 * x * y - 0.4 * y)
    return out


def resample_interp(x, y, n):
    xs = np.linspace(x[0], x[-1], n)
    return xs, np.interp(xs, x, y)


def uint8_bits(img):
    return img & 0xF0, img >> 4, np.bitwise_xor(img, 255), np.invert(img), (img > 127).astype(np.uint8) * 255


def argmax_2d(m):
    i, j = np.unravel_index(np.argmax(m), m.shape)
    return i, j, m[i, j]


def pairs_sum(a):
    return a.reshape(-1, 2).sum(axis=1)


def peak_sign_changes(x):
    d = np.diff(np.sign(np.diff(x)))
    return np.where(d < 0)[0] + 1


def vander_comprehension(x, deg):
    return np.vstack([x ** i for i in range(deg)]).T


def list_of_scalars(xs):
    return np.array([np.sin(v) * v for v in xs]), np.sum([v * v for v in xs])


def clip_one_sided(x):
    return np.clip(x, 0, None), np.clip(x, None, 1.0), np.log(np.maximum(np.abs(x), 1e-12))


def change_points(labels):
    return np.count_nonzero(np.diff(labels)), np.flatnonzero(np.diff(labels)) + 1


def sliding_windows(x, w):
    v = np.lib.stride_tricks.sliding_window_view(x, w)
    return v.mean(axis=1)


def scalar_types(x):
    a = np.float64(x) * 2
    b = np.int64(3) + 4
    c = np.sqrt(np.float32(2.0))
    return a, b, c, np.iinfo(np.int32).max, np.finfo(np.float64).eps


def one_element_item(a):
    return a[:1].item(), a.reshape(-1)[0].item(), np.prod(np.array(a.shape))


def complex_arrays(n):
    z = np.zeros(n, dtype=np.complex128)
    z.real = np.arange(n)
    z.imag = -np.arange(n) * 0.5
    return z, np.real(z) + np.imag(z), np.conj(z) * z


def row_cumsum_last(m):
    return m.cumsum(axis=1)[:, -1], np.cumsum(np.ones(m.shape[0]))


def split_halves(x):
    a, b = np.split(x, 2)
    return a - b


def histogram_range(x, bins):
    h, edges = np.histogram(x, bins=bins, range=(-3.0, 3.0))
    return h, edges


def fft_power(x):
    f = np.fft.fft(x)
    return np.abs(f) ** 2


def sigmoid_grad(z):
    s = 1.0 / (1.0 + np.exp(-z))
    return s * (1.0 - s)


def normalize_columns_inplace(m):
    out = m.copy()
    out -= out.mean(axis=0)
    out /= out.std(axis=0)
    return out


def distance_matrix_loop(p):
    n = p.shape[0]
    d = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1, n):
            d[i, j] = d[j, i] = np.sqrt(np.sum((p[i] - p[j]) ** 2))
    return d


def batched_matmul(a, b):
    return np.einsum("bij,bjk->bik", a, b), a @ b
