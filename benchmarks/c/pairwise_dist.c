#include <math.h>
#include "bench.h"

/* kernels_workloads.pairwise_dist: the (n, n) Euclidean distance matrix of n points in d dims. */
static void pairwise_dist(const double *x, double *out, int64_t n, int64_t d) {
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) {
            double s = 0.0;
            for (int64_t k = 0; k < d; k++) {
                double t = x[i * d + k] - x[j * d + k];
                s += t * t;
            }
            out[i * n + j] = sqrt(s);
        }
}

double bench_pairwise_dist(const double *x, double *out, int64_t n, int64_t d, int reps, double *check) {
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        const double *p = x;
        LAUNDER(p);
        pairwise_dist(p, out, n, d);
        __asm__ volatile("" ::: "memory");
    }
    double t1 = bench_now();
    double s = 0.0;
    for (int64_t i = 0; i < n * n; i++) s += out[i] * (double)(i % 5 + 1);
    *check = s;
    return (t1 - t0) / reps;
}
