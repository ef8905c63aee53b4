#!/usr/bin/env python3
"""Checks that every rule in the rule column of docs/configuration.md is one that `bhpm run`
enforces, once, as documented. For each rule it can read it makes values that break it and
runs `bhpm run configs/quickstart.toml -o OUT --set section.key=VALUE` with each; every one
must be refused before any work: exit status 1 or 2, a message that names section.key (or
the section and then the key), that states its rule once (a rule twice is what joining two
checks' messages gives) and the documented one (the same bound, the same names), and
nothing made at OUT; as every value is given with --set, the message must name it as
`--set section.key`, not as the configuration file's. The values on the documented bounds
must be accepted (all in one run, the refused ones taken out and the rest run again). A rule whose breaking values are refused
by two layers (a reader's "section.key: rule" and a library's "section: owner: key rule") is
checked in two places. Every run also sets compute.device = "cuda:99", which no machine has
and which bhpm run refuses after the whole configuration is checked and before any work, so
that a value the binary wrongly accepts starts nothing. Which keys are integers comes from
the readers in src/config/ (integer getters), the rest from the rule.

Usage: check_option_rules.py [--self-test] BHPM REPOSITORY_ROOT. Exits 1 listing each
problem as "section.key: what". Clauses of the rule column it cannot read are listed as
"not machine-checked: section.key: clause". With --self-test it first checks itself on a
planted docs/configuration.md with a rule the binary does not enforce, one it enforces with
another bound and one with another list of names.
"""
import concurrent.futures
import dataclasses
import itertools
import math
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

NUM = r"-?\d+(?:\.\d+)?(?:e-?\d+)?"
ASIDE = r"\s*\((?=[^()]*[A-Za-z`])[^()]*\)"  # "(GPU 0)", not the interval "(0, 1)"
SENTINEL = ("compute.device", "cuda:99")
SENTINEL_TEXT = 'compute.device = "cuda:99"'
OTHER_SENTINEL = ("zz_check_option_rules.unknown", "1")
BAD_NAME = "no_such_name"
MISSING_FILE = "/nonexistent/check_option_rules"
# Settings another command takes as its own flags, checked there by other code: a value it
# refuses must be refused by the same rule as `bhpm run` states.
FLAGS = {
    "refinement_study.samples": ("refinement-study", "--samples"),
    "refinement_study.grid_points": ("refinement-study", "--grid"),
    "refinement_study.solver_tolerance": ("refinement-study", "--solver-tolerance"),
    "refinement_study.tolerances": ("refinement-study", "--tolerances"),
}


# ---------------------------------------------------------------------------------------
# The tables of docs/configuration.md


@dataclasses.dataclass
class Row:
    section: str  # "" for top-level keys
    key: str
    default: str
    rule: str
    integer: bool = False  # read as an integer (or integers)
    checked: bool = False  # some value breaks its rule

    @property
    def name(self):
        return f"{self.section}.{self.key}" if self.section else self.key


def split_cells(line):
    """The cells of a table line; a | inside backticks (max|u|) does not split."""
    cells, cell, in_code = [], "", False
    for char in line.strip().strip("|"):
        in_code ^= char == "`"
        if char == "|" and not in_code:
            cells.append(cell.strip())
            cell = ""
        else:
            cell += char
    return cells + [cell.strip()]


def documented_rows(text):
    """A Row per key of every table with a rule column (a row of two keys gives two Rows,
    its defaults split at commas)."""
    rows, section, rule_column = [], None, None
    for line in text.splitlines():
        heading = re.match(r"## (?:`\[(\w+)\]`|Top level)", line)
        if heading:
            section, rule_column = heading.group(1) or "", None
        elif section is not None and line.startswith("| key "):
            header = split_cells(line)
            rule_column = header.index("rule") if "rule" in header else None
        elif section is not None and rule_column is not None and line.startswith("| `"):
            cells = split_cells(line)
            keys = re.findall(r"`(\w+)`", cells[0])
            defaults = split_defaults(cells[1], len(keys))
            rows += [Row(section, k, d, cells[rule_column]) for k, d in zip(keys, defaults)]
    return rows


def split_defaults(text, count):
    parts = [p.strip() for p in text.split(",")] if count > 1 else [text]
    return parts if len(parts) == count else [text] * count


def resolved_rule(row, rows):
    """"as in `[predict]`" is that section's rule of the same key."""
    other = re.fullmatch(r"as in `\[(\w+)\]`", row.rule)
    if not other:
        return row.rule
    return next((r.rule for r in rows if (r.section, r.key) == (other.group(1), row.key)), "")


# ---------------------------------------------------------------------------------------
# Sets of numbers: a union of intervals, each maybe of integers or even integers


@dataclasses.dataclass
class Interval:
    lo: float = -math.inf
    lo_open: bool = True
    hi: float = math.inf
    hi_open: bool = True
    integer: bool = False
    even: bool = False

    def contains(self, x):
        if self.integer and x != int(x) or self.even and x % 2 != 0:
            return False
        above = x > self.lo if self.lo_open else x >= self.lo
        below = x < self.hi if self.hi_open else x <= self.hi
        return above and below


def number(text):
    value = float(text)
    return int(value) if re.fullmatch(r"-?\d+", text) else value


def apply_term(interval, term, loose):
    """Narrows `interval` by one term (">= 4", "in [0, 1)", "8..4096", "even", "integer");
    False when the term is not one. `loose` (a message's rule) lets text follow a bound.
    A range whose upper end is not a number ("1 .. T x modes") keeps its lower end only."""
    bound = (re.search if loose else re.match)(rf"(>=|<=|>|<)\s*({NUM})(?:\s|$)", term)
    between = re.fullmatch(rf"in\s*([\[(])\s*({NUM})\s*,\s*({NUM})\s*([\])])", term)
    span = re.fullmatch(rf"({NUM})\s*\.\.\s*(\S.*)", term)
    if bound and (loose or bound.end() >= len(term.rstrip())):
        op, value = bound.group(1), number(bound.group(2))
        if op[0] == ">":
            interval.lo, interval.lo_open = value, op == ">"
        else:
            interval.hi, interval.hi_open = value, op == "<"
    elif between:
        interval.lo, interval.lo_open = number(between.group(2)), between.group(1) == "("
        interval.hi, interval.hi_open = number(between.group(3)), between.group(4) == ")"
    elif span:
        interval.lo, interval.lo_open, interval.integer = number(span.group(1)), False, True
        if re.fullmatch(NUM, span.group(2)):
            interval.hi, interval.hi_open = number(span.group(2)), False
    elif re.fullmatch(NUM, term):
        interval.lo = interval.hi = number(term)
        interval.lo_open = interval.hi_open = False
    elif term in ("even", "even integer", "even integers"):
        interval.even = interval.integer = True
    elif term in ("integer", "integers", "an integer", "two integers"):
        interval.integer = True
    elif not loose:
        return False
    return True


def number_set(text, loose=False):
    """[Interval] of a rule such as "> 0, or < 0", "0, or 2..P", "even, >= 4", "integer
    >= 0", "each > 0", "two integers >= 16"; None when the text is not such a rule."""
    text = text.replace("positive", "> 0").replace("negative", "< 0")
    text = re.sub(r"^(?:each|two)\s+", "", text.strip())
    text = re.sub(r"\bintegers?\s+(?=[<>])", "integer, ", text)
    alternatives = []
    for alternative in re.split(r",?\s+or\s+", text):
        interval = Interval()
        for term in (t.strip() for t in re.split(r",(?![^\[(]*[\])])|\band\b", alternative)):
            if term and not apply_term(interval, term, loose):
                return None
        alternatives.append(interval)
    return alternatives


def in_set(intervals, x):
    return any(i.contains(x) for i in intervals)


def unread_upper_bound(text):
    """The upper end of "1 .. T x modes", which number_set() leaves open."""
    span = re.search(rf"{NUM}\s*\.\.\s*(\S[^,]*)", text)
    return span.group(1) if span and not re.fullmatch(NUM, span.group(1)) else None


# ---------------------------------------------------------------------------------------
# Probes: values that break a rule, and values on its bounds that keep it


@dataclasses.dataclass
class Probe:
    row: Row
    settings: list  # [(section.key, value as typed after --set)]
    value: object = None  # the number that breaks a numeric rule (or None)
    allowed: list = None  # [Interval] of the documented rule, to compare the message's
    names: set = None  # the documented names, to compare the message's


def integer_keys(root):
    """The keys a configuration reader reads as integers (src/config/*.cpp)."""
    text = "".join(p.read_text() for p in sorted((root / "src/config").glob("*.cpp")))
    return set(re.findall(r'\.(?:integer|integer_at_least|integers)\(\s*"(\w+)"', text))


def is_list_key(row):
    return row.default.strip("`").startswith("[")


def toml(value):
    if isinstance(value, list):
        return "[" + ", ".join(toml(v) for v in value) + "]"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def breaking_numbers(intervals, step, fractional):
    """The numbers just outside each finite end of the set (one step away, or on an open
    end), an odd number inside an even interval, and with `fractional` (a rule that says
    "integer") a fraction inside an integer one."""
    found = []
    for i in intervals:
        for end, is_open, outward in ((i.lo, i.lo_open, -1), (i.hi, i.hi_open, 1)):
            if math.isfinite(end):
                found.append(end if is_open else end + outward * (2 * step if i.even else step))
        inside = i.lo if math.isfinite(i.lo) else i.hi
        if i.even and math.isfinite(inside):
            found.append(inside + 1)
        elif fractional and i.integer and math.isfinite(inside):
            found.append(inside + 0.5)
    unique = []
    for x in found:
        if not in_set(intervals, x) and x not in unique:
            unique.append(x)
    return unique


def keeping_numbers(intervals, step):
    """(lower, upper): numbers on the set's lowest and highest finite ends, inside it."""
    ends = []
    for i in intervals:
        if math.isfinite(i.lo):
            ends.append(i.lo + (step if i.lo_open else 0))
        if math.isfinite(i.hi):
            ends.append(i.hi - (step if i.hi_open else 0))
    ends = [x for x in ends if in_set(intervals, x)]
    return (min(ends), max(ends)) if ends else (None, None)


def numeric_probes(row, text, intervals):
    integer = row.integer or any(i.integer for i in intervals)
    step = 1 if integer else 0.001
    listed = is_list_key(row)
    pair = text.startswith("two ")
    breaks = [Probe(row, [(row.name, toml(element_list(x, pair, listed)))], x, intervals)
              for x in breaking_numbers(intervals, step, "integer" in text)]
    if pair:
        lower = keeping_numbers(intervals, step)[0]
        breaks.append(Probe(row, [(row.name, toml([lower] * 3))], None, None))
    keeps = [None if x is None else (row.name, toml(element_list(x, pair, listed)))
             for x in keeping_numbers(intervals, step)]
    return breaks, keeps


def element_list(x, pair, listed):
    """The value as the key takes it: a number, a list of one, or a pair (x and a kept
    value are the same here: each element must keep the rule)."""
    return [x, x] if pair else [x] if listed else x


def word_probes(row, clause):
    """`"pad"`, `"truncate"`, `"none"`; `siren` or `glorot`; each one of `a`, `b`, once."""
    text = re.sub(ASIDE, "", clause)
    names = re.findall(r'`"?([^`"]+)"?`', text)
    rest = re.sub(r'`[^`]+`', "", text)
    if not names or re.sub(r"each one of|once|,|\bor\b|\s", "", rest):
        return None
    bad = [BAD_NAME] if is_list_key(row) else BAD_NAME
    probes = [Probe(row, [(row.name, toml(bad))], None, None, set(names))]
    if re.search(r"\bonce\b", rest):
        probes.append(Probe(row, [(row.name, toml([names[0], names[0]]))]))
    return probes


def phrase_probes(row, part, rows):
    """Probes for one comma-separated part of a clause that is not a plain number rule or
    list of names; None when the part is not one this checker reads."""
    same = {r.key: r for r in rows if r.section == row.section}
    relation = re.fullmatch(r"`?(\w+)`?\s*(>|<)\s*`?(\w+)`?", part)
    divides = re.fullmatch(r"divides `(\w+)`", part)
    exclusive = re.fullmatch(r"not with `(\w+)` > 0", part)
    below = re.fullmatch(r"each < `(\w+)\.(\w+)`", part)
    at_most = re.fullmatch(r"at most (\d+)", part)
    if part == "true or false":
        return [Probe(row, [(row.name, "maybe")])]
    if at_most and is_list_key(row):
        return [Probe(row, [(row.name, toml([0] * (int(at_most.group(1)) + 1)))])]
    if relation and relation.group(1) in same and relation.group(3) in same:
        both = [(same[relation.group(n)].name, "1") for n in (1, 3)]
        return [Probe(row, both)]
    if divides:
        other = next(r for r in rows if r.key == divides.group(1))
        return [Probe(row, [(other.name, "1"), (row.name, "0.3")])]
    if exclusive and exclusive.group(1) in same:
        return [Probe(row, [(row.name, "2"), (same[exclusive.group(1)].name, "1")])]
    if below:
        other = f"{below.group(1)}.{below.group(2)}"
        return [Probe(row, [(other, "2"), (row.name, "[2]")])]
    return simple_phrase_probes(row, part)


def simple_phrase_probes(row, part):
    values = {
        r"distinct": ["[0, 0]"],
        r"decreasing": ["[0.001, 0.01]"],
        r"an existing .*file": [MISSING_FILE + ".h5"],
        r"existing .*files of distinct stems": [toml([MISSING_FILE + ".csv"]),
                                                toml(["a/same.csv", "b/same.csv"])],
        r"none starting with `test-`": [toml(["test-x.csv"])],
        r"a name of `[^`]+`": [BAD_NAME],
        r".*must fit in the machine's memory": [str(2**40)],
        r"finite": ["inf"],
        r"each finite": ["[inf]"],
        r"an expression that parses": ["u *"],
        r"finite at every grid point": ["1/(x-x)"],
        r"periodic on the domain": ["x"],
    }
    for pattern, breaking in values.items():
        if re.fullmatch(pattern, part):
            return [Probe(row, [(row.name, v)]) for v in breaking]
    intervals = number_set(part)
    return numeric_probes(row, part, intervals)[0] if intervals else None


def top_level_parts(clause):
    """The clause without its asides, split at commas outside brackets."""
    parts = re.split(r",(?![^\[(]*[\])])", re.sub(ASIDE, "", clause))
    return [p.strip() for p in parts if p.strip()]


def row_probes(row, rows):
    """(breaking probes, [lower kept setting, upper kept setting], unread clauses)."""
    breaks, keeps, unread = [], [None, None], []
    for clause in (c.strip() for c in resolved_rule(row, rows).split(";")):
        condition = re.match(r"with `([\w.]+)` = `([^`]+)`:\s*(.*)", clause)
        if condition:  # "with `kind` = `file`: ...": the rule holds with that setting
            key = condition.group(1)  # of this section, or "section.key" of another
            given = [(key if "." in key else Row(row.section, key, "", "").name,
                      condition.group(2))]
            found = clause_probes(row, condition.group(3), rows, unread)
            breaks += [dataclasses.replace(p, settings=given + p.settings) for p in found]
            continue
        if not clause:
            continue
        words = word_probes(row, clause)
        intervals = None if words else number_set(re.sub(ASIDE, "", clause))
        if words:
            breaks += words
        elif intervals:
            found, kept = numeric_probes(row, clause, intervals)
            breaks += found
            keeps = [k or old for k, old in zip(kept, keeps)]
            upper = unread_upper_bound(clause)
            if upper:
                unread.append(f"upper bound {upper}")
        else:
            breaks += clause_probes(row, clause, rows, unread)
    return breaks, keeps, unread


def clause_probes(row, clause, rows, unread):
    whole = phrase_probes(row, re.sub(ASIDE, "", clause), rows)
    if whole is not None:
        return whole
    probes = []
    for part in top_level_parts(clause):
        found = phrase_probes(row, part, rows)
        if found is None:
            unread.append(part)
        else:
            probes += found
    return probes


# ---------------------------------------------------------------------------------------
# Running bhpm


@dataclasses.dataclass
class Outcome:
    status: int
    message: str
    made_output: bool


def run_arguments(root, settings, out):
    """`bhpm run` with the settings and a sentinel that stops it before any work."""
    sentinel = SENTINEL if all(k != SENTINEL[0] for k, _ in settings) else OTHER_SENTINEL
    arguments = ["run", str(root / "configs/quickstart.toml"), "-o", out]
    for key, value in settings + [sentinel]:
        arguments += ["--set", f"{key}={value}"]
    return arguments


def flag_arguments(probe, out):
    """The other command with the probe's value as its flag, or None."""
    command, flag = FLAGS.get(probe.row.name, (None, None))
    if command is None or len(probe.settings) != 1:
        return None
    value = probe.settings[0][1]
    return [command, flag, value.strip("[]").replace(" ", ""), "-o", out + ".h5"]


def run_bhpm(binary, arguments, out):
    command = [binary] + arguments
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=120,
                              env=dict(os.environ, OMP_NUM_THREADS="1"))
    except subprocess.TimeoutExpired:
        return Outcome(124, "no answer in 120 s", os.path.exists(out))
    message = done.stderr.strip()
    return Outcome(done.returncode, message[len("error: "):] if message.startswith("error: ")
                   else message, os.path.exists(out))


def refused_by_sentinel(outcome):
    return SENTINEL_TEXT in outcome.message or OTHER_SENTINEL[0].split(".")[0] in outcome.message


# ---------------------------------------------------------------------------------------
# Judging a refusal


def name_position(message, row):
    """Where the message names section.key, or the section and then the key (a library's
    rule relayed by its reader: "FILE: section: owner: key must ..."); None if nowhere."""
    named = re.search(rf"(?<![\w.]){re.escape(row.name)}(?!\w)", message)
    if named:
        return named.start()
    at = message.find(f"{row.section}: ") if row.section else -1
    after = message[at + len(row.section):]
    return at if at >= 0 and re.search(rf"\b{row.key}\b", after) else None


def names_key(message, row):
    return name_position(message, row) is not None


def layer(message, row):
    return "reader" if re.search(rf"{re.escape(row.name)}:", message) else "library"


def message_rule(message, row):
    """The rule the message states: after "section.key: " or "key ", without "(got ...)"."""
    text = re.sub(r"\s*\(got [^()]*(?:\([^()]*\)[^()]*)*\)\s*$", "", message)
    reader = re.search(rf"{re.escape(row.name)}:\s*(.*)", text)
    library = re.search(rf"\b{row.key}\b(?: and \w+)?\s+(must.*)", text)
    rule = (reader or library).group(1) if (reader or library) else text
    return re.sub(r"^expected (an integer|true or false|a number).*", r"\1", rule)


def rule_numbers(rule):
    text = re.sub(ASIDE + r"|\s*\[[^\[\]]*[a-z][^\[\]]*\]", "", rule)
    text = re.sub(r"\bmust (?:be )?|\bevery \w+ |\ba number\b|\bnumber\b|\ban |\ba |"
                  r"\bfinite and\b|\bseconds\b|,?\s*each\b", " ", text)
    text = text.replace("at most", "<=").replace("at least", ">=").replace("greater than", ">")
    text = re.sub(r"\beven integer\b", "even, integer", text)
    return number_set(text, loose=True)


def rule_problems(probe, outcome):
    """What the message's rule says otherwise than the docs'."""
    rule = message_rule(outcome.message, probe.row)
    if probe.names is not None:
        stated = set(re.findall(r'"([^"]+)"', rule))
        if stated != probe.names:
            yield f"the message names {sorted(stated)}, the docs {sorted(probe.names)}"
    if probe.value is None or probe.allowed is None:
        return
    stated = rule_numbers(rule)
    if not stated or all(math.isinf(i.lo) and math.isinf(i.hi) and not i.integer
                         for i in stated):
        yield f"message rule not machine-read: {rule!r}"
        return
    nearest = nearest_allowed(probe.allowed, probe.value)
    if in_set(stated, probe.value) or (nearest is not None and not in_set(stated, nearest)):
        yield (f"the docs' rule ({probe.row.rule}) and the message's ({rule}) differ at "
               f"{toml(probe.value)}" + ("" if nearest is None else f" / {toml(nearest)}"))


def nearest_allowed(intervals, x):
    candidates = []
    for i in intervals:
        for end, is_open in ((i.lo, i.lo_open), (i.hi, i.hi_open)):
            if math.isfinite(end):
                step = 2 if i.even else 1 if i.integer else 0.001
                candidates += [end, end + step, end - step] if is_open else [end]
    inside = [c for c in candidates if in_set(intervals, c)]
    return min(inside, key=lambda c: abs(c - x)) if inside else None


def repeated_rule(message):
    """A rule stated twice: "must" twice, or a segment between ": " with a bound twice."""
    segments = [s.strip() for s in message.split(": ") if re.search(r"[<>]|\bmust\b", s)]
    twice = {s for s in segments if segments.count(s) > 1}
    if len(re.findall(r"\bmust\b", message)) > 1 or twice:
        return f"states a rule twice: {message!r}"
    return None


def refusal_problems(probe, outcome):
    setting = ", ".join(f"{k}={v}" for k, v in probe.settings)
    where = f"{probe.row.name}: {setting}"
    if outcome.status not in (1, 2) or refused_by_sentinel(outcome):
        yield f"{where}: not refused by the rule (exit {outcome.status}: {outcome.message!r})"
        return
    if outcome.made_output:
        yield f"{where}: refused, but after making the output folder"
    if not names_key(outcome.message, probe.row):
        yield f"{where}: the message does not name {probe.row.name}: {outcome.message!r}"
    repeated = repeated_rule(outcome.message)
    if repeated:
        yield f"{where}: {repeated}"
    for problem in rule_problems(probe, outcome):
        yield f"{where}: {problem}"


# ---------------------------------------------------------------------------------------
# Kept values: all at once, each refusal taken out and the rest run again


class Runner:
    """Runs bhpm, `jobs` at a time, each with an output folder of its own."""

    def __init__(self, binary, root, scratch, jobs):
        self.binary, self.root, self.scratch = binary, root, scratch
        self.pool = concurrent.futures.ThreadPoolExecutor(jobs)
        self.numbers = itertools.count(1)
        self.count = 0

    def run(self, arguments_of):
        """bhpm with the arguments arguments_of(OUT) for an output path OUT of its own."""
        number = next(self.numbers)
        self.count = max(self.count, number)
        out = os.path.join(self.scratch, f"out{number}")
        return run_bhpm(self.binary, arguments_of(out), out)

    def run_settings(self, settings):
        return self.run(lambda out: run_arguments(self.root, settings, out))

    def run_all(self, setting_lists):
        return list(self.pool.map(self.run_settings, setting_lists))

    def run_flags(self, probes):
        return list(self.pool.map(lambda p: self.run(lambda out: flag_arguments(p, out)),
                                  probes))


def subjects(message, rows):
    """The rows the message is about: those it names first."""
    places = {}
    for row in rows:
        at = name_position(message, row)
        if at is not None:
            places.setdefault(at, []).append(row.name)
    return places[min(places)] if places else []


def kept_problems(runner, settings, rows, notes):
    """Problems of the kept values in `settings`; a value refused because another rule
    breaks with it (t_end on its bound and output_dt) is a note."""
    if not settings:
        return []
    outcome = runner.run_settings(settings)
    if refused_by_sentinel(outcome):
        return []
    about = subjects(outcome.message, rows)
    refused = [s for s in settings if s[0] in about]
    if refused:
        rest = [s for s in settings if s not in refused]
        here = [f"{k}: the documented bound {v} is refused: {outcome.message!r}"
                for k, v in refused]
        return here + kept_problems(runner, rest, rows, notes)
    named = [s for s in settings if s[0] in outcome.message] if len(settings) > 1 else settings
    if named:  # output_dt must divide domain.t_end = 0.001: t_end on its bound is the cause
        notes += [f"{k}={v} (on its bound) breaks another rule: {outcome.message!r}"
                  for k, v in named]
        return kept_problems(runner, [s for s in settings if s not in named], rows, notes)
    half = len(settings) // 2
    return (kept_problems(runner, settings[:half], rows, notes) +
            kept_problems(runner, settings[half:], rows, notes))


# ---------------------------------------------------------------------------------------


def plan(root):
    """(rows, breaking probes, [lower kept settings, upper kept settings], unread lines)."""
    rows = documented_rows((root / "docs/configuration.md").read_text())
    integers = integer_keys(root)
    rows = [dataclasses.replace(r, integer=r.key in integers) for r in rows]
    probes, kept, unread = [], [[], []], []
    for row in rows:
        found, ends, clauses = row_probes(row, rows)
        row.checked = bool(found)
        probes += [p for p in found if all(p.settings != q.settings for q in probes)]
        kept[0] += [ends[0]] if ends[0] else []
        kept[1] += [ends[1]] if ends[1] and ends[1] != ends[0] else []
        unread += [f"not machine-checked: {row.name}: {c}" for c in clauses]
    return rows, probes, kept, unread


def check(binary, root, jobs):
    """(problems, not machine-checked lines, notes, counts)."""
    rows, probes, kept, unread = plan(root)
    notes = []
    with tempfile.TemporaryDirectory() as scratch:
        runner = Runner(binary, root, scratch, jobs)
        kept_runs = [runner.pool.submit(kept_problems, runner, k, rows, notes) for k in kept]
        outcomes = runner.run_all([p.settings for p in probes])
        problems = [p for probe, o in zip(probes, outcomes) for p in refusal_problems(probe, o)]
        problems += layer_problems(probes, outcomes)
        problems += flag_problems(runner, probes, outcomes)
        problems += [p for run in kept_runs for p in run.result()]
        runner.pool.shutdown()
    config = str(root / "configs")
    filed = sorted({p.row.name for p, o in zip(probes, outcomes)
                    if o.message.startswith(config) and names_key(o.message, p.row)})
    problems += [f"{name}: the refusal of a --set value names the configuration file, not "
                 f"--set {name}" for name in filed]
    counts = (sum(r.checked for r in rows), len(probes), len(kept[0]) + len(kept[1]),
              runner.count)
    return problems, unread, notes, counts


def flag_problems(runner, probes, outcomes):
    """The values of FLAGS' settings given to their other command: refused there too, by
    a rule that agrees with the one `bhpm run` states on the rule's bounds."""
    pairs = [(p, o) for p, o in zip(probes, outcomes) if flag_arguments(p, "") is not None]
    for (probe, by_run), by_flag in zip(pairs, runner.run_flags([p for p, _ in pairs])):
        command, flag = FLAGS[probe.row.name]
        where = f"{probe.row.name}: bhpm {command} {flag} {probe.settings[0][1]}"
        if by_flag.status not in (1, 2):
            yield f"{where}: not refused (exit {by_flag.status}: {by_flag.message!r})"
        elif probe.value is not None and probe.allowed:
            points = breaking_numbers(probe.allowed, 1 if probe.row.integer else 0.001, False)
            points += [nearest_allowed(probe.allowed, x) for x in points]
            rules = [rule_numbers(message_rule(o.message, probe.row)) for o in (by_run, by_flag)]
            if None in rules or any(in_set(rules[0], x) != in_set(rules[1], x)
                                    for x in points if x is not None):
                yield (f"{where}: two rules for one value: {by_run.message!r} (bhpm run) and "
                       f"{by_flag.message!r}")


def layer_problems(probes, outcomes):
    """A numeric rule whose breaking values are refused by a reader's check and by a
    library's (grid_points: 2 by the reader's ">= 4", 5 by the library's "even and >= 4")."""
    layers = {}
    for probe, outcome in zip(probes, outcomes):
        if probe.allowed and outcome.status in (1, 2) and not refused_by_sentinel(outcome):
            layers.setdefault((probe.row.name, id(probe.allowed)), {}).setdefault(
                layer(outcome.message, probe.row), outcome.message)
    return [f"{name}: checked in two places: {' | '.join(repr(m) for m in found.values())}"
            for (name, _), found in layers.items() if len(found) > 1]


PLANTED = """## `[leaves]`

| key | default | rule | meaning |
|---|---|---|---|
| `width` | 64 | >= 100 | planted: the binary accepts 99 |
| `hidden_layers` | 6 | >= 0 | planted: the binary refuses 0 |
| `first_omega` | 3 | > 0 | as the binary |
| `initialization` | `"siren"` | `siren`, `glorot` or `planted` | planted: a name the binary lacks |
"""


def self_test(binary, root):
    with tempfile.TemporaryDirectory() as planted:
        tree = pathlib.Path(planted)
        (tree / "docs").mkdir()
        (tree / "configs").mkdir()
        (tree / "docs/configuration.md").write_text(PLANTED)
        shutil.copy(root / "configs/quickstart.toml", tree / "configs")
        shutil.copytree(root / "src/config", tree / "src/config")
        problems = check(binary, tree, os.cpu_count() or 2)[0]
    expected = {"leaves.width": "not refused", "leaves.hidden_layers": "differ",
                "leaves.initialization": "the message names"}
    missed = [k for k, what in expected.items()
              if not any(p.startswith(k) and what in p for p in problems)]
    wrong = [p for p in problems if not any(p.startswith(k) for k in expected)]
    for line in [f"self-test: {k} not reported" for k in missed] + [
            f"self-test: reported {p}" for p in wrong]:
        print(line)
    return not missed and not wrong


def main(argv):
    arguments = [a for a in argv if a != "--self-test"]
    if len(arguments) != 2:
        print(__doc__)
        return 2
    binary, root = os.path.abspath(arguments[0]), pathlib.Path(arguments[1]).resolve()
    if "--self-test" in argv and not self_test(binary, root):
        return 1
    start = time.monotonic()
    problems, unread, notes, counts = check(binary, root, os.cpu_count() or 2)
    for line in unread + [f"note: {n}" for n in notes] + problems:
        print(line)
    keys, refusals, kept, runs = counts
    print(f"{keys} keys' rules checked with {refusals} values that break them and {kept} on "
          f"their bounds; {len(unread)} clauses not machine-checked; {len(problems)} problems "
          f"({runs} runs of bhpm, {time.monotonic() - start:.1f} s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
