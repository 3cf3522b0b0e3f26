#!/usr/bin/env python3
"""Reads cargo-mutants' results for docs/mutation.md and the nightly workflow.

    python3 .ci/mutants.py table [--list FILE] OUT...   the per-file table (Markdown)
    python3 .ci/mutants.py check [--list FILE] OUT...   exit 1 when a mutant survived
                                                        that docs/mutation.md does not
                                                        justify

Each OUT is a cargo-mutants output folder (the one holding mutants.out/, or
mutants.out/ itself). Several may be given: the shards of one run, or a first pass
and the passes that retested what it missed (`--iterate`); a later folder's outcome
for a mutant replaces an earlier one's.

`--list FILE` is `cargo mutants --list` of the code the table is about: outcomes of
mutants no longer in it (the code changed between passes) are dropped, and a mutant in
it that no folder has an outcome for is counted as not run, which `check` also fails.
Code added above a mutant moves its line: where a file has as many mutants of one kind
(its name without line and column) in the list as outcomes, they are paired in line
order, so a later pass need only test the mutants of the new code.

A survivor is justified by a line of the "Survivors" section of docs/mutation.md that
starts with the mutant in backquotes, without its line and column (they move with
every edit), and says how many such mutants it covers when more than one:

    - `src/generators/bitboard/attacks.rs: replace | with ^ in rook_targets` (3): ...
"""

import json
import re
import sys
from collections import Counter
from pathlib import Path

SURVIVORS = Path(__file__).resolve().parent.parent / "docs" / "mutation.md"
KINDS = {
    "CaughtMutant": "caught",
    "MissedMutant": "missed",
    "Timeout": "timeout",
    "Unviable": "unviable",
}


def outcomes(folders):
    """Every mutant's last outcome: name -> (file, kind)."""
    last = {}
    for folder in folders:
        path = Path(folder)
        if (path / "mutants.out").is_dir():
            path = path / "mutants.out"
        try:
            data = json.loads((path / "outcomes.json").read_text())
        except (OSError, ValueError) as e:
            sys.exit(f"{folder}: no cargo-mutants outcomes to read ({e})")
        for o in data["outcomes"]:
            mutant = o["scenario"].get("Mutant") if isinstance(o["scenario"], dict) else None
            if mutant is None or o["summary"] not in KINDS:
                continue
            last[mutant["name"]] = (mutant["file"], KINDS[o["summary"]])
    return last


def key(name):
    """A mutant's name without its line and column."""
    return re.sub(r"^([^:]+):\d+:\d+:", r"\1:", name)


def justified(text):
    """The survivors docs/mutation.md justifies, with how many of each."""
    section = re.split(r"^## Survivors\s*$", text, maxsplit=1, flags=re.M)
    if len(section) < 2:
        sys.exit(f"{SURVIVORS}: no '## Survivors' section")
    body = section[1].split("\n## ", 1)[0]
    found = Counter()
    for m in re.finditer(r"^- `([^`]+)`(?: \((\d+)\))?", body, re.M):
        found[m.group(1)] += int(m.group(2) or 1)
    return found


def position(name):
    """A mutant's file, line and column, for ordering."""
    m = re.match(r"^([^:]+):(\d+):(\d+):", name)
    return (m.group(1), int(m.group(2)), int(m.group(3))) if m else (name, 0, 0)


def current(last, listing):
    """The outcomes of the mutants in `cargo mutants --list`, "not run" for the rest."""
    if listing is None:
        return last
    names = [line.strip() for line in Path(listing).read_text().splitlines() if line.strip()]
    listed, known = {}, {}
    for n in sorted(names, key=position):
        listed.setdefault(key(n), []).append(n)
    for n in sorted(last, key=position):
        known.setdefault(key(n), []).append(n)
    out = {}
    for k, now in listed.items():
        before = known.get(k, [])
        if len(before) == len(now):
            out.update({n: last[b] for n, b in zip(now, before)})
        else:
            out.update({n: last.get(n, (n.split(":", 1)[0], "not run")) for n in now})
    return out


def table(last):
    kinds = ["caught", "timeout", "unviable", "missed", "not run"]
    files = {}
    for f, kind in last.values():
        files.setdefault(f, Counter())[kind] += 1
    rows = ["| file | mutants | " + " | ".join(kinds) + " |", "|---" * (len(kinds) + 2) + "|"]
    total = Counter()
    for f in sorted(files):
        c = files[f]
        total.update(c)
        rows.append(f"| `{f}` | {sum(c.values())} | " + " | ".join(str(c[k]) for k in kinds) + " |")
    rows.append(f"| all | {sum(total.values())} | " + " | ".join(str(total[k]) for k in kinds) + " |")
    print("\n".join(rows))


def check(last):
    survived = Counter(key(n) for n, (_, kind) in last.items() if kind == "missed")
    allowed = justified(SURVIVORS.read_text())
    holes = survived - allowed
    stale = allowed - survived
    for k, n in sorted(holes.items()):
        print(f"not justified in docs/mutation.md: {k}" + (f" ({n})" if n > 1 else ""))
    for k, n in sorted(stale.items()):
        print(f"justified but not seen surviving (caught now, or not run): {k}" + (f" ({n})" if n > 1 else ""))
    not_run = sum(1 for _, kind in last.values() if kind == "not run")
    print(f"{sum(survived.values())} survivors, {sum(holes.values())} not justified, {not_run} not run")
    return 1 if holes or not_run else 0


def main():
    args = sys.argv[1:]
    if not args or args[0] not in ("table", "check"):
        sys.exit(__doc__)
    command, args = args[0], args[1:]
    listing = None
    if args[:1] == ["--list"]:
        if len(args) < 2:
            sys.exit(__doc__)
        listing, args = args[1], args[2:]
    if not args:
        sys.exit(__doc__)
    last = current(outcomes(args), listing)
    if command == "table":
        table(last)
        return 0
    return check(last)


if __name__ == "__main__":
    sys.exit(main())
