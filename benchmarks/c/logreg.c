#include <math.h>
#include <string.h>
#include "bench.h"

/* kernels_workloads.logreg: `iters` full-batch gradient-descent steps of logistic regression.
 * z and p are n-element scratch buffers, g a d-element one. */
static void logreg(const double *x, const double *y, int64_t n, int64_t d, int64_t iters, double lr,
                   double *w, double *p, double *g) {
    memset(w, 0, sizeof(double) * d);
    for (int64_t it = 0; it < iters; it++) {
        for (int64_t i = 0; i < n; i++) {
            double z = 0.0;
            for (int64_t j = 0; j < d; j++) z += x[i * d + j] * w[j];
            p[i] = 1.0 / (1.0 + exp(-z)) - y[i];
        }
        memset(g, 0, sizeof(double) * d);
        for (int64_t i = 0; i < n; i++)
            for (int64_t j = 0; j < d; j++) g[j] += x[i * d + j] * p[i];
        for (int64_t j = 0; j < d; j++) w[j] = w[j] - (lr / (double)n) * g[j];
    }
}

double bench_logreg(const double *x, const double *y, int64_t n, int64_t d, int64_t iters, double lr, double *w,
                    double *p, double *g, int reps, double *check) {
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        const double *q = x;
        LAUNDER(q);
        logreg(q, y, n, d, iters, lr, w, p, g);
        __asm__ volatile("" ::: "memory");
    }
    double t1 = bench_now();
    double s = 0.0;
    for (int64_t j = 0; j < d; j++) s += w[j] * (double)(j % 5 + 1);
    *check = s;
    return (t1 - t0) / reps;
}
