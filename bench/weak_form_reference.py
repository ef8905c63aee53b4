#!/usr/bin/env python3
"""How far a weak form would remove the leaves' derivative bias (docs/distillation.md,
"Distilled equations"): the true terms' coefficients fitted to the trained leaves' u alone.

Pointwise, the root learns u_t = f(u, u_x, ..) from the leaves' derivatives, and a leaf
fitted to noisy data returns a shrunk u_xx beside an unshrunk u_t (bench/distill_table.py).
A weak form moves every derivative onto smooth test functions phi(x, t) with compact support
in t and periodic in x: for each true term of the run's equation,
    d^m u/dx^m  ->  (-1)^m  < d^m phi/dx^m, u >,
    u^p u_x     ->  -1/(p+1) < phi_x, u^(p+1) >,
and u_t -> -< phi_t, u >, with <g, h> the sum over the training grid (the cell's area,
common to every column, cancels). The
coefficients c then solve, by least squares over all test functions and experiments,
    -< phi_t, u >  =  sum_j c_j  (term j's weak column).
phi = psi(x / a) psi(t / b) with psi(s) = (1 - s^2)^q on |s| < 1 (q = K + 3 for a
K-th order equation), centred on a lattice of spacing a / 2 by b / 2. For each width (a, b),
as fractions of the window (length L, duration T) and in the leaves' own scales (length
ell = RMS(u')/RMS(u_x), time tau = RMS(u')/RMS(u_t), u' = u minus its spatial mean), this
prints the coefficients and their relative errors with the clean solution's u (train/u of
RUN_DIR/data.h5: checks the quadrature) and with the leaves' u on the same grid, and, for
comparison, the pointwise least-squares fit of the leaves' u_t on the terms at the
leaves' own derivatives on the whole grid. Nothing is asserted: a benchmark prints.

The leaves' fields come from build/bench/leaf_fields (run here when FIELDS.h5 is missing).
The true terms come from RUN_DIR/distill.json (bench/distill_recovery.sh makes the runs);
a term with no weak form in u alone is reported and the run skipped.

Usage: weak_form_reference.py RUN_DIR [FIELDS.h5 = RUN_DIR/leaf-fields.h5]   (numpy, h5py)
"""
import json
import os
import subprocess
import sys

import h5py
import numpy as np

from distill_table import library_columns

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# (a / length, b / duration), from narrow to half the window
WIDTHS = [(1 / 16, 1 / 10), (1 / 8, 1 / 5), (1 / 4, 1 / 4), (3 / 8, 1 / 4), (1 / 2, 1 / 3)]
# and in the leaves' own scales (own_scales): a = c ell for c in SCALED_SPACE (at most L / 2)
SCALED_SPACE, SCALED_TIME = [2, 3, 4, 6], 4


def bump_derivatives(s, power, orders):
    """psi^(m)(s) for m = 0..orders, psi(s) = (1 - s^2)^power on |s| < 1, zero outside."""
    poly = np.polynomial.polynomial
    coefficients = poly.polypow([1.0, 0.0, -1.0], power)
    values = []
    for _ in range(orders + 1):
        values.append(np.where(np.abs(s) < 1, poly.polyval(s, coefficients), 0.0))
        coefficients = poly.polyder(coefficients)
    return values


def space_test_functions(x, width, power, orders):
    """[m][Nx, n]: d^m/dx^m of psi((x - x_c) / width) on the periodic grid x, one centre
    x_c every width / 2."""
    length = (x[1] - x[0]) * x.size
    centres = x[0] + np.arange(0, length, width / 2)
    offset = (x[None, :] - centres[:, None] + length / 2) % length - length / 2
    values = bump_derivatives(offset / width, power, orders)
    return [value / width ** m for m, value in enumerate(values)]


def time_test_functions(t, width, power):
    """([Nt, T], [Nt, T]): psi((t - t_c) / width) and its t-derivative, supports inside t."""
    centres = np.arange(t[0] + width, t[-1] - width + 1e-12, width / 2)
    value, derivative = bump_derivatives((t[None, :] - centres[:, None]) / width, power, 1)
    return value, derivative / width


def own_scales(v, u_t):
    """(ell, tau): the leaves' length RMS(u')/RMS(u_x) and time RMS(u')/RMS(u_t), u' = u minus
    its spatial mean, over every leaf and grid point of v [L, T, n, K + 1] and u_t [L, T, n]."""
    u = v[..., 0] - v[..., 0].mean(axis=2, keepdims=True)
    size = np.sqrt(np.mean(u ** 2))
    return size / np.sqrt(np.mean(v[..., 1] ** 2)), size / np.sqrt(np.mean(u_t ** 2))


def weak_term(exponents):
    """(m, p): the term is d^m u/dx^m (p = 1) or u^(p-1) u_x (m = -1); None without a weak form."""
    exponents = list(exponents)
    if sum(exponents) == 1:
        return exponents.index(1), 1
    if exponents[1] == 1 and sum(exponents[2:]) == 0:
        return -1, exponents[0] + 1
    return None


def test_functions(x, t, width_x, width_t, order):
    """(space [m][Nx, n] for m = 0..order, time value [Nt, T], time derivative [Nt, T])."""
    power = order + 3
    return (space_test_functions(x, width_x, power, order),
            *time_test_functions(t, width_t, power))


def weak_system(u, tests, terms):
    """(target [R], columns [R, J]) over every experiment of u [E, T, n] and every test
    function of `tests` (test_functions)."""
    space, time_value, time_derivative = tests
    targets, columns = [], []
    for field in u:
        targets.append(-(time_derivative @ field @ space[0].T).ravel())
        row = []
        for m, p in terms:
            if m >= 0:
                row.append((-1) ** m * (time_value @ field @ space[m].T).ravel())
            else:
                row.append(-(time_value @ field ** p @ space[1].T).ravel() / p)
        columns.append(np.stack(row, axis=1))
    return np.concatenate(targets), np.concatenate(columns)


def least_squares(target, columns):
    """c minimising |target - columns c|^2."""
    return np.linalg.lstsq(columns, target, rcond=None)[0]


def describe(coefficients, truth):
    return "  ".join(f"{c:9.5g} ({abs(c - e) / abs(e):6.2%})" for c, e in zip(coefficients, truth))


def leaf_fields(run_dir, path):
    if not os.path.exists(path):
        program = os.path.join(ROOT, "build", "bench", "leaf_fields")
        subprocess.run([program, run_dir, path], check=True)
    with h5py.File(path, "r") as f:
        return f["x"][()], f["t"][()], f["v"][()], f["u_t"][()]


def report(run_dir, fields_path):
    terms = json.load(open(os.path.join(run_dir, "distill.json")))["terms"]
    true_terms = [t for t in terms if t["truth"] is not None and abs(t["truth"]) > 1e-6]
    weak = [weak_term(t["exponents"]) for t in true_terms]
    if any(w is None for w in weak):
        missing = [t["name"] for t, w in zip(true_terms, weak) if w is None]
        print(f"{run_dir}: no weak form in u alone for {', '.join(missing)}; skipped")
        return
    with h5py.File(os.path.join(run_dir, "data.h5"), "r") as data:
        if "u" not in data["train"]:
            print(f"{run_dir}/data.h5: no train/u (a dataset without its truth); skipped")
            return
        exact = data["train/u"][()]
    x, t, v, u_t = leaf_fields(run_dir, fields_path)
    order = v.shape[-1] - 1
    truth = [term["truth"] for term in true_terms]
    names = "  ".join(f"{term['name']:>18}" for term in true_terms)
    print(f"{run_dir}: {v.shape[0]} leaves on {t.size} x {x.size} grids; coefficients "
          f"(relative error) of {names}")
    length, duration = (x[1] - x[0]) * x.size, t[-1] - t[0]
    widths = [(fx * length, ft * duration, f"a = {fx:.3g} L, b = {ft:.3g} T")
              for fx, ft in WIDTHS]
    ell, tau = own_scales(v, u_t)
    scaled_b = min(SCALED_TIME * tau, duration / 2.2)
    print(f"  the leaves' scales: ell = {ell:.3g} (L = {length:.3g}), tau = {tau:.3g} "
          f"(T = {duration:.3g})")
    widths += [(c * ell, scaled_b, f"a = {c} ell, b = min({SCALED_TIME} tau, T / 2.2)")
               for c in SCALED_SPACE if c * ell <= length / 2]
    for a, b, label in widths:
        tests = test_functions(x, t, a, b, order)
        with_exact = least_squares(*weak_system(exact, tests, weak))
        with_leaves = least_squares(*weak_system(v[..., 0], tests, weak))
        print(f"  weak, {label} = ({a:.3g}, {b:.3g}): clean u {describe(with_exact, truth)} | "
              f"leaves' u {describe(with_leaves, truth)}")
    library = library_columns(v.reshape(-1, order + 1), true_terms)
    pointwise = least_squares(u_t.ravel(), library)
    print(f"  pointwise, leaves' derivatives on the whole grids: {describe(pointwise, truth)}")


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.strip().splitlines()[-1])
        return 2
    run_dir = argv[1]
    report(run_dir, argv[2] if len(argv) == 3 else os.path.join(run_dir, "leaf-fields.h5"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
