#include "bench.h"

/* Monte-Carlo estimate of pi from n points drawn with an int64 LCG modulo 2**31. */
static double lcg_pi(int64_t n, int64_t seed) {
    int64_t state = seed;
    int64_t inside = 0;
    for (int64_t i = 0; i < n; i++) {
        state = (state * 1103515245 + 12345) % 2147483648;
        double x = state / 2147483648.0;
        state = (state * 1103515245 + 12345) % 2147483648;
        double y = state / 2147483648.0;
        if (x * x + y * y <= 1.0)
            inside += 1;
    }
    return 4.0 * inside / n;
}

double bench_lcg_pi(int64_t n, int64_t seed, int reps, double *out) {
    double r = 0;
    double t0 = bench_now();
    for (int k = 0; k < reps; k++) {
        int64_t m = n, s = seed;
        LAUNDER(m);
        LAUNDER(s);
        r = lcg_pi(m, s);
        LAUNDER_F(r);
    }
    double t1 = bench_now();
    *out = r;
    return (t1 - t0) / reps;
}
