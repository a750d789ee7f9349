#include "bench.h"

/* The vector . vector product of benchmarks/linalg.py, one sum in order (what a C
 * programmer writes; -ffp-contract=off and no -ffast-math, so gcc keeps the order and does
 * not vectorize the sum). */
static double dot(const double *a, const double *b, int64_t n) {
    double s = 0.0;
    for (int64_t i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

double bench_dot(const double *a, const double *b, int64_t n, int reps, double *out) {
    double r = 0.0;
    double t0 = bench_now();
    for (int k = 0; k < reps; k++) {
        const double *pa = a;
        LAUNDER(pa);
        r = dot(pa, b, n);
        LAUNDER_F(r);
    }
    double t1 = bench_now();
    *out = r;
    return (t1 - t0) / reps;
}
