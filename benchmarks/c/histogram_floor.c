#include <math.h>
#include <string.h>
#include "bench.h"

/* kernels_shapes.histogram_floor: floor binning, clamped into the end bins when clamp. */
static void histogram_floor(const double *x, int64_t n, int64_t nbins, double lo, double hi, int clamp,
                            int64_t *counts) {
    memset(counts, 0, sizeof(int64_t) * nbins);
    double scale = (double)nbins / (hi - lo);
    for (int64_t i = 0; i < n; i++) {
        int64_t b = (int64_t)floor((x[i] - lo) * scale);
        if (clamp) {
            if (b < 0)
                b = 0;
            else if (b >= nbins)
                b = nbins - 1;
        }
        counts[b]++;
    }
}

double bench_histogram_floor(const double *x, int64_t nbins, double lo, double hi, int64_t clamp,
                             int64_t *counts, int64_t n, int reps, double *check) {
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        const double *p = x;
        LAUNDER(p);
        histogram_floor(p, n, nbins, lo, hi, (int)clamp, counts);
        __asm__ volatile("" ::: "memory");
    }
    double t1 = bench_now();
    double s = 0.0;
    for (int64_t i = 0; i < nbins; i++) s += (double)counts[i] * (double)(i % 7 + 1);
    *check = s;
    return (t1 - t0) / reps;
}
