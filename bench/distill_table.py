#!/usr/bin/env python3
"""Prints how well `bhpm distill` recovered the true equation of each run folder given.

For every RUN_DIR/distill.json (bench/distill_recovery.sh makes them): the true terms are
those whose "truth" (the true operator's least-squares coefficient on the distilled points,
exact for an operator in the library) is nonzero. Per run one line per true term:
inclusion probability, median coefficient, its relative error |median - truth| / |truth|,
the 95 % interval and whether it covers the truth; then the largest inclusion of any other
term (and which), the fraction of the posterior mean explained, and the verdict of the
issue's goals (true terms >= 0.9, others <= 0.5). The noise level is read from the run's
stored configuration (data.noise) and the folder name.

Where a term the truth lacks is kept, is it made by the root or already in its data? The
root's training targets are the leaves' u_t at the leaves' v (RUN_DIR/root.h5,
root_inputs/u_t and v), so b = u_t - f(v), f the true operator (the library with the truth
column), is what the leaves' errors add to the data the root learns from. b is fitted by
least squares on the library over every root input, and the three terms that contribute
most to it (|coefficient| x the term's RMS) are printed with their coefficients: a kept
spurious term that is among them, with a coefficient of its size, was in the data
(errors in variables), not made by the root or the regression.

Which of a leaf's outputs biases the coefficients? Where the dataset holds its clean
solution (RUN_DIR/data.h5, train/u), each leaf's u_t is fitted by least squares on the true
terms alone, once with the leaf's own v and once with each input v_m in turn replaced by
its exact value (spectral derivatives of the clean solution at the same measurements);
the input whose replacement moves the coefficients to the truth carries the bias. Beside,
each input's slope on its exact value, <v_m, v_m*> / <v_m*, v_m*> (1 is unbiased, below 1
a shrunk input), and u_t's on the true operator at the exact inputs. Needs numpy and h5py.

When distill.json holds the weak form's fit ("weak_form", docs/distillation.md, "Weak-form
distillation"), the same rows follow for it, with the test functions per width.

Usage: distill_table.py RUN_DIR [RUN_DIR ...]
"""

import json
import os
import re
import sys

import h5py
import numpy as np

from leaf_smoothing import spectral_derivatives


def noise_of(config):
    match = re.search(r"^\s*noise\s*=\s*([0-9.eE+-]+)", config, re.MULTILINE)
    return float(match.group(1)) if match else float("nan")


def library_columns(v, terms):
    """Theta [P, J]: each term's monomial (its exponents over v's D variables) at v [P, D]."""
    return np.stack([np.prod(v ** np.array(t["exponents"]), axis=1) for t in terms], axis=1)


def target_bias_terms(run_dir, terms, count=3):
    """The `count` library terms that contribute most to the leaves' target bias
    b = u_t - f(v) over every root input: [(name, coefficient, RMS contribution)]."""
    with h5py.File(os.path.join(run_dir, "root.h5"), "r") as f:
        v = f["root_inputs/v"][()]
        u_t = f["root_inputs/u_t"][()]
    theta = library_columns(v.reshape(-1, v.shape[-1]), terms)
    truth = np.array([t["truth"] for t in terms])
    bias = u_t.reshape(-1) - theta @ truth
    coefficients = np.linalg.lstsq(theta, bias, rcond=None)[0]
    contribution = np.abs(coefficients) * theta.std(axis=0)
    order = np.argsort(-contribution)[:count]
    return [(terms[j]["name"], coefficients[j], contribution[j]) for j in order]


def exact_root_inputs(run_dir, points, orders):
    """The exact v* [E, points, orders] (u, u_x, ..) at the first `points` training
    measurements of each experiment, from the clean solution; None without it."""
    with h5py.File(os.path.join(run_dir, "data.h5"), "r") as data:
        if "u" not in data["train"]:
            return None
        u, x = data["train/u"][()], data["train/x"][()]
        index = data["train/measurements/index"][()][:, :points]
    rows = np.arange(u.shape[0])[:, None]
    return np.stack([d.reshape(d.shape[0], -1)[rows, index]
                     for d in spectral_derivatives(u, x, orders)], axis=2)


def slope(estimate, exact):
    """<estimate, exact> / <exact, exact>: 1 for an unbiased estimate, below 1 a shrunk one."""
    return float(estimate @ exact / (exact @ exact))


def leaf_input_attribution(run_dir, true_terms):
    """Per leaf: the true terms' least-squares coefficients on the leaf's u_t with its own v
    and with each input replaced by the exact one, and the slopes of each input and of u_t
    on their exact values.
    Prints nothing where data.h5 lacks the clean solution."""
    with h5py.File(os.path.join(run_dir, "root.h5"), "r") as f:
        v = f["root_inputs/v"][()]
        u_t = f["root_inputs/u_t"][()]
    exact = exact_root_inputs(run_dir, v.shape[1], v.shape[2])
    truth = np.array([t["truth"] for t in true_terms])
    if exact is None:
        print("  per-leaf attribution: no clean solution in data.h5")
        return
    names = [f"u{'_' + 'x' * m if m else ''}" for m in range(v.shape[2])]
    header = "  ".join(f"{t['name']:>8}" for t in true_terms)
    print(f"  per leaf, the true terms fitted to its u_t ({header}) with its v | with exact "
          + " | with exact ".join(names) + "; slopes of " + ", ".join(names)
          + ", u_t on the exact (u_t: the true operator at the exact v)")
    for leaf in range(v.shape[0]):
        fits = []
        for replaced in [None] + list(range(v.shape[2])):
            inputs = v[leaf].copy()
            if replaced is not None:
                inputs[:, replaced] = exact[leaf, :, replaced]
            theta = library_columns(inputs, true_terms)
            fits.append(np.linalg.lstsq(theta, u_t[leaf], rcond=None)[0])
        exact_u_t = library_columns(exact[leaf], true_terms) @ truth
        slopes = [slope(v[leaf, :, m], exact[leaf, :, m]) for m in range(v.shape[2])]
        slopes.append(slope(u_t[leaf], exact_u_t))
        print(f"  {leaf:>4}  " + " | ".join(" ".join(f"{c:8.4g}" for c in fit) for fit in fits)
              + "; " + " ".join(f"{s:.3f}" for s in slopes))


def recovery(label, equation, terms):
    """Prints the true terms' rows and the largest other inclusion of one fit; returns
    (true terms kept >= 0.9 and no other above 0.5, intervals covering the truth)."""
    true_terms = [t for t in terms if t["truth"] is not None and abs(t["truth"]) > 1e-6]
    others = [t for t in terms if t not in true_terms]
    print(f"  {label}: {equation}")
    print(f"  {'term':<10} {'truth':>9} {'inclusion':>9} {'median':>10} {'rel err':>8} "
          f"{'95 % interval':>24} covers")
    covered = 0
    for t in true_terms:
        error = abs(t["median"] - t["truth"]) / abs(t["truth"])
        covers = t["lower"] <= t["truth"] <= t["upper"]
        covered += covers
        print(f"  {t['name']:<10} {t['truth']:>9.4g} {t['inclusion']:>9.2f} {t['median']:>10.5g} "
              f"{error:>8.2%} [{t['lower']:>10.5g}, {t['upper']:>10.5g}] {'yes' if covers else 'no'}")
    worst = max(others, key=lambda t: t["inclusion"])
    print(f"  largest other inclusion: {worst['inclusion']:.2f} ({worst['name']}, median "
          f"{worst['median']:.3g})")
    kept = all(t["inclusion"] >= 0.9 for t in true_terms)
    return kept and worst["inclusion"] <= 0.5, covered, len(true_terms)


def report(run_dir):
    path = os.path.join(run_dir, "distill.json")
    if not os.path.exists(path):
        print(f"{run_dir}: no distill.json")
        return None
    d = json.load(open(path))
    terms = d["terms"]
    true_terms = [t for t in terms if t["truth"] is not None and abs(t["truth"]) > 1e-6]
    print(f"{os.path.basename(run_dir.rstrip('/'))}: epsilon = {noise_of(d['config']):.4g}, "
          f"{d['settings']['samples']} samples at {d['settings']['points']} points")
    recovered, covered, count = recovery("pointwise", d["equation"], terms)
    print(f"  explained {d['explained']:.5f}"
          f"{' (WARNING: ' + d['warning'][:60] + '...)' if d['warning'] else ''}")
    if any(t["truth"] is None for t in terms):
        print("  leaves' target bias: no truth column")
    else:
        listed = ", ".join(f"{name} {coefficient:.3g} (RMS {rms:.2g})"
                           for name, coefficient, rms in target_bias_terms(run_dir, terms))
        print(f"  leaves' target bias u_t - f(v), largest terms: {listed}")
        leaf_input_attribution(run_dir, true_terms)
    print(f"  pointwise: true terms kept >= 0.9, no other above 0.5: "
          f"{'yes' if recovered else 'no'}; intervals covering the truth: {covered} of {count}")
    weak = d.get("weak_form")
    if weak:
        widths = ", ".join(f"{w['factor']:g} ell: {w['test_functions']}"
                           f"{'' if w['used'] else ' (not fitted)'}" for w in weak["widths"])
        print(f"  weak form on the leaves' u (ell = {weak['length_scale']:.3g}; test functions "
              f"per width {widths})")
        weak_recovered, covered, count = recovery("weak form", weak["equation"], weak["terms"])
        print(f"  weak form: true terms kept >= 0.9, no other above 0.5: "
              f"{'yes' if weak_recovered else 'no'}; intervals covering the truth: {covered} of "
              f"{count}")
    return recovered


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[-1])
        return 2
    verdicts = [report(run) for run in argv[1:]]
    done = [v for v in verdicts if v is not None]
    print(f"runs recovering the equation (true terms >= 0.9, no other above 0.5): "
          f"{sum(done)} of {len(done)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
