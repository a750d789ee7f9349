#include <math.h>
#include "bench.h"

/* kernels_classic.newton_cbrt: a while-loop Newton iteration for each cube root. */
static void newton_cbrt(const double *a, double *out, int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        double y = a[i];
        double x = y > 1.0 ? y : 1.0;
        for (;;) {
            double dx = (x * x * x - y) / (3.0 * x * x);
            x -= dx;
            if (fabs(dx) <= 1e-12 * x)
                break;
        }
        out[i] = x;
    }
}

double bench_newton_cbrt(const double *a, double *out, int64_t n, int reps, double *check) {
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        const double *p = a;
        LAUNDER(p);
        newton_cbrt(p, out, n);
        __asm__ volatile("" ::: "memory");
    }
    double t1 = bench_now();
    double s = 0.0;
    for (int64_t i = 0; i < n; i++) s += out[i];
    *check = s;
    return (t1 - t0) / reps;
}
