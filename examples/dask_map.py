"""A Dask map over compiled code: the function travels to the worker processes as its IR (no
source, no object code) and is compiled there once (script.pickling). Needs Dask
(`pip install "dask[distributed]"`); the same works with concurrent.futures.ProcessPoolExecutor."""

import numpy as np

import script


@script.script
def escape_time(c_re: script.f64[:], c_im: script.f64[:], max_iter: int) -> script.i64[:]:
    """Iterations of z -> z*z + c before |z| > 2, for each point of a row of the Mandelbrot set."""
    out = np.zeros(c_re.shape[0], np.int64)
    for k in range(c_re.shape[0]):
        zr, zi, n = 0.0, 0.0, 0
        while n < max_iter and zr * zr + zi * zi <= 4.0:
            zr, zi = zr * zr - zi * zi + c_re[k], 2.0 * zr * zi + c_im[k]
            n += 1
        out[k] = n
    return out


def main():
    from dask.distributed import Client, LocalCluster

    width, rows = 400, 64
    c_re = np.linspace(-2.0, 0.6, width)
    c_ims = [np.full(width, im) for im in np.linspace(-1.2, 1.2, rows)]
    local = [escape_time(c_re, c_im, 200) for c_im in c_ims]
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        futures = client.map(escape_time, [c_re] * rows, c_ims, [200] * rows)
        remote = client.gather(futures)
        workers = len(client.scheduler_info()["workers"])
    same = all(np.array_equal(a, b) for a, b in zip(local, remote))
    print(f"{rows} rows on {workers} Dask worker processes; same as local: {same}")
    print(f"points inside the set: {sum(int((r == 200).sum()) for r in remote)}")


if __name__ == "__main__":
    main()
