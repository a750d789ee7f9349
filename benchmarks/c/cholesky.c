#include <math.h>
#include <string.h>
#include "bench.h"

/* kernels_workloads.cholesky: the lower-triangular factor of a symmetric positive definite matrix. */
static void cholesky(const double *a, double *low, int64_t n) {
    memset(low, 0, sizeof(double) * n * n);
    for (int64_t j = 0; j < n; j++) {
        double s = a[j * n + j];
        for (int64_t k = 0; k < j; k++)
            s -= low[j * n + k] * low[j * n + k];
        low[j * n + j] = sqrt(s);
        for (int64_t i = j + 1; i < n; i++) {
            s = a[i * n + j];
            for (int64_t k = 0; k < j; k++)
                s -= low[i * n + k] * low[j * n + k];
            low[i * n + j] = s / low[j * n + j];
        }
    }
}

double bench_cholesky(const double *a, double *low, int64_t n, int reps, double *check) {
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        const double *p = a;
        LAUNDER(p);
        cholesky(p, low, n);
        __asm__ volatile("" ::: "memory");
    }
    double t1 = bench_now();
    double s = 0.0;
    for (int64_t i = 0; i < n * n; i++) s += low[i] * (double)(i % 5 + 1);
    *check = s;
    return (t1 - t0) / reps;
}
