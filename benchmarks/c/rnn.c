#include <math.h>
#include <string.h>
#include "bench.h"

/* The RNN time loop of benchmarks/arrays.py (rnn_loop): h = tanh(W x_t + U h + b) for each
 * step t, each h stored as a row of out. xs is (steps, nin), w (n, nin), u (n, n). */
static void rnn(const double *xs, const double *w, const double *u, const double *b, double *out,
                double *h, double *hn, int64_t steps, int64_t nin, int64_t n) {
    memset(h, 0, sizeof(double) * n);
    for (int64_t t = 0; t < steps; t++) {
        for (int64_t i = 0; i < n; i++) {
            double s = b[i];
            for (int64_t k = 0; k < nin; k++)
                s += w[i * nin + k] * xs[t * nin + k];
            for (int64_t k = 0; k < n; k++)
                s += u[i * n + k] * h[k];
            hn[i] = tanh(s);
        }
        for (int64_t i = 0; i < n; i++) {
            h[i] = hn[i];
            out[t * n + i] = hn[i];
        }
    }
}

double bench_rnn(const double *xs, const double *w, const double *u, const double *b, double *out,
                 double *h, double *hn, int64_t steps, int64_t nin, int64_t n, int reps, double *check) {
    double t0 = bench_now();
    for (int k = 0; k < reps; k++) {
        const double *pxs = xs;
        LAUNDER(pxs);
        rnn(pxs, w, u, b, out, h, hn, steps, nin, n);
        __asm__ volatile("" ::: "memory");
    }
    double t1 = bench_now();
    *check = out[steps * n - 1];
    return (t1 - t0) / reps;
}
