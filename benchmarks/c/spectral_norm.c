#include <math.h>
#include <stdlib.h>
#include "bench.h"

/* kernels_workloads.spectral_norm: 10 rounds of v = A^T A u, u = A^T A v, in loops. */
static double spectral_norm(int64_t n) {
    double *u = malloc(sizeof(double) * n), *v = malloc(sizeof(double) * n), *tmp = malloc(sizeof(double) * n);
    for (int64_t i = 0; i < n; i++) { u[i] = 1.0; v[i] = 0.0; tmp[i] = 0.0; }
    for (int64_t it = 0; it < 20; it++) {
        double *src = it % 2 == 0 ? u : v, *dst = it % 2 == 0 ? v : u;
        for (int64_t i = 0; i < n; i++) {
            double s = 0.0;
            for (int64_t j = 0; j < n; j++)
                s += src[j] / (double)((i + j) * (i + j + 1) / 2 + i + 1);
            tmp[i] = s;
        }
        for (int64_t i = 0; i < n; i++) {
            double s = 0.0;
            for (int64_t j = 0; j < n; j++)
                s += tmp[j] / (double)((i + j) * (i + j + 1) / 2 + j + 1);
            dst[i] = s;
        }
    }
    double vbv = 0.0, vv = 0.0;
    for (int64_t i = 0; i < n; i++) { vbv += u[i] * v[i]; vv += v[i] * v[i]; }
    free(u); free(v); free(tmp);
    return sqrt(vbv / vv);
}

double bench_spectral_norm(int64_t n, int reps, double *check) {
    double res = 0.0;
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        int64_t m = n;
        LAUNDER(m);
        res = spectral_norm(m);
        LAUNDER_F(res);
    }
    double t1 = bench_now();
    *check = res;
    return (t1 - t0) / reps;
}
