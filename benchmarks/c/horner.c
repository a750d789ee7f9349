#include "bench.h"

/* kernels_workloads.horner: a polynomial (coefficients highest first) at every point, Horner's rule. */
static void horner(const double *c, int64_t m, const double *x, double *out, int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        double xi = x[i], acc = c[0];
        for (int64_t k = 1; k < m; k++) acc = acc * xi + c[k];
        out[i] = acc;
    }
}

double bench_horner(const double *c, int64_t m, const double *x, double *out, int64_t n, int reps, double *check) {
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        const double *p = x;
        LAUNDER(p);
        horner(c, m, p, out, n);
        __asm__ volatile("" ::: "memory");
    }
    double t1 = bench_now();
    double s = 0.0;
    for (int64_t i = 0; i < n; i++) s += out[i] * (double)(i % 5 + 1);
    *check = s;
    return (t1 - t0) / reps;
}
