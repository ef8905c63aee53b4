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

Usage: distill_table.py RUN_DIR [RUN_DIR ...]
"""

import json
import os
import re
import sys


def noise_of(config):
    match = re.search(r"^\s*noise\s*=\s*([0-9.eE+-]+)", config, re.MULTILINE)
    return float(match.group(1)) if match else float("nan")


def report(run_dir):
    path = os.path.join(run_dir, "distill.json")
    if not os.path.exists(path):
        print(f"{run_dir}: no distill.json")
        return None
    d = json.load(open(path))
    terms = d["terms"]
    true_terms = [t for t in terms if t["truth"] is not None and abs(t["truth"]) > 1e-6]
    others = [t for t in terms if t not in true_terms]
    print(f"{os.path.basename(run_dir.rstrip('/'))}: epsilon = {noise_of(d['config']):.4g}, "
          f"{d['settings']['samples']} samples at {d['settings']['points']} points")
    print(f"  {d['equation']}")
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
    kept = all(t["inclusion"] >= 0.9 for t in true_terms)
    clean = worst["inclusion"] <= 0.5
    print(f"  largest other inclusion: {worst['inclusion']:.2f} ({worst['name']}, median "
          f"{worst['median']:.3g}); explained {d['explained']:.5f}"
          f"{' (WARNING: ' + d['warning'][:60] + '...)' if d['warning'] else ''}")
    print(f"  true terms kept >= 0.9: {'yes' if kept else 'no'}; no other above 0.5: "
          f"{'yes' if clean else 'no'}; intervals covering the truth: {covered} of "
          f"{len(true_terms)}")
    return kept and clean


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
