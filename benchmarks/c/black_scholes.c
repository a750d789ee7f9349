#include <math.h>
#include "bench.h"

/* kernels_classic.black_scholes: European call prices over arrays (log, sqrt, exp, erf). */
static void black_scholes(const double *s, const double *k, const double *t, double r, double v,
                          double *out, int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        double sq = v * sqrt(t[i]);
        double d1 = (log(s[i] / k[i]) + (r + 0.5 * v * v) * t[i]) / sq;
        double d2 = d1 - sq;
        double n1 = 0.5 * (1.0 + erf(d1 / sqrt(2.0)));
        double n2 = 0.5 * (1.0 + erf(d2 / sqrt(2.0)));
        out[i] = s[i] * n1 - k[i] * exp(-r * t[i]) * n2;
    }
}

double bench_black_scholes(const double *s, const double *k, const double *t, double r, double v,
                           double *out, int64_t n, int reps, double *check) {
    double t0 = bench_now();
    for (int rep = 0; rep < reps; rep++) {
        const double *p = s;
        LAUNDER(p);
        black_scholes(p, k, t, r, v, out, n);
        __asm__ volatile("" ::: "memory");
    }
    double t1 = bench_now();
    double c = 0.0;
    for (int64_t i = 0; i < n; i++) c += out[i];
    *check = c;
    return (t1 - t0) / reps;
}
