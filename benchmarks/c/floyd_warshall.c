#include <string.h>
#include "bench.h"

/* kernels_classic.floyd_warshall: all-pairs shortest paths on a copy of an (n, n) matrix. */
static void floyd_warshall(const double *dist, double *d, int64_t n) {
    memcpy(d, dist, sizeof(double) * n * n);
    for (int64_t k = 0; k < n; k++)
        for (int64_t i = 0; i < n; i++) {
            double dik = d[i * n + k];
            for (int64_t j = 0; j < n; j++) {
                double alt = dik + d[k * n + j];
                if (alt < d[i * n + j])
                    d[i * n + j] = alt;
            }
        }
}

double bench_floyd_warshall(const double *dist, double *d, int64_t n, int reps, double *check) {
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        const double *p = dist;
        LAUNDER(p);
        floyd_warshall(p, d, n);
        __asm__ volatile("" ::: "memory");
    }
    double t1 = bench_now();
    double s = 0.0;
    for (int64_t i = 0; i < n * n; i++) s += d[i];
    *check = s;
    return (t1 - t0) / reps;
}
