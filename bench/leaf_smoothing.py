#!/usr/bin/env python3
"""How far the trained leaves act as a smoothing of the true solution (docs/distillation.md,
"Distilled equations"), on a run whose dataset holds the truth (format version 1).

A leaf fitted to noisy data returns about S u with S = 1 + c d^2/dx^2; the smoothed fields
then obey u_t = f(v) + c dv^T (d^2 f / dv^2) dv (for KdV and Burgers: -2c u_x u_xx), a
term the root learns as part of f. Per leaf and per root input m (u, u_x, .., d^K u/dx^K
at its measurements, RUN_DIR/root.h5 root_inputs/v), this fits the leaf's error against
the exact derivative (spectral, from the clean solution train/u of RUN_DIR/data.h5) as
    e_m = c_m d^{m+2}u/dx^{m+2}
by least squares and prints c_m, the fraction of e_m's square it explains (R^2) and e_m's
RMS relative to the exact derivative's. The last column is what training data alone show
of the smoothing: c from the leaf's residual at its measurements, r = y - u_leaf =
-c u_xx + noise, as -<r, u_xx> / <u_xx, u_xx> with the leaf's own u_xx. Nothing is
asserted: a benchmark prints.

Usage: leaf_smoothing.py RUN_DIR   (numpy and h5py)
"""
import os
import sys

import h5py
import numpy as np


def spectral_derivatives(u, x, orders):
    """d^m u/dx^m [orders][E, T, n] of u [E, T, n] on the periodic grid x [n]."""
    n = u.shape[2]
    length = (x[1] - x[0]) * n
    k = 2j * np.pi * np.fft.fftfreq(n, d=length / n)
    transform = np.fft.fft(u, axis=2)
    return [np.real(np.fft.ifft(transform * k ** m, axis=2)) for m in range(orders)]


def least_squares_scale(error, basis):
    """c minimising |error - c basis|^2 and the fraction of |error|^2 it explains."""
    c = float(error @ basis / (basis @ basis))
    return c, 1.0 - float(np.sum((error - c * basis) ** 2) / np.sum(error ** 2))


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[-1])
        return 2
    run = argv[1]
    with h5py.File(os.path.join(run, "data.h5"), "r") as data, \
            h5py.File(os.path.join(run, "root.h5"), "r") as root:
        if "u" not in data["train"]:
            print(f"{run}/data.h5: no train/u (a dataset without its truth)", file=sys.stderr)
            return 1
        u, x = data["train/u"][()], data["train/x"][()]
        index = data["train/measurements/index"][()]
        measured = data["train/measurements/u"][()]
        v = root["root_inputs/v"][()]
    orders, points = v.shape[2], v.shape[1]  # a run may use the first n_st measurements only
    index, measured = index[:, :points], measured[:, :points]
    exact = spectral_derivatives(u, x, orders + 2)
    names = ["u", "u_x", "u_xx", "u_xxx", "u_xxxx", "u_xxxxx"]
    print("leaf  " + "  ".join(f"{names[m]:>24}" for m in range(orders))
          + "  c from residuals")
    print("      " + "  ".join(f"{'c (R^2, rel. error)':>24}" for m in range(orders)))
    for leaf in range(v.shape[0]):
        at_points = [exact[m][leaf].reshape(-1)[index[leaf]] for m in range(orders + 2)]
        cells = []
        for m in range(orders):
            error = v[leaf, :, m] - at_points[m]
            c, r2 = least_squares_scale(error, at_points[m + 2])
            relative = np.sqrt(np.mean(error ** 2) / np.mean(at_points[m] ** 2))
            cells.append(f"{c:>8.4f} ({r2:.2f}, {relative:.3f})")
        residual_c = float("nan")
        if orders >= 3:
            u_xx = v[leaf, :, 2]
            residual_c = -float((measured[leaf] - v[leaf, :, 0]) @ u_xx / (u_xx @ u_xx))
        print(f"{leaf:>4}  " + "  ".join(f"{cell:>24}" for cell in cells)
              + f"  {residual_c:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
