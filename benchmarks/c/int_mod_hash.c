#include "bench.h"

/* kernels_classic.int_mod_hash: h = (h * 31 + a[i]) % m with Python's floor modulo (the
 * values are signed, so C's truncating % needs the fix-up a C programmer writes). */
static int64_t int_mod_hash(const int64_t *a, int64_t n, int64_t m) {
    int64_t h = 0;
    for (int64_t i = 0; i < n; i++) {
        h = (h * 31 + a[i]) % m;
        if (h < 0)
            h += m;
    }
    return h;
}

double bench_int_mod_hash(const int64_t *a, int64_t m, int64_t n, int reps, double *check) {
    int64_t h = 0;
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        const int64_t *p = a;
        LAUNDER(p);
        h = int_mod_hash(p, n, m);
        LAUNDER(h);
    }
    double t1 = bench_now();
    *check = (double)h;
    return (t1 - t0) / reps;
}
