#include "bench.h"

/* kernels_shapes.lcg_mod: Park-Miller's generator, the sum of the draws' last digits. */
static int64_t lcg_mod(int64_t n, int64_t seed) {
    int64_t state = seed, total = 0;
    for (int64_t k = 0; k < n; k++) {
        state = state * 48271 % 2147483647;
        total += state % 10;
    }
    return total;
}

double bench_lcg_mod(int64_t n, int64_t seed, int reps, double *check) {
    int64_t res = 0;
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        int64_t s = seed;
        LAUNDER(s);
        res = lcg_mod(n, s);
        LAUNDER(res);
    }
    double t1 = bench_now();
    *check = (double)res;
    return (t1 - t0) / reps;
}
