#include "bench.h"

/* kernels_classic.mandelbrot: escape-time counts over [-2, 1] x [-1.5, 1.5]. */
static void mandelbrot(int64_t width, int64_t height, int64_t maxiter, int64_t *out) {
    for (int64_t y = 0; y < height; y++) {
        double ci = -1.5 + 3.0 * (double)y / (double)height;
        for (int64_t x = 0; x < width; x++) {
            double cr = -2.0 + 3.0 * (double)x / (double)width;
            double zr = 0.0, zi = 0.0;
            int64_t k = 0;
            while (k < maxiter && zr * zr + zi * zi <= 4.0) {
                double t = zr * zr - zi * zi + cr;
                zi = 2.0 * zr * zi + ci;
                zr = t;
                k++;
            }
            out[y * width + x] = k;
        }
    }
}

double bench_mandelbrot(int64_t width, int64_t height, int64_t maxiter, int64_t *out, int reps, double *check) {
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        int64_t w = width;
        LAUNDER(w);
        mandelbrot(w, height, maxiter, out);
        __asm__ volatile("" ::: "memory");
    }
    double t1 = bench_now();
    double s = 0.0;
    for (int64_t i = 0; i < width * height; i++) s += (double)out[i];
    *check = s;
    return (t1 - t0) / reps;
}
