#include "bench.h"

/* kernels_classic.transpose: out (m, n) = a (n, m) transposed, written row by row. */
static void transpose(const double *a, double *out, int64_t n, int64_t m) {
    for (int64_t j = 0; j < m; j++)
        for (int64_t i = 0; i < n; i++)
            out[j * n + i] = a[i * m + j];
}

double bench_transpose(const double *a, double *out, int64_t n, int64_t m, int reps, double *check) {
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        const double *p = a;
        LAUNDER(p);
        transpose(p, out, n, m);
        __asm__ volatile("" ::: "memory");
    }
    double t1 = bench_now();
    double s = 0.0;
    for (int64_t i = 0; i < n * m; i++) s += out[i] * (double)(i % 5);
    *check = s;
    return (t1 - t0) / reps;
}
