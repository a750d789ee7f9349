#include <string.h>
#include "bench.h"

/* kernels_shapes.matvec_loops: y = a @ x, a row's sum over its columns, then stored. */
static void matvec_loops(const double *a, const double *x, double *y, int64_t n, int64_t m) {
    memset(y, 0, sizeof(double) * n);
    for (int64_t i = 0; i < n; i++) {
        double s = 0.0;
        for (int64_t j = 0; j < m; j++)
            s += a[i * m + j] * x[j];
        y[i] = s;
    }
}

double bench_matvec_loops(const double *a, const double *x, double *y, int64_t n, int64_t m,
                          int reps, double *check) {
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        const double *p = a;
        LAUNDER(p);
        matvec_loops(p, x, y, n, m);
        __asm__ volatile("" ::: "memory");
    }
    double t1 = bench_now();
    double s = 0.0;
    for (int64_t i = 0; i < n; i++) s += y[i];
    *check = s;
    return (t1 - t0) / reps;
}
