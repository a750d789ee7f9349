#include <string.h>
#include "bench.h"

/* The 5-point average of benchmarks/arrays.py (stencil_loop): the interior of a C-contiguous
 * (n, m) array averaged into out, the edges copied. */
static void stencil(const double *a, double *r, int64_t n, int64_t m) {
    memcpy(r, a, sizeof(double) * n * m);
    for (int64_t i = 1; i < n - 1; i++)
        for (int64_t j = 1; j < m - 1; j++)
            r[i * m + j] = 0.25 * (a[(i - 1) * m + j] + a[(i + 1) * m + j] + a[i * m + j - 1] + a[i * m + j + 1]);
}

double bench_stencil(const double *a, double *r, int64_t n, int64_t m, int reps, double *check) {
    double t0 = bench_now();
    for (int k = 0; k < reps; k++) {
        const double *pa = a;
        LAUNDER(pa);
        stencil(pa, r, n, m);
        __asm__ volatile("" ::: "memory");
    }
    double t1 = bench_now();
    *check = r[(n / 2) * m + m / 2];
    return (t1 - t0) / reps;
}
