#!/usr/bin/env python3
"""Whether one spread factor could calibrate a folder of prediction ensembles.

    python3 bench/rescaled_calibration.py FOLDER [C ...]

FOLDER holds prediction-test-*.h5 with truth/u (bench/calibration.sh makes it). For each
factor c (default 1 1.5 2 3 4 6 9) every ensemble's sound members X_i are moved to
mean + sqrt(c) (X_i - mean), a first-order stand-in for predicting with a spread inflation
c times the one used (the members' deviations from their mean scale with the operator's to
first order, docs/calibration.md, "Spread inflation"), and the pooled figures of
bench/calibration_table.py are printed for it: 50 / 90 / 95 % coverage, err/spread (finite
m), energy spread/skill, CRPS and both outer rank bins together (calibrated: 2 / (m + 1)).
When no c meets the coverage and ratio criteria together, the spread's shape over (x, t),
not its size, is what differs from the errors'. A diagnostic of the held-out ensembles: it
fits nothing, and a kappa must never be chosen from it (calibration reads training data
only). Standard library, numpy and h5py only.
"""
import math
import sys

import numpy as np

from calibration_table import (InputError, fair_crps, pooled_parts, pooled_summary,
                               prediction_files, read_prediction)

DEFAULT_FACTORS = [1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 9.0]


def rescaled(sound, factor):
    """sound [m, T', n] with every member's deviation from the mean scaled by sqrt(factor)."""
    mean = sound.mean(axis=0)
    return mean + math.sqrt(factor) * (sound - mean)


def pooled_at(ensembles, factor):
    rows = []
    for sound, truth in ensembles:
        members = rescaled(sound, factor)
        rows.append({"pooled_parts": pooled_parts(members, truth),
                     "crps": fair_crps(members, truth)})
    return pooled_summary(rows)


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print("usage: python3 bench/rescaled_calibration.py FOLDER [C ...]", file=sys.stderr)
        return 2
    try:
        factors = [float(c) for c in argv[2:]] or DEFAULT_FACTORS
        if not all(math.isfinite(c) and c > 0 for c in factors):
            raise ValueError("every factor C must be a finite number > 0")
        ensembles = []
        for _, path in prediction_files(argv[1]):
            sound, truth = read_prediction(path)[:2]
            if sound.shape[0] >= 2:
                ensembles.append((sound, truth))
        if not ensembles:
            raise InputError(f"{argv[1]}: no prediction with two sound samples")
    except (InputError, OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"{len(ensembles)} initial conditions; pooled figures with the members' deviations "
          "scaled by sqrt(c)")
    print(f"{'c':>6} {'cov50':>6} {'cov90':>6} {'cov95':>6} {'err/spread':>10} "
          f"{'spread/skill':>12} {'CRPS':>8} {'outer bins':>10} {'calibrated':>10}")
    for factor in factors:
        s = pooled_at(ensembles, factor)
        print(f"{factor:6.3g} {s['coverage']['0.5']:6.3f} {s['coverage']['0.9']:6.3f} "
              f"{s['coverage']['0.95']:6.3f} {s['error_spread_ratio']:10.2f} "
              f"{s['spread_skill']:12.2f} {s['crps']:8.4f} {sum(s['outer_bins']):10.3f} "
              f"{2 * s['calibrated_outer_bin']:10.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
