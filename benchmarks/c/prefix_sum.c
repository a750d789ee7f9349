#include "bench.h"

/* kernels_classic.prefix_sum: inclusive prefix sums of a and of its squares. */
static void prefix_sum(const int64_t *a, int64_t *out, int64_t *sq, int64_t n) {
    int64_t s = 0, s2 = 0;
    for (int64_t i = 0; i < n; i++) {
        s += a[i];
        s2 += a[i] * a[i];
        out[i] = s;
        sq[i] = s2;
    }
}

double bench_prefix_sum(const int64_t *a, int64_t *out, int64_t *sq, int64_t n, int reps, double *check) {
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        const int64_t *p = a;
        LAUNDER(p);
        prefix_sum(p, out, sq, n);
        __asm__ volatile("" ::: "memory");
    }
    double t1 = bench_now();
    *check = (double)out[n - 1] + (double)sq[n - 1];
    return (t1 - t0) / reps;
}
