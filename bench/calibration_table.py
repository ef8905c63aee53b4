#!/usr/bin/env python3
"""Calibration table of prediction ensembles against their stored true solutions.

Reads every prediction-test-*.h5 (format bhpm-ensemble, with truth/u: `bhpm predict
--ic-from`) in a folder, prints one row per initial condition and a summary, and writes
every number to FOLDER/calibration.json (atomically). bench/calibration.sh makes the folder;
this also runs alone. Nothing is asserted: a benchmark prints, and machines are noisy.

    python3 bench/calibration_table.py RUN_DIR/calibration

Only the sound samples (samples/diverged == 0) of samples/u [S, T, n] count; the truth is
truth/u [T, n]. Row t = 0 (the initial condition, which every sample matches exactly) is
left out of every number. With X the sound samples (m of them), mean and std over them
(std with 1/(m - 1)) and y the truth, over all remaining grid values (t, x):
  rel L2     ||mean - y|| / ||y||
  cov50/90/95  fraction of y inside the p = 0.5 / 0.9 / 0.95 prediction bands
             mean -+ t_{m-1}((1 + p)/2) sqrt(1 + 1/m) std (inclusive; the band bhpm writes
             as statistics/band_lower, band_upper for p = 0.95: src/util/student_t.h)
  err/spread RMSE(mean - y) / RMS(std): about 1 when the band is as wide as the errors,
             above 1 too narrow (overconfident), below 1 too wide
  e/s early, e/s late  the same ratio over the first and the last fifth of the output
             times (at least one each): whether the band's width follows the error's
             growth in time, which one number over the whole horizon hides
  CRPS       mean of E|X - y| - 1/2 E|X - X'|, the fair (unbiased) ensemble estimator:
             E|X - X'| = sum_{i,j} |X_i - X_j| / (m (m - 1))
  cal cov95, cal in, rank  the same 95 % coverage with each sound member in turn as the
             truth and the band of the other m - 1 (a truth exchangeable with the members:
             a calibrated model): the 10-90 % range of those m coverages, the fraction of
             them within [0.90, 0.99], and the truth's mid-rank among them. Errors coherent
             over (x, t) make one initial condition's coverage vary widely even for a
             calibrated ensemble (mostly 1, sometimes far below 0.95), so "cal in" summed
             over the rows is how many initial conditions a calibrated model would put
             within [0.90, 0.99] (the summary adds the probability that it puts at least
             k there, the rows taken as independent: a Poisson binomial); the ranks are
             uniform on [0, 1] when it is calibrated
             (below 0.5 throughout: the truth lies further out than the members)
  diverged   samples with samples/diverged == 1 (the sound samples have neither flag)
  rejected   samples with samples/rejected == 1 (ill-posed along the initial condition)
  repaired   samples with samples/repaired == 1 (ill-posed, solved with added diffusion;
             they are sound samples and scored)
  outside    the file's attribute `outside_coverage`: fraction of the path (x, t) where the
             root's posterior variance exceeds a tenth of its prior variance ("-" without it)
  seconds    wall time of the prediction from FOLDER/timings.csv (experiment,seconds,
             exit_code), "-" without it
A prediction that failed (non-zero exit_code in timings.csv) has a row saying so.
Pooled over every grid value of every initial condition (the summary's "pooled" lines; a
calibrated ensemble meets each reference whatever the errors' coherence within one
initial condition):
  coverage   the 50 / 90 / 95 % bands' coverage averaged over all grid values
  err/spread sqrt(sum (mean - y)^2 / sum std^2) / sqrt(1 + 1/m): 1 when calibrated
             (the finite-m correction of the ensemble mean's own error)
  spread/skill  the energy score's: sum over initial conditions of the mean whole-field
             distance ||X_i - X_j|| between members (i != j) over the sum of the mean
             distance ||X_i - y|| from members to the truth: 1 when calibrated (a coherent
             error counts once, not once per grid value)
  CRPS       the mean of the rows' CRPS
  rank histogram  the truth's rank among the m sound members at every grid value (ties
             split at random, seed 0), m + 1 bins as fractions; each outer bin (truth below
             or above every member) is 1/(m + 1) when calibrated
             (ICs of other m are left out of it)
A calibrated ensemble (y exchangeable with m Gaussian samples) has these coverages p and
err/spread about sqrt(1 + 1/m); the summary prints this reference for the median m. (The
empirical quantiles of m samples would cover only about p (m - 1)/(m + 1).) When FOLDER/function-metrics.json exists (`bhpm evaluate
--function-only`), its rmse, mean_nlpd and coverage are printed as the root's function-only
calibration (no sigma_f^2).
Standard library, numpy and h5py only.
"""
import csv
import json
import math
import os
import re
import statistics
import sys
import tempfile

import h5py
import numpy as np

BANDS = {"0.5": (0.25, 0.75), "0.9": (0.05, 0.95), "0.95": (0.025, 0.975)}
PREDICTION = re.compile(r"^prediction-test-(.+)\.h5$")


class InputError(Exception):
    pass


def experiment_key(label):
    return (0, int(label), "") if label.isdigit() else (1, 0, label)


def prediction_files(folder):
    if not os.path.isdir(folder):
        raise InputError(f"{folder}: not a folder")
    found = [(m.group(1), os.path.join(folder, name))
             for name in os.listdir(folder) if (m := PREDICTION.match(name))]
    return sorted(found, key=lambda item: experiment_key(item[0]))


def text_attribute(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def read_prediction(path):
    """Sound samples [m, T-1, n], truth [T-1, n], diverged, rejected and repaired counts,
    the fraction of the path outside the data's coverage (NaN when the file has none)."""
    try:
        f = h5py.File(path, "r")
    except OSError as error:
        raise InputError(f"{path}: not a readable HDF5 file ({error})") from None
    with f:
        fmt = text_attribute(f.attrs.get("format", ""))
        if fmt != "bhpm-ensemble":
            raise InputError(f"{path}: format is '{fmt}', not bhpm-ensemble")
        if int(f.attrs.get("format_version", 1)) > 1:
            raise InputError(f"{path}: format_version {f.attrs['format_version']} is newer than 1")
        for name in ("samples/u", "samples/diverged", "truth/u"):
            if name not in f:
                raise InputError(f"{path}: no {name} (truth/u: predict with --ic-from)")
        u = f["samples/u"][()]
        diverged = f["samples/diverged"][()].astype(np.int64)
        truth = f["truth/u"][()]
        rejected = (f["samples/rejected"][()].astype(np.int64) if "samples/rejected" in f
                    else np.zeros_like(diverged))
        repaired = int(np.sum(f["samples/repaired"][()] == 1)) if "samples/repaired" in f else 0
        outside = float(f.attrs.get("outside_coverage", math.nan))
    if u.ndim != 3 or truth.shape != u.shape[1:] or diverged.shape != u.shape[:1] \
            or rejected.shape != diverged.shape:
        raise InputError(f"{path}: shapes samples/u {u.shape}, samples/diverged "
                         f"{diverged.shape}, samples/rejected {rejected.shape}, truth/u "
                         f"{truth.shape} do not fit")
    sound = (diverged == 0) & (rejected == 0)
    return (u[sound, 1:], truth[1:], int(np.sum(diverged == 1)), int(np.sum(rejected == 1)),
            repaired, outside)


def fair_crps(sound, truth):
    """Mean over grid values of E|X - y| - 1/2 E|X - X'| with 1/(m (m - 1)) pairs."""
    m = sound.shape[0]
    if m < 2:
        return math.nan
    first = np.mean(np.abs(sound - truth), axis=0)
    ordered = np.sort(sound, axis=0)
    weights = (2 * np.arange(1, m + 1) - m - 1).reshape((m,) + (1,) * (sound.ndim - 1))
    pair_sum = 2 * np.sum(weights * ordered, axis=0)  # sum over i, j of |X_i - X_j|
    return float(np.mean(first - pair_sum / (2 * m * (m - 1))))


def student_t_quantile(p, nu):
    """The p-quantile (p >= 0.5) of Student's t with nu degrees of freedom: bisection on
    the CDF by Simpson's rule, as src/util/student_t.cpp."""
    log_norm = math.lgamma((nu + 1) / 2) - math.lgamma(nu / 2) - 0.5 * math.log(nu * math.pi)

    def cdf(x):
        t = np.linspace(0.0, x, 4001)
        f = np.exp(log_norm - 0.5 * (nu + 1) * np.log1p(t * t / nu))
        w = np.ones(4001)
        w[1:-1:2], w[2:-1:2] = 4.0, 2.0
        return 0.5 + float(np.sum(w * f)) * (x / 4000) / 3

    low, high = 0.0, 1.0
    while cdf(high) < p and high < 1e3:
        high *= 2
    while high - low > 1e-10 * max(1.0, high):
        middle = (low + high) / 2
        low, high = (middle, high) if cdf(middle) < p else (low, middle)
    return (low + high) / 2


def band_coverage(sound, truth, p, quantile=None):
    """Fraction of truth [T', n] inside the p-band of sound [m, T', n]; quantile, when
    given, is t_{m-1}((1 + p)/2) already computed."""
    m = sound.shape[0]
    if quantile is None:
        quantile = student_t_quantile((1 + p) / 2, m - 1)
    mean, std = sound.mean(axis=0), sound.std(axis=0, ddof=1)
    half = quantile * math.sqrt(1 + 1 / m) * std
    return float(np.mean((truth >= mean - half) & (truth <= mean + half)))


def coverages(sound, truth):
    return {name: band_coverage(sound, truth, hi - lo) for name, (lo, hi) in BANDS.items()}


def member_as_truth(sound, truth_coverage95):
    """The spread of the 95 % coverage that a calibrated ensemble shows on one initial
    condition: each sound member j in turn plays the truth, scored by the band of the
    other m - 1. Returns the 10 % and 90 % quantiles of those m coverages, the fraction
    of them within [0.90, 0.99], and the truth's mid-rank among them (the fraction of
    members covered less than the truth plus half of those covered equally): uniform over
    initial conditions when the truth is exchangeable with the members."""
    m = sound.shape[0]
    if m < 3:
        nan = math.nan
        return {"coverage95_q10": nan, "coverage95_q90": nan, "within_0.90_0.99": nan,
                "truth_rank": nan}
    quantile = student_t_quantile(0.975, m - 2)
    covered = np.array([band_coverage(np.delete(sound, j, axis=0), sound[j], 0.95, quantile)
                        for j in range(m)])
    return {"coverage95_q10": float(np.quantile(covered, 0.1)),
            "coverage95_q90": float(np.quantile(covered, 0.9)),
            "within_0.90_0.99": float(np.mean((covered >= 0.90) & (covered <= 0.99))),
            "truth_rank": float(np.mean(covered < truth_coverage95)
                                + 0.5 * np.mean(covered == truth_coverage95))}


def error_spread(sound, truth):
    """RMSE(mean - y) / RMS(std) over all of sound [m, T', n] and truth [T', n]."""
    rmse = math.sqrt(np.mean((sound.mean(axis=0) - truth) ** 2))
    rms_std = math.sqrt(np.mean(sound.var(axis=0, ddof=1)))
    return rmse / rms_std if rms_std > 0 else math.inf


def scores(sound, truth):
    if sound.shape[0] < 2:  # no spread, no bands
        nan = math.nan
        return {"relative_l2": nan, "coverage": {k: nan for k in BANDS},
                "error_spread_ratio": nan, "error_spread_early": nan, "error_spread_late": nan,
                "crps": nan, "member_as_truth": member_as_truth(sound, nan)}
    mean = sound.mean(axis=0)
    fifth = max(1, truth.shape[0] // 5)
    covered = coverages(sound, truth)
    return {"relative_l2": float(np.linalg.norm(mean - truth) / np.linalg.norm(truth)),
            "coverage": covered, "member_as_truth": member_as_truth(sound, covered["0.95"]),
            "error_spread_ratio": error_spread(sound, truth),
            "error_spread_early": error_spread(sound[:, :fifth], truth[:fifth]),
            "error_spread_late": error_spread(sound[:, -fifth:], truth[-fifth:]),
            "crps": fair_crps(sound, truth)}


def pooled_parts(sound, truth):
    """The sums that pool over initial conditions: grid values inside each band, squared
    error of the mean, variance, mean pairwise and member-to-truth whole-field distances,
    and the truth's rank among the members at every grid value."""
    m = sound.shape[0]
    if m < 2:
        return None
    mean, variance = sound.mean(axis=0), sound.var(axis=0, ddof=1)
    flat = sound.reshape(m, -1)
    pairwise = np.sqrt(np.maximum(
        np.sum(flat ** 2, axis=1)[:, None] + np.sum(flat ** 2, axis=1)[None, :]
        - 2 * flat @ flat.T, 0.0))
    below = np.sum(sound < truth, axis=0)
    ties = np.sum(sound == truth, axis=0)
    rng = np.random.default_rng(0)
    ranks = below + np.floor(rng.random(below.shape) * (ties + 1)).astype(np.int64)
    return {"members": m, "values": truth.size,
            "inside": {name: band_coverage(sound, truth, hi - lo) * truth.size
                       for name, (lo, hi) in BANDS.items()},
            "squared_error": float(np.sum((mean - truth) ** 2)),
            "variance": float(np.sum(variance)),
            "pairwise_distance": float(np.sum(pairwise) / (m * (m - 1))),
            "truth_distance": float(np.mean(np.linalg.norm(flat - truth.reshape(1, -1), axis=1))),
            "rank_counts": np.bincount(ranks.ravel(), minlength=m + 1).tolist()}


def pooled_summary(rows):
    """Pooled coverage, corrected err/spread, energy spread/skill, CRPS and rank histogram
    over the rows' pooled_parts (see the module's docstring)."""
    parts = [r["pooled_parts"] for r in rows if r.get("pooled_parts")]
    if not parts:
        return None
    values = sum(p["values"] for p in parts)
    m = statistics.median_low([p["members"] for p in parts])
    same_m = [p for p in parts if p["members"] == m]
    counts = np.sum([p["rank_counts"] for p in same_m], axis=0)
    histogram = (counts / counts.sum()).tolist()
    correction = statistics.fmean(math.sqrt(1 + 1 / p["members"]) for p in parts)
    return {"initial_conditions": len(parts),
            "coverage": {k: sum(p["inside"][k] for p in parts) / values for k in BANDS},
            "error_spread_ratio": math.sqrt(sum(p["squared_error"] for p in parts)
                                            / sum(p["variance"] for p in parts)) / correction,
            "spread_skill": sum(p["pairwise_distance"] for p in parts)
                            / sum(p["truth_distance"] for p in parts),
            "crps": statistics.fmean(r["crps"] for r in rows if math.isfinite(r["crps"])),
            "rank_histogram_members": m, "rank_histogram": histogram,
            "outer_bins": [histogram[0], histogram[-1]], "calibrated_outer_bin": 1 / (m + 1)}


def read_timings(folder):
    """{experiment: (seconds, exit_code)} from timings.csv, {} without it."""
    path = os.path.join(folder, "timings.csv")
    if not os.path.isfile(path):
        return {}
    with open(path, newline="") as f:
        try:
            return {row["experiment"]: (float(row["seconds"]), int(row["exit_code"]))
                    for row in csv.DictReader(f)}
        except (KeyError, TypeError, ValueError):
            raise InputError(f"{path}: not experiment,seconds,exit_code lines") from None


def read_function_metrics(folder):
    path = os.path.join(folder, "function-metrics.json")
    if not os.path.isfile(path):
        return None
    with open(path) as f:
        try:
            metrics = json.load(f)
        except ValueError as error:
            raise InputError(f"{path}: not JSON ({error})") from None
    try:
        return {"file": path, "rmse": metrics["rmse"], "mean_nlpd": metrics["mean_nlpd"],
                "coverage": {k: metrics["coverage"][k] for k in BANDS}}
    except (KeyError, TypeError) as missing:
        raise InputError(f"{path}: no {missing} (not a metrics.json layout)") from None


def finite_median(values):
    finite = [v for v in values if v is not None and math.isfinite(v)]
    return statistics.median(finite) if finite else math.nan


def calibrated_reference(m):
    """What a calibrated ensemble of m members scores on average (finite-ensemble bias)."""
    if not m >= 2:
        return {"sound_samples": m, "coverage": {k: math.nan for k in BANDS},
                "error_spread_ratio": math.nan}
    return {"sound_samples": m,
            "coverage": {k: hi - lo for k, (lo, hi) in BANDS.items()},
            "error_spread_ratio": math.sqrt(1 + 1 / m)}


def summarise(rows, failed):
    cov95 = [r["coverage"]["0.95"] for r in rows]
    median_members = statistics.median_low([r["sound_samples"] for r in rows])
    return {"initial_conditions": len(rows),
            "median_coverage": {k: finite_median([r["coverage"][k] for r in rows]) for k in BANDS},
            "coverage95_within_0.90_0.99": sum(1 for c in cov95 if 0.90 <= c <= 0.99),
            "median_error_spread_ratio": finite_median([r["error_spread_ratio"] for r in rows]),
            "median_error_spread_early": finite_median([r["error_spread_early"] for r in rows]),
            "median_error_spread_late": finite_median([r["error_spread_late"] for r in rows]),
            "median_relative_l2": finite_median([r["relative_l2"] for r in rows]),
            "diverged": sum(r["diverged"] for r in rows),
            "rejected": sum(r["rejected"] for r in rows),
            "repaired": sum(r["repaired"] for r in rows),
            "failed_predictions": len(failed),
            "calibrated_reference": calibrated_reference(median_members),
            "member_as_truth": member_as_truth_summary(rows),
            "pooled": pooled_summary(rows)}


def member_as_truth_summary(rows):
    """How many initial conditions a calibrated ensemble would have within [0.90, 0.99]:
    the sum of the per-row probabilities (their members as the truth) and its standard
    deviation (independent initial conditions, a Poisson binomial); the truth's ranks."""
    within = [r["member_as_truth"]["within_0.90_0.99"] for r in rows]
    within = [p for p in within if math.isfinite(p)]
    ranks = sorted(r["member_as_truth"]["truth_rank"] for r in rows
                   if math.isfinite(r["member_as_truth"]["truth_rank"]))
    return {"expected_within_0.90_0.99": float(sum(within)),
            "sd_within_0.90_0.99": math.sqrt(sum(p * (1 - p) for p in within)),
            "probability_at_least": at_least_probabilities(within),
            "truth_ranks": ranks}


def at_least_probabilities(probabilities):
    """P(count >= k) for k = 0..n of a sum of independent Bernoulli(p_i) (the Poisson
    binomial, by convolution): how likely a calibrated model is to put at least k initial
    conditions within [0.90, 0.99], the count that issue-style criteria ask for."""
    distribution = [1.0]
    for p in probabilities:
        distribution = [(distribution[k] if k < len(distribution) else 0.0) * (1 - p)
                        + (distribution[k - 1] * p if k > 0 else 0.0)
                        for k in range(len(distribution) + 1)]
    tail, tails = 0.0, []
    for probability in reversed(distribution):
        tail += probability
        tails.append(min(tail, 1.0))
    return list(reversed(tails))


def number(value, digits=3):
    if value is None:
        return "-"
    return f"{value:.{digits}g}" if math.isfinite(value) else str(value)


def print_table(rows, failed):
    header = ("experiment", "rel L2", "cov50", "cov90", "cov95", "cal cov95", "cal in",
              "rank", "err/spread", "e/s early", "e/s late", "CRPS", "diverged", "rejected",
              "repaired", "outside", "seconds")
    line = ("{:>10} {:>9} {:>6} {:>6} {:>6} {:>11} {:>6} {:>5} {:>10} {:>9} {:>8} {:>9} {:>8}"
            " {:>8} {:>8} {:>7} {:>8}")
    lines = []
    for r in rows:
        c = r["coverage"]
        ref = r["member_as_truth"]
        lines.append((r["experiment"], line.format(
            r["experiment"], number(r["relative_l2"]), number(c["0.5"]), number(c["0.9"]),
            number(c["0.95"]),
            f"{number(ref['coverage95_q10'], 2)}-{number(ref['coverage95_q90'], 2)}",
            number(ref["within_0.90_0.99"], 2), number(ref["truth_rank"], 2),
            number(r["error_spread_ratio"]),
            number(r["error_spread_early"]), number(r["error_spread_late"]), number(r["crps"]),
            r["diverged"], r["rejected"], r["repaired"], number(r["outside"], 2), number(r["seconds"], 4))))
    for f in failed:
        lines.append((f["experiment"], f"{f['experiment']:>10} prediction failed "
                      f"(exit {f['exit_code']}) after {number(f['seconds'], 4)} s"))
    print("Prediction bands against the true solution (t = 0, the initial condition, left out;"
          " CRPS: fair estimator)")
    print(line.format(*header))
    for _, text in sorted(lines, key=lambda item: experiment_key(item[0])):
        print(text)


def print_summary(s):
    m = s["median_coverage"]
    n = s["initial_conditions"]
    print()
    print(f"initial conditions scored       {n}")
    print(f"median coverage 50 / 90 / 95 %  {number(m['0.5'])} / {number(m['0.9'])} / "
          f"{number(m['0.95'])}")
    print(f"95 % coverage in [0.90, 0.99]   {s['coverage95_within_0.90_0.99']} of {n}")
    print(f"median error/spread ratio       {number(s['median_error_spread_ratio'])} (first "
          f"fifth of the times {number(s['median_error_spread_early'])}, last fifth "
          f"{number(s['median_error_spread_late'])})")
    print(f"median rel L2 of the mean       {number(s['median_relative_l2'])}")
    print(f"diverged samples                {s['diverged']}")
    print(f"rejected samples                {s['rejected']}")
    print(f"repaired samples                {s['repaired']}")
    print(f"failed predictions              {s['failed_predictions']}")
    ref = s["calibrated_reference"]
    c = ref["coverage"]
    print(f"a calibrated ensemble of m = {ref['sound_samples']} sound samples scores about "
          f"{number(c['0.5'], 2)} / {number(c['0.9'], 2)} / {number(c['0.95'], 2)} coverage, "
          f"error/spread {number(ref['error_spread_ratio'])}")
    members = s["member_as_truth"]
    print(f"95 % coverage in [0.90, 0.99] with the truth exchangeable with the members "
          f"(cal in, summed): {number(members['expected_within_0.90_0.99'], 2)} "
          f"+- {number(members['sd_within_0.90_0.99'], 2)} of {n}")
    tails = members["probability_at_least"]
    observed = s["coverage95_within_0.90_0.99"]
    print("probability that a calibrated model puts at least k of them within [0.90, 0.99]: "
          + ", ".join(f"k = {k}: {number(tails[k], 2)}"
                      for k in range(max(1, len(tails) - 5), len(tails)))
          + (f" (observed {observed}: {number(tails[observed], 2)})"
             if observed < len(tails) else ""))
    print("the truth's coverage ranks among its members' (uniform if calibrated): "
          + " ".join(number(rank, 2) for rank in members["truth_ranks"]))
    pooled = s["pooled"]
    if pooled is None:
        return
    c = pooled["coverage"]
    print(f"pooled coverage 50 / 90 / 95 %  {number(c['0.5'])} / {number(c['0.9'])} / "
          f"{number(c['0.95'])} over {pooled['initial_conditions']} initial conditions")
    print(f"pooled err/spread (finite m)    {number(pooled['error_spread_ratio'])} "
          f"(1 when calibrated)")
    print(f"pooled energy spread/skill      {number(pooled['spread_skill'])} (1 when calibrated)")
    print(f"pooled CRPS                     {number(pooled['crps'])}")
    outer = pooled["outer_bins"]
    print(f"pooled rank histogram (m = {pooled['rank_histogram_members']}): outer bins "
          f"{number(outer[0])} and {number(outer[1])} against {number(pooled['calibrated_outer_bin'])}"
          f" calibrated; all bins " + " ".join(number(v, 2) for v in pooled["rank_histogram"]))


def print_function_metrics(metrics):
    print()
    print("root, function only (no sigma_f)")
    if metrics is None:
        print("  no function-metrics.json (bhpm evaluate --function-only)")
        return
    c = metrics["coverage"]
    print(f"  rmse {number(metrics['rmse'])}  mean_nlpd {number(metrics['mean_nlpd'])}  "
          f"coverage 50 / 90 / 95 % {number(c['0.5'])} / {number(c['0.9'])} / {number(c['0.95'])}")


def json_ready(value):
    """NaN and infinities become null, as in the report's metrics.json."""
    if isinstance(value, dict):
        return {k: json_ready(v) for k, v in value.items()}
    if isinstance(value, list):
        return [json_ready(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def write_json_atomically(path, content):
    folder = os.path.dirname(path) or "."
    fd, temporary = tempfile.mkstemp(prefix=os.path.basename(path) + ".tmp-", dir=folder)
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(json_ready(content), f, indent=2, allow_nan=False)
            f.write("\n")
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def calibrate(folder):
    files = prediction_files(folder)
    timings = read_timings(folder)
    failed = [{"experiment": e, "seconds": s, "exit_code": code}
              for e, (s, code) in sorted(timings.items(), key=lambda i: experiment_key(i[0]))
              if code != 0]
    if not files:
        note = f" ({len(failed)} failed predictions in timings.csv)" if failed else ""
        raise InputError(f"{folder}: no prediction-test-*.h5 files{note}")
    rows = []
    for experiment, path in files:
        sound, truth, diverged, rejected, repaired, outside = read_prediction(path)
        seconds = timings[experiment][0] if experiment in timings else None
        rows.append({"experiment": experiment, "file": os.path.basename(path),
                     "sound_samples": sound.shape[0], **scores(sound, truth),
                     "pooled_parts": pooled_parts(sound, truth),
                     "diverged": diverged, "rejected": rejected, "repaired": repaired,
                     "outside": outside,
                     "seconds": seconds})
    return rows, failed


def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        print("usage: python3 bench/calibration_table.py FOLDER (with prediction-test-*.h5)",
              file=sys.stderr)
        return 2
    folder = argv[1]
    try:
        rows, failed = calibrate(folder)
        function_metrics = read_function_metrics(folder)
    except (InputError, OSError, ValueError, KeyError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    summary = summarise(rows, failed)
    print_table(rows, failed)
    print_summary(summary)
    print_function_metrics(function_metrics)
    output = os.path.join(folder, "calibration.json")
    write_json_atomically(output, {
        "folder": folder, "t0_left_out": True, "crps": "fair: 1/(m (m - 1)) pairs",
        "bands": {k: list(v) for k, v in BANDS.items()}, "experiments": rows,
        "failed": failed, "summary": summary, "root_function_only": function_metrics})
    print(f"\nwritten: {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
