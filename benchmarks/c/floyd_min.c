#include <string.h>
#include "bench.h"

#define MIN(a, b) ((b) < (a) ? (b) : (a))

/* kernels_shapes.floyd_min: d[i][j] = min(d[i][j], d[i][k] + d[k][j]) on a copy. */
static void floyd_min(const double *dist, double *d, int64_t n) {
    memcpy(d, dist, sizeof(double) * n * n);
    for (int64_t k = 0; k < n; k++)
        for (int64_t i = 0; i < n; i++)
            for (int64_t j = 0; j < n; j++)
                d[i * n + j] = MIN(d[i * n + j], d[i * n + k] + d[k * n + j]);
}

double bench_floyd_min(const double *dist, double *d, int64_t n, int reps, double *check) {
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        const double *p = dist;
        LAUNDER(p);
        floyd_min(p, d, n);
        __asm__ volatile("" ::: "memory");
    }
    double t1 = bench_now();
    double s = 0.0;
    for (int64_t i = 0; i < n * n; i++) s += d[i];
    *check = s;
    return (t1 - t0) / reps;
}
