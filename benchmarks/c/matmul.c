#include <string.h>
#include "bench.h"

/* The matrix product of benchmarks/linalg.py: C-contiguous (n, k) x (k, m) into a zeroed
 * (n, m), in i-k-j order so that the inner loop runs along rows and vectorizes, as script's
 * numpy_kernels.matmul does. */
static void matmul(const double *a, const double *b, double *out, int64_t n, int64_t k, int64_t m) {
    memset(out, 0, sizeof(double) * n * m);
    for (int64_t i = 0; i < n; i++)
        for (int64_t p = 0; p < k; p++) {
            double aip = a[i * k + p];
            for (int64_t j = 0; j < m; j++)
                out[i * m + j] += aip * b[p * m + j];
        }
}

double bench_matmul(const double *a, const double *b, double *out, int64_t n, int64_t k, int64_t m,
                    int reps, double *check) {
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        const double *pa = a;
        LAUNDER(pa);
        matmul(pa, b, out, n, k, m);
        __asm__ volatile("" ::: "memory");
    }
    double t1 = bench_now();
    *check = out[n * m - 1];
    return (t1 - t0) / reps;
}
