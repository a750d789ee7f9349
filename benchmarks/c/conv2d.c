#include "bench.h"

/* kernels_classic.conv2d: a 'valid' correlation of an (h, w) image with a (kh, kw) kernel. */
static void conv2d(const double *img, const double *ker, double *out, int64_t h, int64_t w,
                   int64_t kh, int64_t kw) {
    int64_t oh = h - kh + 1, ow = w - kw + 1;
    for (int64_t i = 0; i < oh; i++)
        for (int64_t j = 0; j < ow; j++) {
            double s = 0.0;
            for (int64_t u = 0; u < kh; u++)
                for (int64_t v = 0; v < kw; v++)
                    s += img[(i + u) * w + j + v] * ker[u * kw + v];
            out[i * ow + j] = s;
        }
}

double bench_conv2d(const double *img, const double *ker, double *out, int64_t h, int64_t w, int64_t kh,
                    int64_t kw, int reps, double *check) {
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        const double *p = img;
        LAUNDER(p);
        conv2d(p, ker, out, h, w, kh, kw);
        __asm__ volatile("" ::: "memory");
    }
    double t1 = bench_now();
    double s = 0.0;
    for (int64_t i = 0; i < (h - kh + 1) * (w - kw + 1); i++) s += out[i];
    *check = s;
    return (t1 - t0) / reps;
}
