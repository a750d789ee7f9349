#include <math.h>
#include "bench.h"

/* kernels_classic.kmeans_assign: the nearest of k centroids for each of n points in d dims. */
static void kmeans_assign(const double *pts, const double *cen, int64_t *labels, int64_t n, int64_t d, int64_t k) {
    for (int64_t i = 0; i < n; i++) {
        int64_t best = 0;
        double best_d = INFINITY;
        for (int64_t c = 0; c < k; c++) {
            double s = 0.0;
            for (int64_t j = 0; j < d; j++) {
                double diff = pts[i * d + j] - cen[c * d + j];
                s += diff * diff;
            }
            if (s < best_d) {
                best_d = s;
                best = c;
            }
        }
        labels[i] = best;
    }
}

double bench_kmeans_assign(const double *pts, const double *cen, int64_t *labels, int64_t n, int64_t d,
                           int64_t k, int reps, double *check) {
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        const double *p = pts;
        LAUNDER(p);
        kmeans_assign(p, cen, labels, n, d, k);
        __asm__ volatile("" ::: "memory");
    }
    double t1 = bench_now();
    double s = 0.0;
    for (int64_t i = 0; i < n; i++) s += (double)labels[i];
    *check = s;
    return (t1 - t0) / reps;
}
