#!/usr/bin/env python3
"""Checks what the docs name against the repository: every path in backticks exists, every
`bhpm <command>` is a subcommand, every configuration key `section.key` is one that
docs/configuration.md lists (and the configuration readers in src/config/ read), and every
citation of a section, docs/FILE.md, "Section" (also `docs/FILE.md`, "A", "B" and "C" or
docs/FILE.md ("A", "B")), names a heading of FILE.md: in README.md and docs/, and in the
comments of src/, tests/, bench/, configs/ and scripts/, where a citation may wrap over
comment lines. A heading matches by its text after the #'s, with or without its backticks
and a trailing parenthetical ("Training phases" cites "## Training phases (paper
appendix B)").

Usage: check_doc_references.py REPOSITORY_ROOT. Exits 1 listing each stale reference as
FILE:LINE: what. The dated results log is history and is not checked (its headings can be
cited). With --self-test it first checks itself on a small tree with one stale reference of
each kind.
"""
import pathlib
import re
import sys

PATH_ROOTS = ("src/", "docs/", "configs/", "scripts/", "bench/", "tests/", "examples/", ".ci/")
CODE = re.compile(r"`([^`\n]+)`")
FILE_TYPES = {"h5", "json", "toml", "log", "ckpt", "csv", "png", "txt", "md", "cpp", "h", "py",
              "sh", "npz", "gp", "html", "nc"}
KEY = re.compile(r"(?<![\w./-])([a-z_]+)\.([a-z_0-9]+)(?![\w(/])")
CITATION = re.compile(r'docs/([a-z0-9_-]+\.md)`?(?:, | \()("[^"]+"(?:(?:, | and |, and )"[^"]+")*)')
COMMENTED_FOLDERS = ("src", "tests", "bench", "configs", "scripts")
COMMENTED_TYPES = {".h", ".cpp", ".py", ".sh", ".toml", ".txt", ".cmake"}


def subcommands(root):
    names = set()
    for source in (root / "src/cli").glob("*.cpp"):
        names.update(re.findall(r'add_subcommand\(\s*"([a-z-]+)"', source.read_text()))
    return names


def documented_keys(root):
    """{section: {key}} from the tables of docs/configuration.md ("" for top-level keys)."""
    keys, section = {}, None
    for line in (root / "docs/configuration.md").read_text().splitlines():
        heading = re.match(r"## (?:`\[(\w+)\]`|Top level)", line)
        if heading:
            section = heading.group(1) or ""
            keys.setdefault(section, set())
        elif section is not None and line.startswith("| `"):
            keys[section].add(re.match(r"\| `([^`]+)`", line).group(1))
    return keys


def read_keys(root):
    """Every key a configuration reader reads: the first string argument of a getter."""
    text = "".join(p.read_text() for p in (root / "src/config").glob("*.cpp"))
    return set(re.findall(r'\.(?:number|integer|boolean|string|one_of\w*|numbers|integers|strings|'
                          r'positive_number|integer_at_least|\w+)\(\s*"([a-z_0-9]+)"', text))


def path_exists(root, token):
    token = re.split(r"[:\s,]", token)[0].rstrip(".)")
    if any(c in token for c in "<*{$") or "NAME" in token:
        return True
    # a benchmark or script is named by its program: bench/leaf_step is bench/leaf_step.cpp
    return any((root / (token + suffix)).exists() for suffix in ("", ".cpp", ".sh", ".py"))


def headings(document):
    """The section names a citation of `document` may use: each heading's text, without its
    backticks, and without a trailing parenthetical. Headings inside code blocks do not count."""
    names, in_code = set(), False
    for line in document.read_text().splitlines():
        in_code ^= line.startswith("```")
        heading = None if in_code else re.match(r"#+\s+(.*?)\s*$", line)
        if heading:
            for text in (heading.group(1), heading.group(1).replace("`", "")):
                names.update({text, re.sub(r"\s+\([^()]*\)$", "", text)})
    return names


def joined_lines(text):
    """The text with its line breaks, and the comment markers that open the next line,
    joined into single spaces, and for each character of the result its line number."""
    joined, lines = [], []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if joined:
            line = re.sub(r"^(?:///?|#+|\*)\s*", "", line)
            joined.append(" ")
            lines.append(number)
        joined.append(line)
        lines.extend([number] * len(line))
    return "".join(joined), lines


def citation_problems(root, path):
    """Each section that a citation in `path` names and its document does not head."""
    text, lines = joined_lines(path.read_text())
    for citation in CITATION.finditer(text):
        where = f"{path.relative_to(root)}:{lines[citation.start()]}"
        document = root / "docs" / citation.group(1)
        if not document.exists():
            yield f"{where}: no such document docs/{citation.group(1)}"
            continue
        for section in re.findall(r'"([^"]+)"', citation.group(2)):
            if section not in headings(document):
                yield f'{where}: docs/{citation.group(1)} has no section "{section}"'


def cited_files(root):
    """README.md, docs/ without the results log, and the source files whose comments cite."""
    documents = [root / "README.md"] + sorted((root / "docs").glob("*.md"))
    yield from (d for d in documents if d.name != "results-log.md")
    for folder in COMMENTED_FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix in COMMENTED_TYPES and path.is_file():
                yield path


def problems(root):
    commands, keys, readers = subcommands(root), documented_keys(root), read_keys(root)
    documents = [root / "README.md"] + sorted((root / "docs").glob("*.md"))
    for document in documents:
        if document.name == "results-log.md":
            continue
        for number, line in enumerate(document.read_text().splitlines(), 1):
            where = f"{document.relative_to(root)}:{number}"
            for code in CODE.findall(line):
                if code.startswith(PATH_ROOTS) and not path_exists(root, code):
                    yield f"{where}: no such path {code}"
                command = re.match(r"bhpm ([a-z][a-z-]*)", code)
                if command and command.group(1) not in commands:
                    yield f"{where}: no subcommand `bhpm {command.group(1)}`"
                for section, key in KEY.findall(code):
                    if section in keys and key not in FILE_TYPES and key != "key":
                        if key not in keys[section]:
                            yield f"{where}: {section}.{key} is not in docs/configuration.md"
                        elif key not in readers:
                            yield f"{where}: {section}.{key}: no configuration reader reads it"
    for path in cited_files(root):
        yield from citation_problems(root, path)


def self_test():
    """The checker on a planted tree: one good and one stale reference of each kind."""
    import tempfile
    cite = "docs/solver.md" + ", "  # apart, so that this file's own text cites no section
    with tempfile.TemporaryDirectory() as folder:
        root = pathlib.Path(folder)
        for name, text in {
                "src/cli/main.cpp": 'app.add_subcommand("train", "Train")',
                "src/config/root_config.cpp": 'section.integer("order", 2)',
                "docs/configuration.md": "## `[root]`\n\n| `order` | 2 | >= 1 | K |\n| `width` | 1 | | |\n",
                "configs/a.toml": "",
                "docs/solver.md": "# Solver\n\n## Adaptive time steps (step doubling)\n\n"
                                  "### `Speed`\n",
                "src/pde/a.h": f'/// ({cite}"Adaptive time\n/// steps"; {cite}"Speed")\n'
                               f'/// ({cite}"Dealiasing")\n',
                "README.md": "`configs/a.toml` `configs/b.toml` `bhpm train` `bhpm fly`\n"
                             "`root.order` `root.depth` `root.width` `root.h5`\n"}.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text)
        found = [p.split(": ", 1)[1] for p in problems(root)]
        expected = ["no such path configs/b.toml", "no subcommand `bhpm fly`",
                    "root.depth is not in docs/configuration.md",
                    "root.width: no configuration reader reads it",
                    'docs/solver.md has no section "Dealiasing"']
        if found != expected:
            print(f"self-test: found {found}, expected {expected}")
            return False
    return True


def main():
    if "--self-test" in sys.argv:
        sys.argv.remove("--self-test")
        if not self_test():
            return 1
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    found = list(problems(root))
    for problem in found:
        print(problem)
    print(f"{len(found)} stale references" if found else "every reference checked resolves")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
