#!/usr/bin/env python3
"""Makes the example measurements burgers-sensors.csv and u0.csv from a simulation.

Three Burgers experiments (simulate.toml) are "measured" by scattered sensors: each
experiment on its own space-time window, with its own number of points (random grid
points of the window), and Gaussian noise of 1 % of the experiment's std(u) (recorded in
a sigma column). A fourth experiment's u(x, 0) at 80 random points of [-8, 8) is u0.csv,
an initial condition to predict from. Deterministic: the seeds are fixed.

Usage: python3 examples/sensors/make_sensors.py [BHPM] (default build/src/bhpm)
Needs numpy and h5py (scripts/install-deps.sh installs them).
"""

import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
# (name, points, x window, t window)
SENSORS = [
    ("tank A", 1500, (-8.0, 4.0), (0.0, 10.0)),
    ("tank B", 2200, (-6.0, 8.0), (2.0, 10.0)),
    ("tank C", 1800, (-8.0, 8.0), (0.0, 7.0)),
]


def main():
    bhpm = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "build", "src", "bhpm")
    with tempfile.TemporaryDirectory() as work:
        data = os.path.join(work, "truth.h5")
        subprocess.run([bhpm, "simulate", os.path.join(HERE, "simulate.toml"), "-o", data, "-q"],
                       check=True, stdout=subprocess.DEVNULL)
        with h5py.File(data) as f:
            u, x, t = f["train/u"][:], f["train/x"][:], f["train/t"][:]
    rng = np.random.default_rng(2026)
    with open(os.path.join(HERE, "burgers-sensors.csv"), "w") as out:
        out.write("experiment,x,t,u,sigma\n")
        out.write("# Burgers u_t = -u u_x + 0.1 u_xx, three tanks; made by make_sensors.py\n")
        for e, (name, count, (x0, x1), (t0, t1)) in enumerate(SENSORS):
            xi = np.flatnonzero((x >= x0) & (x <= x1))
            ti = np.flatnonzero((t >= t0) & (t <= t1))
            chosen = rng.choice(xi.size * ti.size, count, replace=False)
            rows, cols = np.divmod(chosen, xi.size)
            clean = u[e, ti[rows], xi[cols]]
            sigma = 0.01 * u[e].std()
            noisy = clean + sigma * rng.normal(size=count)
            for xv, tv, uv in zip(x[xi[cols]], t[ti[rows]], noisy):
                out.write(f"{name},{xv:.6f},{tv:.4f},{uv:.6f},{sigma:.6f}\n")
    with open(os.path.join(HERE, "u0.csv"), "w") as out:
        out.write("x,u\n")
        points = np.sort(rng.choice(x.size, 80, replace=False))
        for j in points:
            out.write(f"{x[j]:.6f},{u[3, 0, j]:.6f}\n")


if __name__ == "__main__":
    main()
