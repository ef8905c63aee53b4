#!/usr/bin/env python3
"""How well each form of the model discrepancy fits the training experiments, and how well
a fit on some of them carries over to the others (docs/calibration.md, "Spread inflation" and
"Choosing the form by transfer"),
from the leave-one-out ensembles that `bhpm calibrate` stores in RUN_DIR/discrepancy.json.
No ensemble is solved: this reads the file only, and prints.

Per training experiment e and time bin k the file holds the plain ensemble's squared error
E_ek and spread V0_ek, and per candidate timescale T the spread's growth G_ek(T) per unit
tau^2 (src/solve/discrepancy_calibration.h, steps 1-2). Over the bins that step 3 fits
(E > 0, V0 > 0, the path within the data's coverage) this prints:

  1. per experiment and bin, ln(E / V0): one spread inflation kappa fits them only as well
     as they are equal;
  2. the misfit sum ln^2(V / E) in the bins, as calibrate computes it, of the additive
     discrepancy (V = V0 + tau^2 G, the best tau^2 per T), of the inflation (V = kappa V0)
     and of both at once (V = kappa V0 + tau^2 G, kappa >= 1, a form bhpm does not have);
  3. cross-validation over the experiments: each form fitted on all experiments but one
     (tau^2's T chosen there too) and its misfit taken on the one left out, summed over
     them. A form whose in-sample misfit is low only through its freedom scores worse here;
  4. when calibrate made its transfer check (step 6; file version 6), the same ln(E / V0)
     for the ensembles of posteriors without 2 experiments, each form's fit there, and
     carried over to the leave-one-out bins: its misfit, its loss (the misfit less that of
     the value fitted there: what calibrate compares) and the level it puts on them, the
     mean of ln(V / E) (0: the spread's variance equals the error on geometric average),
     and the form that step 6's rule keeps from these stored values: the smaller loss when
     both losses are finite and both fits there lie inside their bounds (kappa > 1,
     tau^2 > 0), else the smaller misfit of steps 4-5 (files written before that rule
     record in `decided` what calibrate did then).

tau^2 is searched on a grid of 0.01 decades from 1e-8 to 1e4 times sigma_f^2 (calibrate:
0.05 decades, then golden section), so the misfits agree with calibrate's to about 1e-3.

Usage: calibration_forms.py RUN_DIR   (numpy)
"""
import json
import math
import os
import sys

import numpy as np

COVERED_PATH_TOLERANCE = 0.01  # src/solve/predictor.h, kCoveredPathTolerance


def bin_terms(calibration, spread, k):
    """(E, V0, G, usable, covered) of bin k of one experiment's candidate spread: E the
    squared error less the sampling and measurement noise, G the growth per unit tau^2;
    usable when the experiment has 2 sound members and the bin points, E > 0 and V0 > 0."""
    v0 = spread["variance_without"][k]
    sound = spread["sound_samples"]
    error = spread["squared_error"][k] - v0 / max(sound, 1) - calibration["noise_variance"]
    growth = max(0.0, (spread["variance_with_reference"][k] - v0) / spread["reference_variance"])
    usable = sound >= 2 and spread["points"][k] > 0 and error > 0 and v0 > 0
    covered = spread["outside_coverage"][k] <= COVERED_PATH_TOLERANCE
    return error, v0, growth, usable, covered


def fitted_bins(calibration, candidate, experiments):
    """[B, 3] rows (E, V0, G) of step 3's bins of `candidate` over `experiments`."""
    rows, uncovered = [], []
    for experiment in calibration["training_experiments"]:
        if experiment["experiment"] not in experiments:
            continue
        spread = experiment["candidates"][candidate]
        for k in range(len(spread["points"])):
            error, v0, growth, usable, covered = bin_terms(calibration, spread, k)
            if usable:
                (rows if covered else uncovered).append((error, v0, growth))
    return np.array(rows or uncovered, dtype=float).reshape(-1, 3)


def misfit(bins, kappa, variance):
    """sum over the bins of ln^2((kappa V0 + tau^2 G) / E)."""
    return float(np.sum(np.log((kappa * bins[:, 1] + variance * bins[:, 2]) / bins[:, 0]) ** 2))


def variance_grid(calibration):
    return calibration["reference_variance"] * 10.0 ** np.arange(-8.0, 4.0 + 1e-9, 0.01)


def fit_variance(bins, grid):
    """(tau^2, misfit) of the best tau^2 >= 0 with kappa = 1."""
    misfits = [misfit(bins, 1.0, v) for v in grid]
    best = int(np.argmin(misfits))
    plain = misfit(bins, 1.0, 0.0)
    return (grid[best], misfits[best]) if misfits[best] < plain else (0.0, plain)


def fit_inflation(bins):
    """(kappa, misfit): ln kappa = mean ln(E / V0), kappa >= 1 (step 5)."""
    kappa = max(1.0, math.exp(float(np.mean(np.log(bins[:, 0] / bins[:, 1])))))
    return kappa, misfit(bins, kappa, 0.0)


def fit_both(bins, grid):
    """(kappa, tau^2, misfit) of V = kappa V0 + tau^2 G over a grid of kappa in [1, 100]."""
    best = (1.0, 0.0, misfit(bins, 1.0, 0.0))
    for kappa in 10.0 ** np.arange(0.0, 2.0 + 1e-9, 0.01):
        for variance in grid[::5]:
            value = misfit(bins, kappa, variance)
            if value < best[2]:
                best = (kappa, variance, value)
    return best


def best_timescale(calibration, experiments, grid):
    """(candidate, tau^2, misfit) of the candidate T with the least misfit over `experiments`."""
    best = None
    for c in range(len(calibration["candidates"])):
        bins = fitted_bins(calibration, c, experiments)
        if len(bins) == 0:
            continue
        variance, value = fit_variance(bins, grid)
        if variance > 0 and (best is None or value < best[2]):
            best = (c, variance, value)
    return best


def print_log_ratios(calibration):
    print("ln(E / V0) per experiment and fifth of the horizon (bins fitted; - left out)")
    for experiment in calibration["training_experiments"]:
        spread = experiment["candidates"][0]
        kept = fitted_bins(calibration, 0, {experiment["experiment"]})
        cells = []
        for k in range(len(spread["points"])):
            error, v0, _, usable, covered = bin_terms(calibration, spread, k)
            cells.append(f"{math.log(error / v0):6.2f}" if usable and covered else "     -")
        print(f"  experiment {experiment['experiment']}: {' '.join(cells)}  ({len(kept)} bins)")


def print_fits(calibration, experiments, grid):
    timescales = [c["timescale"] for c in calibration["candidates"]]
    print("\nin-sample misfit over the bins above")
    for c, timescale in enumerate(timescales):
        bins = fitted_bins(calibration, c, experiments)
        variance, value = fit_variance(bins, grid)
        kappa, variance_both, value_both = fit_both(bins, grid)
        print(f"  tau^2, T = {timescale:g}: tau^2 = {variance:.3g}, misfit {value:.3g};"
              f"  both: kappa = {kappa:.3g}, tau^2 = {variance_both:.3g}, misfit {value_both:.3g}")
    kappa, value = fit_inflation(fitted_bins(calibration, 0, experiments))
    print(f"  kappa = {kappa:.4g}, misfit {value:.3g}")


def print_cross_validation(calibration, experiments, grid):
    print("\ncross-validated: fitted on the other experiments, misfit on the one left out")
    totals = [0.0, 0.0]
    for left_out in sorted(experiments):
        rest = experiments - {left_out}
        kappa, _ = fit_inflation(fitted_bins(calibration, 0, rest))
        held = fitted_bins(calibration, 0, {left_out})
        additive = best_timescale(calibration, rest, grid)
        if len(held) == 0 or additive is None:
            print(f"  experiment {left_out}: no bins to score")
            continue
        candidate, variance, _ = additive
        scores = (misfit(held, kappa, 0.0),
                  misfit(fitted_bins(calibration, candidate, {left_out}), 1.0, variance))
        totals = [t + s for t, s in zip(totals, scores)]
        timescale = calibration["candidates"][candidate]["timescale"]
        print(f"  experiment {left_out} ({len(held)} bins): kappa = {kappa:.3g} -> {scores[0]:.3g};"
              f"  tau^2 = {variance:.3g} at T = {timescale:g} -> {scores[1]:.3g}")
    print(f"  sum: kappa {totals[0]:.3g}, tau^2 {totals[1]:.3g}")


def print_transfer(calibration, experiments):
    transfer = calibration.get("transfer")
    if not transfer:
        print("\nno transfer check in this file")
        return
    print("\ntransfer check: ln(E / V0) of the ensembles without experiments e and e + 1 (mod N)")
    for e, spread in enumerate(transfer["training_experiments"]):
        cells = []
        for k in range(len(spread["points"])):
            error, v0, _, usable, covered = bin_terms(calibration, spread, k)
            cells.append(f"{math.log(error / v0):6.2f}" if usable and covered else "     -")
        print(f"  experiment {e}: {' '.join(cells)}")
    timescale = transfer["candidate"]["timescale"]
    candidate = [c["timescale"] for c in calibration["candidates"]].index(timescale)
    forms = (("kappa", transfer["inflation_candidate"]["factor"], 0.0, 0, "inflation"),
             ("tau^2", 1.0, transfer["candidate"]["variance"], candidate, "variance"))
    for name, kappa, variance, column, key in forms:
        bins = fitted_bins(calibration, column, experiments)
        level = float(np.mean(np.log((kappa * bins[:, 1] + variance * bins[:, 2]) / bins[:, 0])))
        value = kappa if name == "kappa" else variance
        print(f"  {name} = {value:.4g} fitted there; on the leave-one-out bins: misfit"
              f" {transfer[key + '_transfer_misfit']:.3g}, loss {transfer[key + '_transfer_loss']:.3g},"
              f" level {level:+.3f} (RMS spread x {math.exp(level / 2):.2f} of the RMSE)")
    print_transfer_rule(calibration, transfer)


def print_transfer_rule(calibration, transfer):
    """The form that step 6's rule keeps, from the fits and losses stored in the file."""
    kappa, variance = transfer["inflation_candidate"]["factor"], transfer["candidate"]["variance"]
    losses = (transfer["inflation_transfer_loss"], transfer["variance_transfer_loss"])
    if None not in losses and kappa > 1 and variance > 0:
        reason, inflate = "the losses decide", losses[0] < losses[1]
    else:
        reason = ("a loss not finite" if None in losses else
                  "a fit there at its bound, kappa = 1 or tau^2 = 0") + ": the misfit decides"
        fitted = [c["misfit"] for c in calibration["candidates"]
                  if c["variance"] > 0 and c["misfit"] is not None]
        inflate = calibration["inflation_candidate"]["misfit"] < min(fitted, default=math.inf)
    print(f"  the rule keeps {'kappa' if inflate else 'tau^2'} ({reason}; the file records"
          f" decided = {str(transfer['decided']).lower()})")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: calibration_forms.py RUN_DIR")
    path = os.path.join(sys.argv[1], "discrepancy.json")
    with open(path) as file:
        calibration = json.load(file)
    experiments = {e["experiment"] for e in calibration["training_experiments"]}
    grid = variance_grid(calibration)
    chosen = ("kappa = %.4g" % calibration["inflation"] if calibration["inflation"] > 1
              else "tau^2 = %.4g at T = %g" % (calibration["variance"], calibration["timescale"]))
    print(f"{path}: {calibration['samples']} samples per ensemble; calibrate chose {chosen}\n")
    print_log_ratios(calibration)
    print_fits(calibration, experiments, grid)
    print_cross_validation(calibration, experiments, grid)
    print_transfer(calibration, experiments)


if __name__ == "__main__":
    main()
