#include <string.h>
#include "bench.h"

/* kernels_workloads.jacobi2d: `steps` Jacobi sweeps of the 2-D heat equation, border fixed.
 * u and v are two (n, m) buffers; returns the one holding the last sweep. */
static double *jacobi2d(const double *a, double *u, double *v, int64_t n, int64_t m, int64_t steps) {
    memcpy(u, a, sizeof(double) * n * m);
    memcpy(v, a, sizeof(double) * n * m);
    for (int64_t t = 0; t < steps; t++) {
        for (int64_t i = 1; i < n - 1; i++)
            for (int64_t j = 1; j < m - 1; j++)
                v[i * m + j] = 0.25 * (u[(i - 1) * m + j] + u[(i + 1) * m + j] + u[i * m + j - 1] + u[i * m + j + 1]);
        double *w = u;
        u = v;
        v = w;
    }
    return u;
}

double bench_jacobi2d(const double *a, double *u, double *v, int64_t n, int64_t m, int64_t steps, int reps,
                      double *check) {
    double *res = u;
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        const double *p = a;
        LAUNDER(p);
        res = jacobi2d(p, u, v, n, m, steps);
        __asm__ volatile("" ::: "memory");
    }
    double t1 = bench_now();
    double s = 0.0;
    for (int64_t i = 0; i < n * m; i++) s += res[i] * (double)(i % 5 + 1);
    *check = s;
    return (t1 - t0) / reps;
}
