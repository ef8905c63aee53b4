#!/usr/bin/env python3
"""Seeded fuzz test of bad inputs for the bhpm command line (run by fuzz_cli_test.sh).

Usage: fuzz_inputs.py BHPM WORK_DIR REPOSITORY_ROOT

Generates malformed inputs of five kinds, one case after another in turn:
  config  mutations of configs/quickstart.toml and configs/sensors.toml (wrong types,
          out-of-range or non-finite numbers, unknown keys and sections, duplicate keys,
          truncated text, random bytes, UTF-16) given to `bhpm run` or `bhpm simulate`;
  csv     measurement CSVs for `bhpm import` (missing, renamed or duplicated columns,
          non-numeric cells, NaN/Inf, overflowing numbers, a 10 MB field, wrong field
          counts, CR-only line ends, UTF-16, empty, header only, binary garbage, repeated
          points, experiments of one point or zero extent), and the valid spreadsheet form
          (byte-order mark, CRLF, comments, quotes), which must be accepted;
  npz     NumPy archives for `bhpm import` (a flipped byte that fails a member's CRC-32, a
          truncated archive, missing arrays, wrong shapes, lengths and dtypes, NaN/Inf);
  hdf5    HDF5 files where a measurement file or a BHPM dataset is expected: `bhpm import`
          (truncated, missing or 2-D arrays, string or fractional experiment ids, a group
          for an array), `bhpm train --data` and `bhpm evaluate --data` (truncated files,
          missing datasets or attributes, a newer format version, NaN/Inf, points outside
          their window, repeated points, lengths that differ);
  run     damage to a tiny trained run folder (run.toml, data.h5, root.h5, joint.ckpt and
          the other checkpoints truncated, emptied, overwritten at the start, a byte
          flipped, a dataset removed or made non-finite), then `bhpm predict`, `evaluate`,
          `distill` or `run` (resume) on it.

Each malformed case must exit with status 1 or 2 within its time limit (no crash, no
hang), print on stderr the offending file's name and, where a field, key, column, array or
experiment is at fault, that one; and leave its folder as it was: no output file, no run
folder, no temporary file, inputs untouched (only the run folder lock's time may change).
The valid case (the spreadsheet CSV: the first csv case, and again in its turn; it keeps
the generator honest) must exit 0 and write its output.

Every case draws from its own generator, seeded by (seed, case number), so one case
replays alone: BHPM_FUZZ_SEED (default 20260) picks the seed, BHPM_FUZZ_CASES (default 72)
the number of cases, BHPM_FUZZ_ONLY a comma-separated list of case numbers to run, and
BHPM_FUZZ_SECONDS (default 45) the wall time after which no new case starts. Prints one
line per case (ok or FAILED with what was wrong, and the end of stderr; with
BHPM_FUZZ_VERBOSE=1 that of the cases passed too) and exits 1 if any failed.
"""
import os
import pathlib
import random
import re
import shutil
import subprocess
import sys
import time
import tomllib
import zipfile

import h5py
import numpy as np

CASE_TIMEOUT = 10  # seconds for one command; a bad input is refused in about one
KINDS = ["config", "csv", "npz", "hdf5", "run"]

# A run small enough to make in about a second: heat, 16 modes, 2 + 1 experiments.
TINY_TOML = """seed = 5
[equation]
name = "heat"
[domain]
t_end = 1.0
[solver]
modes = 16
output_dt = 0.1
[data]
train_experiments = 2
test_experiments = 1
n_st = 64
[leaves]
width = 8
hidden_layers = 1
[train_leaves]
iterations = 10
[root]
inducing_points = 8
[train_root]
iterations = 5
points = 32
[train_joint]
iterations = 5
[predict]
samples = 2
max_rounds = 1
[distill]
samples = 4
[run]
stages = ["simulate", "train"]
"""


class Case:
    """One generated case: the command, the file at fault, the names one of which the
    message must hold (None: the file alone), and whether the input is valid."""

    def __init__(self, description, argv, file, fields=None, valid=False, output=None):
        self.description, self.argv, self.file = description, argv, file
        self.fields, self.valid, self.output = fields, valid, output


# ---------------------------------------------------------------------------------------
# Configurations

# (section, key, bad values as TOML text): each value breaks the rule docs/configuration.md
# gives the key (a type, a range, a name from a list, finiteness). "" is the top level.
TYPE_ERRORS = [
    ("", "seed", ['"7"', "1.5", "true"]),
    ("solver", "modes", ['"256"', "256.0", "[256]", "inf"]),
    ("data", "n_st", ['"a"', "8192.5", "nan"]),
    ("equation", "nu", ['"0.1"', "true"]),
    ("root", "train_inducing_inputs", ['"yes"', "1"]),
    ("train_joint", "optimal_root_posterior", ['"true"', "0"]),
    ("root", "kernel", ["3", "true"]),
    ("run", "stages", ["3", "[1, 2]"]),
    ("distill", "weak_grid", ["256", '"256,128"', "[256.5, 128.0]"]),
    ("leaves", "width", ["64.0", '"64"']),
    ("predict", "samples", ['"32"', "[32]"]),
    ("train_leaves", "iterations", ["1e3", '"4000"']),
    ("initial_condition", "kind", ["1"]),
    ("compute", "device", ["0"]),
    ("domain", "x_min", ['"-8"']),
]
RANGE_ERRORS = [
    ("", "seed", ["-1"]),
    ("solver", "modes", ["0", "7", "2", "-4"]),
    ("solver", "dt", ["0.0", "-0.005"]),
    ("solver", "tolerance", ["1.0", "-0.1"]),
    ("solver", "output_dt", ["0.0", "0.03"]),
    ("solver", "dealias", ['"sideways"']),
    ("solver", "contour_points", ["7", "4097"]),
    ("solver", "blowup_factor", ["0.0", "-1.0"]),
    ("domain", "t_end", ["0.0", "-1.0"]),
    ("domain", "x_max", ["-9.0"]),
    ("initial_condition", "kind", ['"sine"']),
    ("initial_condition", "length_scale", ["0.01", "0.0"]),
    ("data", "train_experiments", ["0", "-2"]),
    ("data", "test_experiments", ["-1"]),
    ("data", "n_st", ["0", "1000000"]),
    ("data", "noise", ["-0.1"]),
    ("leaves", "hidden_layers", ["0"]),
    ("leaves", "width", ["0"]),
    ("leaves", "first_omega", ["0.0", "-3.0"]),
    ("leaves", "initialization", ['"he"']),
    ("leaves", "precision", ['"float16"', "32"]),
    ("leaves", "initial_noise", ["0.0"]),
    ("train_leaves", "iterations", ["-1"]),
    ("train_leaves", "learning_rate", ["0.0", "-0.001"]),
    ("train_leaves", "final_learning_rate", ["0.0"]),
    ("train_leaves", "batch_size", ["-1"]),
    ("train_leaves", "validation_every_nth_point", ["1"]),
    ("train_leaves", "validation_interval", ["0"]),
    ("train_leaves", "checkpoint_every", ["0"]),
    ("root", "order", ["7", "-1"]),
    ("root", "inducing_points", ["0"]),
    ("root", "kernel", ['"matern"']),
    ("root", "input_noise", ['"gaussian"']),
    ("root", "kmeans_iterations", ["-1"]),
    ("train_root", "iterations", ["-5"]),
    ("train_root", "points", ["0"]),
    ("train_joint", "batch_size", ["-1"]),
    ("train_joint", "checkpoint_every", ["0"]),
    ("predict", "samples", ["0"]),
    ("predict", "sampler", ['"gibbs"']),
    ("predict", "solver", ['"fem"']),
    ("predict", "relative_tolerance", ["0.0"]),
    ("predict", "max_rounds", ["0"]),
    ("predict", "step_tolerance", ["1.0"]),
    ("predict", "max_interval_steps", ["-1"]),
    ("predict", "discrepancy", ['"maybe"']),
    ("predict", "spread_inflation", ["0.0"]),
    ("predict", "ill_posed", ['"ignore"']),
    ("predict", "calibration_samples", ["1"]),
    ("predict", "max_amplification", ["1.0"]),
    ("predict", "operator", ['"neural"']),
    ("predict", "calibration_method", ['"guess"']),
    ("distill", "samples", ["1"]),
    ("distill", "degree", ["0", "6"]),
    ("distill", "max_unexplained", ["0.0", "1.0"]),
    ("distill", "weak_grid", ["[8, 8]", "[256]"]),
    ("distill", "weak_space_factors", ["[0.0]", "[-1.0, 2.0]"]),
    ("run", "stages", ['["simulate", "simulate"]', '["fly"]']),
    ("run", "predict_experiments", ["[99]", "[0, 0]"]),
    ("run", "data", ['"no-such-data.h5"']),
    ("run", "predict_ic_files", ['["no-such-u0.csv"]']),
    ("compute", "device", ['"tpu"', '"cuda:x"']),
    ("refinement_study", "grid_points", ["5"]),
    ("refinement_study", "tolerances", ["[1e-3, 1e-2]"]),
]
# NaN breaks every rule of a number; +-Inf only those with a bound on that side or
# finiteness (an Inf where the rule is only "> 0" is left out: the docs do not forbid it).
NONFINITE = [
    ("equation", "nu", ["nan", "inf", "-inf"]),
    ("domain", "t_end", ["nan", "-inf"]),
    ("solver", "dt", ["nan", "-inf"]),
    ("solver", "tolerance", ["nan", "inf"]),
    ("data", "noise", ["nan", "-inf"]),
    ("leaves", "first_omega", ["nan", "-inf"]),
    ("initial_condition", "length_scale", ["nan", "-inf"]),
    ("train_leaves", "learning_rate", ["nan", "-inf"]),
    ("train_leaves", "final_learning_rate", ["nan"]),
    ("train_joint", "final_learning_rate", ["nan"]),
    ("predict", "relative_tolerance", ["nan", "-inf"]),
    ("predict", "step_tolerance", ["nan", "inf"]),
    ("predict", "time_budget", ["nan", "-inf"]),
    ("distill", "max_unexplained", ["nan", "inf"]),
]
UNKNOWN_KEYS = [("root", "colour"), ("train_leaves", "iteration"), ("data", "nst"),
                ("solver", "mode"), ("predict", "sample"), ("", "sed")]
UNKNOWN_SECTIONS = ["rooot", "train-leaves", "Data", "solvers", "trainleaves"]


def sections_of(lines):
    """{section name: (header line index, end index)}; "" is the top level."""
    found, current, start = {}, "", 0
    for i, line in enumerate(lines):
        header = re.match(r"\s*\[([^\]]+)\]\s*(#.*)?$", line)
        if header:
            found[current] = (start, i)
            current, start = header.group(1).strip(), i
    found[current] = (start, len(lines))
    return found


def set_key(text, section, key, value):
    """The configuration text with section.key = value: the key's line replaced, or added
    under the section's header, or in a new section at the end."""
    lines = text.split("\n")
    spans = sections_of(lines)
    if section in spans:
        begin, end = spans[section]
        for i in range(begin, end):
            if re.match(rf"\s*{re.escape(key)}\s*=", lines[i]):
                lines[i] = f"{key} = {value}"
                return "\n".join(lines)
        lines.insert(begin + 1 if section else 0, f"{key} = {value}")
        return "\n".join(lines)
    return text.rstrip("\n") + f"\n\n[{section}]\n{key} = {value}\n"


def invalid_toml(data):
    try:
        tomllib.loads(data.decode("utf-8"))
        return False
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return True


def random_cut(rng, data):
    """A length at which `data` (valid TOML) cut short is no longer TOML."""
    while True:
        cut = rng.randrange(1, len(data))
        if invalid_toml(data[:cut]):
            return cut


def field_name(section, key):
    return f"{section}.{key}" if section else key


def key_fields(section, key):
    """section.key, or the section and then the key as a word ("refinement_study: ...
    tolerances must be ...")."""
    if not section:
        return [key]
    return [f"{section}.{key}", f"re:{re.escape(section)}\\b.*\\b{re.escape(key)}\\b"]


def config_case(ctx, rng, d, variant):
    base_name = rng.choice(["quickstart.toml", "sensors.toml"])
    text = ctx.bases[base_name]
    path = d / base_name
    fields = None
    if variant == "type":
        section, key, values = rng.choice(TYPE_ERRORS)
        value = rng.choice(values)
        text, fields = set_key(text, section, key, value), key_fields(section, key)
        what = f"{field_name(section, key)} = {value} (wrong type)"
    elif variant == "range":
        section, key, values = rng.choice(RANGE_ERRORS)
        if (section, key) == ("run", "predict_experiments") and base_name == "sensors.toml":
            values = ["[5]", "[0, 0]"]  # sensors' run.data (the tiny run's) holds 1 test experiment
        value = rng.choice(values)
        text, fields = set_key(text, section, key, value), key_fields(section, key)
        what = f"{field_name(section, key)} = {value} (outside its rule)"
    elif variant == "nonfinite":
        section, key, values = rng.choice(NONFINITE)
        value = rng.choice(values)
        text, fields = set_key(text, section, key, value), key_fields(section, key)
        what = f"{field_name(section, key)} = {value}"
    elif variant == "unknown key":
        section, key = rng.choice(UNKNOWN_KEYS)
        text, fields = set_key(text, section, key, "3"), [key]
        what = f"unknown key {field_name(section, key)}"
    elif variant == "unknown section":
        name = rng.choice(UNKNOWN_SECTIONS)
        text += f"\n[{name}]\norder = 2\n"
        fields, what = [name], f"unknown section [{name}]"
    elif variant == "duplicate key":
        lines = text.split("\n")
        keyed = [i for i, l in enumerate(lines) if re.match(r"[a-z_]+\s*=", l)]
        i = rng.choice(keyed)
        key = lines[i].split("=")[0].strip()
        lines.insert(i + 1, lines[i])
        text, fields, what = "\n".join(lines), [f"'{key}'"], f"key '{key}' given twice"
    elif variant == "duplicate section":
        names = [n for n in sections_of(text.split("\n")) if n]
        name = rng.choice(names)
        text += f"\n[{name}]\n"
        fields, what = [f"'{name}'", f"[{name}]"], f"section [{name}] given twice"
    elif variant == "no value":
        lines = text.split("\n")
        keyed = [i for i, l in enumerate(lines) if re.match(r"[a-z_]+\s*=", l)]
        i = rng.choice(keyed)
        lines[i] = lines[i].split("=")[0] + "="
        text, what = "\n".join(lines), f"line {i + 1} without a value"
    elif variant == "truncated":
        data = text.encode()
        cut = random_cut(rng, data)
        path.write_bytes(data[:cut])
        return Case(f"{base_name} truncated to {cut} of {len(data)} bytes",
                    ["run", path.name, "-o", "out/run"], path)
    elif variant == "random bytes":
        data = bytearray(text.encode())
        while True:
            at, length = rng.randrange(len(data)), rng.randint(1, 64)
            candidate = data[:at] + bytes(rng.getrandbits(8) for _ in range(length)) + data[at:]
            if invalid_toml(bytes(candidate)):
                break
        path.write_bytes(bytes(candidate))
        return Case(f"{base_name} with {length} random bytes inserted at byte {at}",
                    ["run", path.name, "-o", "out/run"], path)
    elif variant == "utf-16":
        path.write_bytes(text.encode("utf-16"))
        return Case(f"{base_name} saved as UTF-16", ["run", path.name, "-o", "out/run"], path)
    else:
        raise ValueError(variant)
    assert invalid_toml(text.encode()) or variant not in ("duplicate key", "duplicate section",
                                                          "no value"), variant
    path.write_text(text)
    # run and simulate both read and check the whole configuration (config::read_run_config),
    # run before it makes its folder; a bad [run] key goes to run, whose section it is
    if rng.random() < 0.7 or fields and fields[0].startswith("run."):
        argv = ["run", path.name, "-o", "out/run"]
    else:
        argv = ["simulate", path.name, "-o", "out/data.h5"]
    return Case(f"{base_name}: {what}", argv, path, fields)


CONFIG_VARIANTS = ["type", "range", "nonfinite", "unknown key", "range", "unknown section",
                   "duplicate key", "type", "truncated", "range", "random bytes",
                   "duplicate section", "nonfinite", "no value", "utf-16"]


# ---------------------------------------------------------------------------------------
# Measurements: CSV, NumPy, HDF5


def measurements(nrng):
    """2 or 3 experiments of 6 to 20 points at distinct (x, t), rows interleaved."""
    rows = []
    names = ["tank A", "tank B", "well-3"][:nrng.integers(2, 4)]
    for e, name in enumerate(names):
        count = int(nrng.integers(6, 21))
        x0, t0 = nrng.uniform(-4, 2), nrng.uniform(0, 3)
        for _ in range(count):
            x, t = x0 + 2 * nrng.random(), t0 + nrng.random()
            rows.append(dict(experiment=name, id=e, x=x, t=t, u=np.sin(x - t),
                             sigma=0.01 + 0.05 * nrng.random()))
    order = nrng.permutation(len(rows))
    return [rows[i] for i in order], names


def csv_text(rows, columns, quote_names=False):
    out = [",".join(columns)]
    for r in rows:
        cells = []
        for c in columns:
            v = r[c]
            cells.append(f'"{v}"' if c == "experiment" and quote_names else
                         v if isinstance(v, str) else repr(float(v)))
        out.append(",".join(cells))
    return "\n".join(out) + "\n"


def data_lines(rows, name):
    """The line numbers (header = 1) of the rows of experiment `name`."""
    return [i + 2 for i, r in enumerate(rows) if r["experiment"] == name]


def csv_case(ctx, rng, nrng, d, variant):
    rows, names = measurements(nrng)
    columns = ["experiment", "x", "t", "u"] + (["sigma"] if rng.random() < 0.5 else [])
    rng.shuffle(columns)
    path = d / "measurements.csv"
    numeric = [c for c in columns if c != "experiment"]
    argv = ["import", path.name, "-o", "out/data.h5"]
    fields, text, data = None, None, None
    r = rng.randrange(len(rows))
    line = r + 2
    if variant == "valid spreadsheet":
        body = csv_text(rows, columns, quote_names=True).split("\n")
        body.insert(1, "# exported from a spreadsheet")
        body.insert(3, "")
        data = b"\xef\xbb\xbf" + "\r\n".join(body).encode()
        path.write_bytes(data)
        return Case("BOM, CRLF line ends, a comment, a blank line and quoted names (valid)",
                    argv, path, valid=True, output="out/data.h5")
    if variant == "missing column":
        column = rng.choice([c for c in columns if c != "sigma"])
        columns.remove(column)
        text, fields, what = csv_text(rows, columns), [f"'{column}'"], f"no column '{column}'"
    elif variant == "renamed column":
        column = rng.choice([c for c in columns if c != "sigma"])
        header = [c if c != column else column + "_value" for c in columns]
        text = ",".join(header) + "\n" + csv_text(rows, columns).split("\n", 1)[1]
        fields, what = [f"'{column}'"], f"column '{column}' named '{column}_value'"
    elif variant == "duplicated column":
        column = rng.choice(columns)
        for row in rows:
            row["copy"] = row[column]
        text = csv_text(rows, columns + ["copy"]).replace(",copy\n", f",{column}\n", 1)
        fields, what = [f"'{column}'"], f"column '{column}' twice in the header"
    elif variant == "not a number":
        column = rng.choice(numeric)
        cell = rng.choice(["abc", "1.2.3", "", "n/a", "--1", "1e", "0.5x"])
        rows[r][column] = cell
        text, fields = csv_text(rows, columns), [f"'{column}'"]
        what = f"line {line}, column '{column}' = {cell!r}"
    elif variant == "nan or inf":
        column = rng.choice(numeric)
        cell = rng.choice(["nan", "NaN", "inf", "-inf", "Infinity"])
        rows[r][column] = cell
        text, fields = csv_text(rows, columns), [f"'{column}'"]
        what = f"line {line}, column '{column}' = {cell}"
    elif variant == "overflow":
        column = rng.choice(numeric)
        cell = rng.choice(["1e999", "-1e400", "2e308"])
        rows[r][column] = cell
        text, fields = csv_text(rows, columns), [f"'{column}'"]
        what = f"line {line}, column '{column}' = {cell} (beyond a double)"
    elif variant == "sigma not positive":
        if "sigma" not in columns:
            columns.append("sigma")
        rows[r]["sigma"] = rng.choice(["0", "-0.5", "0.0"])
        text, fields = csv_text(rows, columns), ["'sigma'"]
        what = f"line {line}, sigma = {rows[r]['sigma']}"
    elif variant == "field count":
        lines = csv_text(rows, columns).split("\n")
        if rng.random() < 0.5:
            lines[line - 1] = lines[line - 1].rsplit(",", 1)[0]
            what = f"line {line} one field short"
        else:
            lines[line - 1] += ",7"
            what = f"line {line} one field too many"
        text, fields = "\n".join(lines), [f"line {line}"]
    elif variant == "cr line ends":
        data = csv_text(rows, columns).replace("\n", "\r").encode()
        what = "CR-only line ends"
    elif variant == "utf-16":
        encoding = rng.choice(["utf-16", "utf-16-le", "utf-16-be"])
        data = csv_text(rows, columns).encode(encoding)
        what = f"saved as {encoding.upper()}"
    elif variant == "huge field":
        column = rng.choice(numeric)
        digits = "".join(rng.choice("0123456789") for _ in range(1000))
        rows[r][column] = "1" + digits * 10000 + "x"
        text, fields = csv_text(rows, columns), [f"'{column}'"]
        what = f"a 10 MB field at line {line}, column '{column}'"
    elif variant == "empty":
        data, what = b"", "empty file"
    elif variant == "header only":
        text, what = ",".join(columns) + "\n", "header line only, no measurements"
    elif variant == "binary":
        data = bytes(rng.getrandbits(8) for _ in range(rng.randint(16, 4096)))
        what = f"{len(data)} random bytes"
    elif variant == "repeated point":
        name = rng.choice(names)
        first, second = rng.sample([i - 2 for i in data_lines(rows, name)], 2)
        rows[second]["x"], rows[second]["t"] = rows[first]["x"], rows[first]["t"]
        text, fields = csv_text(rows, columns), [f"'{name}'"]
        what = f"experiment '{name}': lines {first + 2} and {second + 2} at the same (x, t)"
    elif variant == "one point":
        rows.append(dict(experiment="lonely", id=9, x=0.5, t=0.5, u=1.0, sigma=0.1))
        text, fields, what = csv_text(rows, columns), ["'lonely'"], "an experiment of one point"
    elif variant == "zero extent":
        name = rng.choice(names)
        axis = rng.choice(["x", "t"])
        for row in rows:
            if row["experiment"] == name:
                row[axis] = 1.25
        text, fields = csv_text(rows, columns), [f"'{name}'"]
        what = f"experiment '{name}' has every point at {axis} = 1.25"
    else:
        raise ValueError(variant)
    if data is None:
        data = text.encode()
    path.write_bytes(data)
    return Case(f"CSV: {what}", argv, path, fields)


CSV_VARIANTS = ["missing column", "not a number", "valid spreadsheet", "nan or inf",
                "duplicated column", "cr line ends", "overflow", "utf-16", "field count",
                "huge field", "renamed column", "empty", "sigma not positive", "binary",
                "repeated point", "header only", "one point", "zero extent"]


def columns_of(rows, text_ids):
    arrays = {c: np.array([r[c] for r in rows], dtype=float) for c in ["x", "t", "u", "sigma"]}
    arrays["experiment"] = (np.array([r["experiment"] for r in rows]) if text_ids else
                            np.array([r["id"] for r in rows], dtype=np.int64))
    return arrays


def array_fields(name):
    return [f"'{name}'", f"member {name} ", f"{name}.npy", f"/{name}"]


def member_data_span(path, member):
    """(start, size) of a ZIP member's stored bytes."""
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo(member)
    raw = path.read_bytes()
    h = info.header_offset
    start = h + 30 + int.from_bytes(raw[h + 26:h + 28], "little") + \
        int.from_bytes(raw[h + 28:h + 30], "little")
    return start, info.compress_size


def npz_case(ctx, rng, nrng, d, variant):
    rows, _ = measurements(nrng)
    arrays = columns_of(rows, text_ids=rng.random() < 0.5)
    if rng.random() < 0.5:
        del arrays["sigma"]
    compressed = rng.random() < 0.5
    path = d / "measurements.npz"
    save = np.savez_compressed if compressed else np.savez
    form = "deflated" if compressed else "stored"
    argv = ["import", path.name, "-o", "out/data.h5"]
    numeric = [n for n in arrays if n != "experiment"]
    name = rng.choice(numeric)
    fields = array_fields(name)
    if variant == "crc":
        save(path, **arrays)
        start, size = member_data_span(path, f"{name}.npy")
        raw = bytearray(path.read_bytes())
        at = start + rng.randrange(size)
        raw[at] ^= 1 << rng.randrange(8)
        path.write_bytes(raw)
        return Case(f"NPZ ({form}): one bit flipped in member {name}.npy (its CRC-32 fails)",
                    argv, path, fields)
    if variant == "truncated":
        save(path, **arrays)
        raw = path.read_bytes()
        cut = rng.randrange(1, len(raw) - 1)
        path.write_bytes(raw[:cut])
        return Case(f"NPZ ({form}) truncated to {cut} of {len(raw)} bytes", argv, path)
    if variant == "renamed array":
        name = rng.choice([n for n in arrays if n != "sigma"])
        arrays[name + "_values"] = arrays.pop(name)
        what, fields = f"array '{name}' saved as '{name}_values'", array_fields(name)
    elif variant == "two-dimensional":
        values = arrays[name]
        arrays[name] = np.stack([values, values])
        what = f"array '{name}' of shape {arrays[name].shape}"
    elif variant == "scalar":
        arrays[name] = np.float64(1.5)
        what = f"array '{name}' a scalar"
    elif variant == "length":
        arrays[name] = arrays[name][:-rng.randint(1, 3)]
        what = f"array '{name}' shorter than the others"
    elif variant == "dtype":
        dtype = rng.choice([">f8", ">i8", "complex128", "bool", "float16", "object"])
        values = arrays[name]
        arrays[name] = (np.array([object()] * len(values), dtype=object) if dtype == "object"
                        else values.astype(dtype))
        what = f"array '{name}' of dtype {np.dtype(dtype).str}"
    elif variant == "text numbers":
        arrays[name] = np.array([f"{v:.3f}" for v in arrays[name]])
        what = f"array '{name}' of strings"
    elif variant == "nan or inf":
        arrays[name] = arrays[name].copy()
        arrays[name][rng.randrange(len(arrays[name]))] = rng.choice([np.nan, np.inf, -np.inf])
        what = f"NaN or Inf in array '{name}'"
    elif variant == "empty archive":
        with zipfile.ZipFile(path, "w"):
            pass
        return Case("NPZ: an empty ZIP archive", argv, path)
    elif variant == "not a zip":
        path.write_bytes(bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 2048))))
        return Case("NPZ: random bytes", argv, path)
    else:
        raise ValueError(variant)
    save(path, **arrays)
    return Case(f"NPZ ({form}): {what}", argv, path, fields)


NPZ_VARIANTS = ["crc", "truncated", "renamed array", "two-dimensional", "dtype", "length",
                "crc", "nan or inf", "text numbers", "scalar", "empty archive", "not a zip",
                "dtype", "truncated"]


def write_h5_arrays(path, arrays, mutate=None):
    with h5py.File(path, "w") as f:
        for name, values in arrays.items():
            f[name] = values
        if mutate:
            mutate(f)


def truncate(path, rng):
    raw = path.read_bytes()
    cut = rng.randrange(0, len(raw) - 1)
    path.write_bytes(raw[:cut])
    return f"truncated to {cut} of {len(raw)} bytes"


def hdf5_case(ctx, rng, nrng, d, variant):
    """HDF5 where measurements (import) or a BHPM dataset (train, evaluate) are expected."""
    if variant.startswith("import"):
        rows, _ = measurements(nrng)
        arrays = columns_of(rows, text_ids=False)
        path = d / "measurements.h5"
        argv = ["import", path.name, "-o", "out/data.h5"]
        name = rng.choice(["x", "t", "u"])
        fields = array_fields(name)
        if variant == "import truncated":
            write_h5_arrays(path, arrays)
            return Case(f"HDF5 measurements {truncate(path, rng)}", argv, path)
        if variant == "import missing array":
            del arrays[name]
            what = f"no array '{name}'"
        elif variant == "import 2-D array":
            arrays[name] = np.stack([arrays[name]] * 2)
            what = f"array '{name}' of two dimensions"
        elif variant == "import string ids":
            arrays["experiment"] = np.array([r["experiment"] for r in rows]).astype("S")
            what, fields = "experiment ids as strings (integers are required)", array_fields(
                "experiment")
        elif variant == "import fractional ids":
            arrays["experiment"] = arrays["experiment"] + 0.5
            what, fields = "experiment ids 0.5, 1.5, ...", array_fields("experiment")
        elif variant == "import group":
            del arrays[name]
            write_h5_arrays(path, arrays, lambda f: f.create_group(name))
            return Case(f"HDF5 measurements: '{name}' a group", argv, path, fields)
        elif variant == "import length":
            arrays[name] = arrays[name][:-1]
            what = f"array '{name}' one value short"
        elif variant == "import nan":
            arrays[name][rng.randrange(len(arrays[name]))] = np.nan
            what = f"NaN in array '{name}'"
        elif variant == "import netcdf3":
            path = d / "measurements.nc"
            path.write_bytes(b"CDF\x01" + bytes(rng.getrandbits(8) for _ in range(256)))
            return Case("NetCDF-3 classic file (not HDF5)", ["import", path.name, "-o",
                                                              "out/data.h5"], path)
        else:
            raise ValueError(variant)
        write_h5_arrays(path, arrays)
        return Case(f"HDF5 measurements: {what}", argv, path, fields)

    # A BHPM dataset: a copy of the tiny run's (version 1) or of an import (version 2).
    version = 2 if variant.startswith("v2") else 1
    path = d / "data.h5"
    shutil.copyfile(ctx.v2 if version == 2 else ctx.run / "data.h5", path)
    if rng.random() < 0.6:
        argv = ["train", "tiny.toml", "--data", path.name, "-o", "out/run"]
        (d / "tiny.toml").write_text(TINY_TOML)
        group = "train"
    else:
        shutil.copytree(ctx.run, d / "run", symlinks=True)
        argv = ["evaluate", "run", "--data", path.name, "-o", "out/metrics.json"]
        group = "test"
    fields = None
    if variant in ("v1 truncated", "v2 truncated"):
        return Case(f"dataset (version {version}) {truncate(path, rng)}", argv, path)
    with h5py.File(path, "r+") as f:
        if variant == "v1 missing dataset":
            target = rng.choice([f"{group}/measurements/u", f"{group}/measurements/x",
                                 f"{group}/t"] + ([f"{group}/u"] if group == "test" else []))
            del f[target]
            what, fields = f"no dataset /{target}", [target]
        elif variant in ("v1 format", "v2 format"):
            choice = rng.choice(["delete", "other", "version"])
            if choice == "delete":
                del f.attrs["format"]
                what, fields = "no attribute 'format'", ["format"]
            elif choice == "other":
                f.attrs["format"] = "bhpm-ensemble"
                what, fields = "attribute format = 'bhpm-ensemble'", ["format"]
            else:
                f.attrs["format_version"] = np.int64(99)
                what, fields = "format_version = 99", ["format_version", "99"]
        elif variant == "v1 nonfinite":
            target = rng.choice([f"{group}/measurements/u", f"{group}/measurements/x",
                                 f"{group}/measurements/t"] +
                                ([f"{group}/u", f"{group}/x", f"{group}/t"] if group == "test"
                                 else []))
            values = f[target][()]
            values.flat[rng.randrange(values.size)] = rng.choice([np.nan, np.inf])
            f[target][...] = values
            what, fields = f"NaN or Inf in /{target}", [target]
        elif variant == "v1 shape":
            target = rng.choice([f"{group}/measurements/u", f"{group}/measurements/x"])
            values = f[target][()]
            del f[target]
            f[target] = values[:, :-3]
            what, fields = f"/{target} 3 columns short", [target]
        elif variant.startswith("v2"):
            e = f"{group}/{rng.randrange(int(f[group].attrs['experiments']))}"
            name = f[e].attrs["name"]
            name = name.decode() if isinstance(name, bytes) else name
            fields = [e, f"'{name}'"]
            if variant == "v2 missing dataset":
                target = rng.choice(["x", "t", "u"])
                del f[f"{e}/{target}"]
                what, fields = f"no dataset /{e}/{target}", [f"{e}/{target}"]
            elif variant == "v2 nonfinite":
                target = rng.choice(["x", "t", "u"])
                values = f[f"{e}/{target}"][()]
                values[rng.randrange(values.size)] = rng.choice([np.nan, np.inf, -np.inf])
                f[f"{e}/{target}"][...] = values
                what = f"NaN or Inf in /{e}/{target}"
            elif variant == "v2 outside window":
                target = rng.choice(["x", "t"])
                values = f[f"{e}/{target}"][()]
                values[rng.randrange(values.size)] = f[e].attrs[f"{target}_max"] + 1.0
                f[f"{e}/{target}"][...] = values
                what = f"a point of /{e} beyond its {target}_max"
            elif variant == "v2 repeated point":
                x, t = f[f"{e}/x"][()], f[f"{e}/t"][()]
                i, j = rng.sample(range(x.size), 2)
                x[j], t[j] = x[i], t[i]
                f[f"{e}/x"][...], f[f"{e}/t"][...] = x, t
                what = f"/{e}: points {i} and {j} at the same (x, t)"
            elif variant == "v2 length":
                target = rng.choice(["t", "u"])
                values = f[f"{e}/{target}"][()]
                del f[f"{e}/{target}"]
                f[f"{e}/{target}"] = values[:-1]
                what = f"/{e}/{target} one value short"
            elif variant == "v2 experiments":
                f[group].attrs["experiments"] = np.int64(int(f[group].attrs["experiments"]) + 2)
                what, fields = f"/{group} says 2 experiments more than it holds", [f"{group}/"]
            elif variant == "v2 zero extent":
                values = f[f"{e}/x"][()]
                values[:] = values[0]
                f[f"{e}/x"][...] = values
                f[e].attrs["x_min"] = f[e].attrs["x_max"] = values[0]
                what = f"/{e}: every point at one x"
            else:
                raise ValueError(variant)
        else:
            raise ValueError(variant)
    return Case(f"dataset (version {version}): {what}", argv, path, fields)


HDF5_VARIANTS = ["import truncated", "v1 missing dataset", "import missing array",
                 "v2 repeated point", "v1 truncated", "import string ids", "v2 nonfinite",
                 "v1 format", "import 2-D array", "v2 outside window", "v1 nonfinite",
                 "import group", "v2 missing dataset", "import fractional ids", "v2 truncated",
                 "v1 shape", "import length", "v2 length", "v2 format", "import nan",
                 "v2 experiments", "import netcdf3", "v2 zero extent"]


# ---------------------------------------------------------------------------------------
# Run folders

# (file, damage, commands that read that file)
DATA_READERS = ["evaluate", "predict-from", "distill", "resume"]
RUN_DAMAGE = [
    ("joint.ckpt", "truncate", ["predict", "evaluate", "distill", "resume"]),
    ("data.h5", "truncate", DATA_READERS),
    ("root.h5", "truncate", ["distill", "resume"]),
    ("joint.ckpt", "flip tensor byte", ["predict", "evaluate", "distill"]),
    ("run.toml", "truncate", ["resume-from-run-toml"]),
    ("data.h5", "nonfinite test grid", ["evaluate", "predict-from"]),
    ("root.h5", "empty", ["distill", "resume"]),
    ("joint.ckpt", "empty", ["predict", "evaluate", "distill", "resume"]),
    ("data.h5", "overwrite start", DATA_READERS),
    ("root.h5", "missing dataset", ["distill"]),
    ("leaves.ckpt", "truncate", ["resume"]),
    ("joint.ckpt", "overwrite start", ["predict", "evaluate", "distill", "resume"]),
    ("data.h5", "missing dataset", ["evaluate", "predict-from"]),
    ("root.h5", "nonfinite root inputs", ["distill"]),
    ("run.toml", "random bytes", ["resume-from-run-toml"]),
    ("exact_gp.ckpt", "overwrite start", ["resume"]),
    ("data.h5", "empty", DATA_READERS),
    ("root.h5", "overwrite start", ["distill", "resume"]),
    ("root.h5", "wrong shape", ["distill"]),
    ("run.toml", "bad value", ["resume-from-run-toml"]),
]


def run_case(ctx, rng, nrng, d, variant):
    file, damage, readers = RUN_DAMAGE[variant]
    run = d / "run"
    shutil.copytree(ctx.run, run, symlinks=True)
    shutil.copyfile(ctx.run / "data.h5", d / "pristine-data.h5")
    (d / "tiny.toml").write_text(TINY_TOML)
    target = run / file
    raw = target.read_bytes()
    fields = None
    if damage == "truncate":
        if file == "run.toml":
            cut = random_cut(rng, raw)
        else:
            cut = rng.randrange(1, len(raw) - 1)
        target.write_bytes(raw[:cut])
        what = f"truncated to {cut} of {len(raw)} bytes"
    elif damage == "empty":
        target.write_bytes(b"")
        what = "emptied"
    elif damage == "overwrite start":
        length = rng.randint(4, 64)
        target.write_bytes(bytes(rng.getrandbits(8) for _ in range(length)) + raw[length:])
        what = f"its first {length} bytes overwritten"
    elif damage == "random bytes":
        while True:
            at, length = rng.randrange(len(raw)), rng.randint(1, 32)
            data = raw[:at] + bytes(rng.getrandbits(8) for _ in range(length)) + raw[at:]
            if invalid_toml(data):
                break
        target.write_bytes(data)
        what = f"{length} random bytes inserted at byte {at}"
    elif damage == "bad value":
        section, key, values = rng.choice(RANGE_ERRORS[:30])
        value = rng.choice(values)
        target.write_text(set_key(raw.decode(), section, key, value))
        what, fields = f"{field_name(section, key)} = {value}", key_fields(section, key)
    elif damage == "flip tensor byte":
        with zipfile.ZipFile(target) as archive:
            members = [i.filename for i in archive.infolist()
                       if re.search(r"/data/\d+$", i.filename) and i.file_size >= 8]
        member = rng.choice(members)
        start, size = member_data_span(target, member)
        at = start + rng.randrange(size)
        data = bytearray(raw)
        data[at] ^= 1 << rng.randrange(8)
        target.write_bytes(data)
        what = f"one bit flipped in member {member} (its CRC-32 fails)"
    else:
        with h5py.File(target, "r+") as f:
            if damage == "nonfinite test grid":
                # test experiment 0's grid, at t = 0 for u: what predict --ic-from starts from
                name = rng.choice(["test/u", "test/x", "test/t"])
                values = f[name][()]
                at = (0, 0, rng.randrange(values.shape[2])) if name == "test/u" else \
                    rng.randrange(values.size)
                values[at] = rng.choice([np.nan, np.inf])
                f[name][...] = values
                what, fields = f"NaN or Inf in /{name}", [name]
            elif damage == "missing dataset":
                name = rng.choice(["root_inputs/v"] if file == "root.h5" else
                                  ["test/u", "test/x", "test/t"])
                del f[name]
                what, fields = f"no /{name}", [name]
            elif damage == "nonfinite root inputs":
                values = f["root_inputs/v"][()]
                values.flat[rng.randrange(values.size)] = rng.choice([np.nan, np.inf])
                f["root_inputs/v"][...] = values
                what, fields = "NaN or Inf in /root_inputs/v", ["root_inputs/v"]
            elif damage == "wrong shape":
                values = f["root_inputs/v"][()]
                del f["root_inputs/v"]
                f["root_inputs/v"] = values[..., :-1]
                what, fields = "/root_inputs/v one variable short", ["root_inputs/v"]
            else:
                raise ValueError(damage)
    reader = rng.choice(readers)
    argv = {
        "predict": ["predict", "run", "--ic", "0.3*sin(pi*x/8)", "--samples", "2"],
        "predict-from": ["predict", "run", "--ic-from", "run/data.h5:0", "--samples", "2"],
        "evaluate": ["evaluate", "run", "--data",
                     "run/data.h5" if file == "data.h5" else "pristine-data.h5"],
        "distill": ["distill", "run", "--samples", "4"],
        "resume": ["run", "tiny.toml", "-o", "run"],
        "resume-from-run-toml": ["run", "run/run.toml", "-o", "run"],
    }[reader]
    return Case(f"run folder: {file} {what}; bhpm {' '.join(argv)}", argv, target, fields)


# ---------------------------------------------------------------------------------------
# Running and checking


def snapshot(folder):
    """{relative path: (size, mtime)} of everything under `folder`; the lock's time aside."""
    found = {}
    for path in sorted(folder.rglob("*")):
        rel = str(path.relative_to(folder))
        if path.is_dir():
            found[rel + "/"] = None
        else:
            stat = path.lstat()
            found[rel] = (stat.st_size, None if path.name == ".bhpm-lock" else stat.st_mtime_ns)
    return found


def printable(line):
    return "".join(c if c.isprintable() else "?" for c in line[:300])


def differences(before, after):
    added = [p for p in after if p not in before]
    # a new folder stands for what it holds
    changes = [f"left behind: {p}" for p in added
               if not any(p != q and q.endswith("/") and p.startswith(q) for q in added)]
    changes += [f"removed: {p}" for p in before if p not in after]
    changes += [f"changed: {p}" for p in before if p in after and before[p] != after[p]]
    return changes


class Context:
    pass


def setup(bhpm, work, repository, env):
    ctx = Context()
    ctx.work = work
    setup_dir = work / "setup"
    setup_dir.mkdir()
    (setup_dir / "tiny.toml").write_text(TINY_TOML)
    ctx.run = setup_dir / "run"
    made = subprocess.run([bhpm, "run", "tiny.toml", "-o", "run", "-q"], cwd=setup_dir, env=env,
                          capture_output=True, timeout=120)
    if made.returncode != 0:
        raise RuntimeError("setup: bhpm run tiny.toml failed: " + made.stderr.decode()[-2000:])
    rows, _ = measurements(np.random.default_rng(1))
    (setup_dir / "v2.csv").write_text(csv_text(rows, ["experiment", "x", "t", "u", "sigma"]))
    made = subprocess.run([bhpm, "import", "v2.csv", "-o", "v2.h5", "--hold-out", "1", "-q"],
                          cwd=setup_dir, env=env, capture_output=True, timeout=120)
    if made.returncode != 0:
        raise RuntimeError("setup: bhpm import failed: " + made.stderr.decode()[-2000:])
    ctx.v2 = setup_dir / "v2.h5"
    quickstart = (repository / "configs/quickstart.toml").read_text()
    sensors = (repository / "configs/sensors.toml").read_text()
    # sensors.toml names its dataset and initial condition relative to configs/: here they
    # are the tiny run's dataset and the shipped u0.csv, by absolute path
    sensors = set_key(sensors, "run", "data", f'"{ctx.run / "data.h5"}"')
    sensors = set_key(sensors, "run", "predict_ic_files",
                      f'["{repository / "examples/sensors/u0.csv"}"]')
    ctx.bases = {"quickstart.toml": quickstart, "sensors.toml": sensors}
    return ctx


def make_case(ctx, seed, number, d):
    rng = random.Random(f"{seed}:{number}")
    nrng = np.random.default_rng([seed, number])
    kind = KINDS[number % len(KINDS)]
    turn = number // len(KINDS) + seed  # which variant of its kind, rotated by the seed
    if kind == "config":
        return kind, config_case(ctx, rng, d, CONFIG_VARIANTS[turn % len(CONFIG_VARIANTS)])
    if kind == "csv":  # the first is always the valid spreadsheet form
        variant = CSV_VARIANTS[turn % len(CSV_VARIANTS)] if number >= len(KINDS) else \
            "valid spreadsheet"
        return kind, csv_case(ctx, rng, nrng, d, variant)
    if kind == "npz":
        return kind, npz_case(ctx, rng, nrng, d, NPZ_VARIANTS[turn % len(NPZ_VARIANTS)])
    if kind == "hdf5":
        return kind, hdf5_case(ctx, rng, nrng, d, HDF5_VARIANTS[turn % len(HDF5_VARIANTS)])
    return kind, run_case(ctx, rng, nrng, d, turn % len(RUN_DAMAGE))


def judge(case, d, completed, before):
    """What is wrong with the case's outcome (an empty list: nothing)."""
    problems = []
    stderr = completed.stderr.decode("utf-8", "replace")
    after = snapshot(d)
    rc = completed.returncode
    if case.valid:
        if rc != 0:
            problems.append(f"exit {rc} on a valid input (expected 0)")
        if not (d / case.output).is_file():
            problems.append(f"no {case.output} written")
        problems += [f"left behind: {p}" for p in after if "tmp-" in p]
        return problems, stderr
    if rc < 0:
        problems.append(f"killed by signal {-rc} (a crash)")
    elif rc not in (1, 2):
        problems.append(f"exit {rc} (expected 1 or 2)")
    if case.file.name not in stderr:
        problems.append(f"stderr does not name the file {case.file.name}")
    if case.fields and not any(re.search(f[3:], stderr) if f.startswith("re:") else f in stderr
                               for f in case.fields):
        problems.append("stderr names none of " + ", ".join(
            repr(f) for f in case.fields if not f.startswith("re:")))
    problems += differences(before, after)
    return problems, stderr


def main():
    bhpm, work, repository = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
    if os.sep in bhpm:  # the cases run in folders of their own
        bhpm = os.path.abspath(bhpm)
    seed = int(os.environ.get("BHPM_FUZZ_SEED", "20260"))
    count = int(os.environ.get("BHPM_FUZZ_CASES", "72"))
    budget = float(os.environ.get("BHPM_FUZZ_SECONDS", "45"))
    only = os.environ.get("BHPM_FUZZ_ONLY", "")
    verbose = os.environ.get("BHPM_FUZZ_VERBOSE", "") not in ("", "0")
    numbers = [int(n) for n in only.split(",") if n.strip()] if only else list(range(count))
    env = dict(os.environ)
    env.setdefault("OMP_NUM_THREADS", "1")
    start = time.monotonic()
    print(f"fuzz seed {seed} (replay: BHPM_FUZZ_SEED={seed}; one case: BHPM_FUZZ_ONLY=N), "
          f"{len(numbers)} cases, no new case after {budget:g} s", flush=True)
    ctx = setup(bhpm, work, repository, env)
    failed, ran, per_kind = [], 0, {k: 0 for k in KINDS}
    for number in numbers:
        if time.monotonic() - start > budget:
            print(f"time bound: {budget:g} s passed; cases {number} to {numbers[-1]} not run")
            break
        d = work / f"case-{number:03d}"
        (d / "out").mkdir(parents=True)
        try:
            kind, case = make_case(ctx, seed, number, d)
        except Exception as error:  # a generator bug is a failure too, never a skip
            failed.append(number)
            print(f"FAILED: case {number} (seed {seed}): the generator raised {error!r}")
            continue
        before = snapshot(d)
        label = f"case {number} [{kind}] {case.description}"
        try:
            completed = subprocess.run([bhpm] + case.argv, cwd=d, env=env, capture_output=True,
                                       timeout=CASE_TIMEOUT)
            problems, stderr = judge(case, d, completed, before)
        except subprocess.TimeoutExpired as expired:
            problems = [f"no exit within {CASE_TIMEOUT} s (a hang, or a valid input that ran)"]
            stderr = (expired.stderr or b"").decode("utf-8", "replace")
        ran += 1
        per_kind[kind] += 1
        if problems:
            failed.append(number)
            print(f"FAILED: {label} (seed {seed}): {'; '.join(problems)}")
            print(f"  command: bhpm {' '.join(case.argv)}")
            lines = stderr.strip().splitlines()
            for line in [l for l in lines if l.startswith("error")][:2] or lines[-2:]:
                print(f"  stderr: {printable(line)}")
        else:
            print(f"ok: {label}")
            if verbose:
                print(f"  stderr: {printable((stderr.strip().splitlines() or [''])[-1])}")
        if not problems:
            shutil.rmtree(d, ignore_errors=True)
    elapsed = time.monotonic() - start
    print(f"fuzz: {ran} cases run in {elapsed:.1f} s (" +
          ", ".join(f"{k} {v}" for k, v in per_kind.items()) + f"), {len(failed)} failed" +
          (f": cases {','.join(map(str, failed))}; replay with BHPM_FUZZ_SEED={seed} "
           f"BHPM_FUZZ_ONLY={','.join(map(str, failed))}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
