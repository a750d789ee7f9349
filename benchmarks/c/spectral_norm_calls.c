#include <math.h>
#include <stdlib.h>
#include "bench.h"

/* kernels_shapes.spectral_norm_calls: the matrix entry a helper called in a double loop. */
static double eval_a(int64_t i, int64_t j) {
    return 1.0 / (double)((i + j) * (i + j + 1) / 2 + i + 1);
}

static void a_times_u(const double *u, double *out, int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        double s = 0.0;
        for (int64_t j = 0; j < n; j++)
            s += eval_a(i, j) * u[j];
        out[i] = s;
    }
}

static void at_times_u(const double *u, double *out, int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        double s = 0.0;
        for (int64_t j = 0; j < n; j++)
            s += eval_a(j, i) * u[j];
        out[i] = s;
    }
}

static double spectral_norm_calls(int64_t n) {
    double *u = malloc(sizeof(double) * n), *v = malloc(sizeof(double) * n), *tmp = malloc(sizeof(double) * n);
    for (int64_t i = 0; i < n; i++) { u[i] = 1.0; v[i] = 0.0; tmp[i] = 0.0; }
    for (int r = 0; r < 10; r++) {
        a_times_u(u, tmp, n);
        at_times_u(tmp, v, n);
        a_times_u(v, tmp, n);
        at_times_u(tmp, u, n);
    }
    double vbv = 0.0, vv = 0.0;
    for (int64_t i = 0; i < n; i++) { vbv += u[i] * v[i]; vv += v[i] * v[i]; }
    free(u); free(v); free(tmp);
    return sqrt(vbv / vv);
}

double bench_spectral_norm_calls(int64_t n, int reps, double *check) {
    double res = 0.0;
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        int64_t m = n;
        LAUNDER(m);
        res = spectral_norm_calls(m);
        LAUNDER_F(res);
    }
    double t1 = bench_now();
    *check = res;
    return (t1 - t0) / reps;
}
