#include "bench.h"

/* The element-wise expression of benchmarks/arrays.py (expr_loop). */
static void expr(const double *a, const double *b, double *out, int64_t n) {
    for (int64_t i = 0; i < n; i++)
        out[i] = a[i] * 2.0 - b[i] / 3.0 + 1.0;
}

double bench_expr(const double *a, const double *b, double *out, int64_t n, int reps, double *check) {
    double t0 = bench_now();
    for (int k = 0; k < reps; k++) {
        const double *pa = a;
        LAUNDER(pa);
        expr(pa, b, out, n);
        __asm__ volatile("" ::: "memory");
    }
    double t1 = bench_now();
    *check = out[n - 1];
    return (t1 - t0) / reps;
}
