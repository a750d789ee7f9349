#include "bench.h"

/* kernels_workloads.blur_f32: a 3x3 'valid' blur of a float32 image, in float32 throughout. */
static void blur_f32(const float *img, const float *k, float *out, int64_t h, int64_t w) {
    for (int64_t i = 1; i < h - 1; i++)
        for (int64_t j = 1; j < w - 1; j++) {
            const float *a = img + (i - 1) * w + j, *b = img + i * w + j, *c = img + (i + 1) * w + j;
            out[(i - 1) * (w - 2) + j - 1] = a[-1] * k[0] + a[0] * k[1] + a[1] * k[2] + b[-1] * k[3] + b[0] * k[4]
                                             + b[1] * k[5] + c[-1] * k[6] + c[0] * k[7] + c[1] * k[8];
        }
}

double bench_blur_f32(const float *img, const float *k, float *out, int64_t h, int64_t w, int reps, double *check) {
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        const float *p = img;
        LAUNDER(p);
        blur_f32(p, k, out, h, w);
        __asm__ volatile("" ::: "memory");
    }
    double t1 = bench_now();
    double s = 0.0;
    for (int64_t i = 0; i < (h - 2) * (w - 2); i++) s += (double)out[i] * (double)(i % 5 + 1);
    *check = s;
    return (t1 - t0) / reps;
}
