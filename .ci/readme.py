#!/usr/bin/env python3
"""Run every command the README prints, as printed, and compare what it prints with the
README's transcripts, so the README cannot drift.

The commands are the lines of its ```sh blocks and the `$ ` lines of its transcripts
(```text blocks); a line ending in a backslash goes on. Each must exit 0, unless its
line ends with a comment `# exits N`. They run one after another from the checkout's
root, as a user would, with the release build's folder on the PATH (the README's
"To have xqdiff on the PATH"), so the builds the commands need are the ones already
made, and with NO_COLOR=1, COLUMNS=80 and XQDIFF_NO_PROGRESS=1 (a terminal's bar
leaves nothing on screen; the plain lines off a terminal differ with the machine's
speed), as in a CI log. Files the commands leave that
git does not know of (jobs files, an edited adapter, a known-bugs list, findings under
xqdiff-findings/) are removed afterwards, and xqdiff-report/ when it was not there
before; files that were there before stay.

A transcript's expected output is the lines after its `$ ` command up to the next `$ `
line or the closing fence. It is compared with what the command prints (stdout and
stderr together, trailing spaces ignored), with two placeholders for what varies from
run to run (times, rates, dates, absolute paths, the versions of installed engines):

  [..]   within a line, any text (none included) up to what follows it on that line
  ...    a line of its own: any run of lines (none included)

A difference fails the run with a unified diff whose `-` side counts README.md's lines.
`--bless` writes what the commands printed into the transcripts instead, keeping each
placeholder where it still matched (a changed line keeps its `[..]` where the old one
had them), for a maintainer to read with `git diff` after changing output on purpose.

The synopses (the lines `xqdiff CMD [...]` of the ```text blocks without a `$ `) are
checked against `xqdiff CMD --help`: every option they name exists, and the synopses of
a command name every option of its --help, unless one of them says `see --help`.

  .ci/readme.py [--only LINE|REGEX]... [--already-ran "COMMAND"]... [--bless] [--list]
  .ci/readme.py --self-test
  .ci/readme.py --speed-table

`--only` runs the commands starting on that README line, or matching that regex (the
others are not run, so build what they need first; the synopses are not checked).
`--already-ran` names a command the caller has just run itself (`.ci/run` runs the test
command before everything else), so it is not run twice. `$EDITOR` is set to a command
that makes the edit the README asks for (it copies the pyffish adapter over the
template), so the steps that open an editor run unattended. `--self-test` shows on
made-up transcripts that a changed line fails, that placeholders match and that
--bless keeps them. `--speed-table` runs `xqdiff bench` from the release build and
rewrites the README's speed table between its markers, with the date, the commit, the
machine and its load (it builds the release binary first).
"""

import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import time
import unittest
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, List, Optional, Tuple

ROOT = Path(__file__).resolve().parent.parent
EXPECT = re.compile(r"#\s*exits\s+(\d+)\b")
ANY_TEXT = "[..]"
ANY_LINES = "..."
SPEED_BEGIN = "<!-- speed table: made by `.ci/readme.py --speed-table`, do not edit -->"
SPEED_END = "<!-- end of speed table -->"


@dataclass
class Command:
    line: int  # README line the command starts on, 1-based
    text: str
    expected_exit: int
    # A transcript's expected output: README lines [first, first + len) 0-based.
    first: Optional[int] = None
    expected: List[str] = field(default_factory=list)

    @property
    def transcript(self) -> bool:
        return self.first is not None


def commands(readme: str) -> List[Command]:
    """Every command the README prints, with its transcript's expected output."""
    found: List[Command] = []
    fence = None
    pending, start = None, 0
    current: Optional[Command] = None  # the transcript whose output lines are being read
    for index, line in enumerate(readme.splitlines()):
        number = index + 1
        if line.startswith("```"):
            fence = None if fence is not None else line[3:].strip()
            pending, current = None, None
            continue
        if fence not in ("sh", "text"):
            continue
        if pending is None:
            stripped = line.strip()
            if fence == "sh":
                if not stripped or stripped.startswith("#"):
                    continue
            elif not line.startswith("$ "):
                if current is not None:
                    if current.first is None:
                        current.first = index
                    current.expected.append(line.rstrip())
                continue
            else:
                line = line[2:]
            pending, start, current = "", number, None
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1].strip() + " "
            continue
        pending += line.strip()
        match = EXPECT.search(pending)
        command = Command(start, pending, int(match.group(1)) if match else 0)
        if fence == "text":
            # Output starts on the next line, even when it is empty.
            command.first = index + 1
            current = command
        found.append(command)
        pending = None
    return found


def line_matches(expected: str, actual: str) -> bool:
    parts = expected.split(ANY_TEXT)
    return re.fullmatch(".*".join(map(re.escape, parts)), actual, re.DOTALL) is not None


def carry_placeholders(expected: str, actual: str) -> str:
    """`actual` with `[..]` over the text that lines up with `expected`'s placeholders,
    so a line whose fixed part changed keeps its placeholders when blessed."""
    if ANY_TEXT not in expected:
        return actual
    opcodes = difflib.SequenceMatcher(None, expected, actual, autojunk=False).get_opcodes()
    spans = []
    for found in re.finditer(re.escape(ANY_TEXT), expected):
        p, q = found.start(), found.end()
        start, end = None, None
        for tag, i1, i2, j1, j2 in opcodes:
            if i2 <= p and not (i1 == i2 == p):
                continue
            if i1 >= q and not (i1 == i2 == q):
                break
            left = j1 + (p - i1) if tag == "equal" and p > i1 else j1
            right = j2 - (i2 - q) if tag == "equal" and i2 > q else j2
            start = left if start is None else min(start, left)
            end = right if end is None else max(end, right)
        if start is not None:
            # Spaces at its ends are the columns' padding, not what varies.
            while start < end and actual[start] == " ":
                start += 1
            while end > start and actual[end - 1] == " ":
                end -= 1
            spans.append((start, end))
    out, at = [], 0
    for start, end in sorted(spans):
        if start < at:  # overlaps the previous span: widen it
            start = at
            if out and out[-1] == ANY_TEXT:
                at = max(at, end)
                continue
        out.append(actual[at:start])
        out.append(ANY_TEXT)
        at = max(start, end)
    out.append(actual[at:])
    return "".join(out)


def similar(expected: str, actual: str) -> bool:
    """Whether `actual` is `expected` changed rather than another line: then --bless
    writes it in the expected line's place, with its placeholders carried over."""
    if not expected or expected == ANY_LINES:
        return False
    matcher = difflib.SequenceMatcher(None, expected, actual, autojunk=False)
    return all(r() > 0.6 for r in (matcher.real_quick_ratio, matcher.quick_ratio, matcher.ratio))


def align(expected: List[str], actual: List[str]) -> Tuple[bool, List[str]]:
    """Whether `actual` matches `expected`, and `actual` as it would be written into the
    README: matched lines as the README has them (placeholders kept), a run of lines one
    `...` stood for as that `...`, changed lines with the placeholders carried over."""
    n, m = len(expected), len(actual)
    # What each step is worth: a line matched, a line changed (so a new line takes the
    # place of the one it changed, rather than hiding in a `...` beside it); a line a
    # `...` stands for is worth nothing, as an expected line missing or an actual line
    # extra, so a `...` never swallows lines the lines after it could match. Where
    # standing for a line and calling it extra are worth the same, the walk below
    # prefers the `...`.
    MATCH, CHANGED, ABSORB = 4, 2, 0
    fits = {}

    def step(i, j):
        if (i, j) not in fits:
            if expected[i] == ANY_LINES:
                fits[i, j] = "absorb"
            elif line_matches(expected[i], actual[j]):
                fits[i, j] = "match"
            elif similar(expected[i], actual[j]):
                fits[i, j] = "changed"
            else:
                fits[i, j] = None
        return fits[i, j]

    # best[i][j]: the most expected[i:] and actual[j:] can be worth together.
    best = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n, -1, -1):
        for j in range(m, -1, -1):
            if i == n and j == m:
                continue
            score = -1
            if i < n:
                score = best[i + 1][j]  # missing, or a `...` that is done
                if j < m:
                    kind = step(i, j)
                    if kind == "absorb":
                        score = max(score, best[i][j + 1] + ABSORB)
                    elif kind == "match":
                        score = max(score, best[i + 1][j + 1] + MATCH)
                    elif kind == "changed":
                        score = max(score, best[i + 1][j + 1] + CHANGED)
            if j < m:
                score = max(score, best[i][j + 1])  # extra
            best[i][j] = score
    ok = True
    out: List[str] = []
    written_any = set()
    i = j = 0
    while i < n or j < m:
        here = best[i][j]
        kind = step(i, j) if i < n and j < m else None
        if kind == "match" and here == best[i + 1][j + 1] + MATCH:
            out.append(expected[i])
            i, j = i + 1, j + 1
        elif kind == "absorb" and here == best[i][j + 1] + ABSORB:
            if i not in written_any:
                written_any.add(i)
                out.append(ANY_LINES)
            j += 1
        elif kind == "changed" and here == best[i + 1][j + 1] + CHANGED:
            ok = False
            out.append(carry_placeholders(expected[i], actual[j]))
            i, j = i + 1, j + 1
        elif i < n and here == best[i + 1][j]:
            if expected[i] == ANY_LINES:
                if i not in written_any:
                    written_any.add(i)
                    out.append(ANY_LINES)
            else:
                ok = False  # missing
            i += 1
        else:
            ok = False  # extra
            out.append(actual[j])
            j += 1
    return ok, out


def unified(expected: List[str], printed: List[str], readme_line: int, name: str) -> str:
    """The diff, its `-` line numbers counted in the README (`readme_line` is the
    README line of the transcript's first output line, 1-based)."""
    lines = list(difflib.unified_diff(
        expected, printed, f"{name} (transcript)", "what the command printed", lineterm="",
    ))

    def renumber(match):
        start = int(match.group(1)) + readme_line - 1
        return f"@@ -{start}{match.group(2) or ''} +"

    return "\n".join(re.sub(r"^@@ -(\d+)(,\d+)? \+", renumber, line) for line in lines)


Runner = Callable[[str], Tuple[int, str]]


@dataclass
class Outcome:
    failures: List[str] = field(default_factory=list)
    # (first, count, new lines) for --bless: README lines [first, first + count).
    rewrites: List[Tuple[int, int, List[str]]] = field(default_factory=list)


def check(found: List[Command], run: Runner, name: str = "README.md",
          skip: Callable[[Command], bool] = lambda c: False, log=print) -> Outcome:
    """Run each command and compare its exit and, for a transcript, what it printed."""
    result = Outcome()
    for command in found:
        if skip(command):
            continue
        log(f"== {name}:{command.line}: {command.text}", flush=True)
        began = time.monotonic()
        code, printed = run(command.text)
        took = time.monotonic() - began
        problems = []
        if code != command.expected_exit:
            problems.append(f"exit {code}, expected {command.expected_exit}")
        if command.transcript:
            actual = [line.rstrip() for line in printed.splitlines()]
            expected = command.expected
            # A transcript that ends its block with an empty line keeps it out of the
            # comparison: the fence follows.
            while expected and not expected[-1]:
                expected = expected[:-1]
            ok, blessed = align(expected, actual)
            if not ok:
                diff = unified(expected, blessed, command.first + 1, name)
                problems.append(f"output differs from the transcript:\n{diff}")
            result.rewrites.append((command.first, len(expected), blessed))
        verdict = "FAILED" if problems else "ok"
        log(f"== {verdict}: exit {code} (expected {command.expected_exit}), {took:.1f} s",
            flush=True)
        for problem in problems:
            result.failures.append(f"{name}:{command.line}: {command.text}\n  {problem}")
    return result


def bless(readme: str, rewrites) -> str:
    lines = readme.splitlines()
    for first, count, new in sorted(rewrites, reverse=True):
        lines[first:first + count] = new
    return "\n".join(lines) + ("\n" if readme.endswith("\n") else "")


def bash_runner(env) -> Runner:
    def run(command: str) -> Tuple[int, str]:
        done = subprocess.run(
            ["bash", "-c", command], cwd=ROOT, env=env,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
        )
        printed = done.stdout.decode(errors="replace")
        # Shown as it went, so a CI log has it.
        sys.stdout.write(printed)
        return done.returncode, printed
    return run


# --- synopses ---------------------------------------------------------------------------

OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")


def synopses(readme: str):
    """(line, command, text) for each synopsis: a line `xqdiff CMD ...` in a ```text
    block without `$ ` lines, with the indented lines that go on from it."""
    found = []
    fence, block = None, []
    for number, line in enumerate(readme.splitlines(), 1):
        if line.startswith("```"):
            if fence is None:
                fence, block = line[3:].strip(), []
                continue
            if fence == "text" and not any(text.startswith("$ ") for _, text in block):
                for at, (start, text) in enumerate(block):
                    head = re.match(r"xqdiff ([a-z][a-z-]*)\b", text)
                    if not head:
                        continue
                    whole = text
                    for _, more in block[at + 1:]:
                        if not more.startswith(" "):
                            break
                        whole += " " + more.strip()
                    found.append((start, head.group(1), whole))
            fence = None
            continue
        if fence is not None:
            block.append((number, line))
    return found


def help_options(xqdiff: str, subcommand: Optional[str]) -> Tuple[set, set]:
    """The options `xqdiff [CMD] --help` lists, and the aliases it gives them."""
    argv = [xqdiff] + ([subcommand] if subcommand else []) + ["--help"]
    done = subprocess.run(argv, capture_output=True, text=True,
                          env={**os.environ, "COLUMNS": "200"})
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} exits {done.returncode}: {done.stderr.strip()}")
    options, aliases = set(), set()
    for line in done.stdout.splitlines():
        # An option's own line is indented a little; a description's wrapped lines,
        # which may start with another option's name, are indented further.
        head = re.match(r" {1,6}(?:-\w, )?(--[a-z][a-z0-9-]*)", line)
        if head:
            options.add(head.group(1))
            for names in re.findall(r"\[aliases?: ([^\]]*)\]", line):
                aliases |= set(OPTION.findall(names))
    return options - {"--help", "--version"}, aliases


def check_synopses(readme: str,
                   options_of: Callable[[Optional[str]], Tuple[set, set]]) -> List[str]:
    """What is wrong with the README's synopses, as `README.md:LINE: ...` lines."""
    problems = []
    by_command = {}
    for line, subcommand, text in synopses(readme):
        by_command.setdefault(subcommand, []).append((line, text))
    everywhere, _ = options_of(None)
    for subcommand, found in sorted(by_command.items()):
        try:
            has, aliases = options_of(subcommand)
        except RuntimeError as e:
            problems.append(f"README.md:{found[0][0]}: xqdiff {subcommand}: {e}")
            continue
        named = set()
        for line, text in found:
            mine = set(OPTION.findall(text)) - {"--help", "--version"}
            named |= mine
            for unknown in sorted(mine - has - aliases):
                problems.append(
                    f"README.md:{line}: xqdiff {subcommand} has no {unknown} (its --help)")
        if any("see --help" in text for _, text in found):
            continue
        for missing in sorted(has - named - everywhere):
            problems.append(
                f"README.md:{found[0][0]}: xqdiff {subcommand}: the synopsis lacks {missing} "
                "(list it, or say `see --help`)"
            )
    return problems


# --- the speed table ----------------------------------------------------------------------


def speed_table(readme: str, xqdiff: str) -> str:
    """The README with its speed table made again by `xqdiff bench`."""
    begin, end = readme.find(SPEED_BEGIN), readme.find(SPEED_END)
    if begin < 0 or end < begin:
        raise RuntimeError(f"README.md has no speed table markers ({SPEED_BEGIN!r})")
    # Built here, so the commit the table names is the code that was measured.
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    load_before = os.getloadavg()
    done = subprocess.run([xqdiff, "bench"], capture_output=True, text=True, cwd=ROOT)
    load_after = os.getloadavg()
    if done.returncode != 0:
        raise RuntimeError(f"xqdiff bench exits {done.returncode}:\n{done.stdout}{done.stderr}")
    table = [line for line in done.stdout.splitlines() if line.startswith("|")]
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.strip()
    # Only what the build reads: the README itself is being edited.
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no", "--",
         "src", "build.rs", "Cargo.toml", "Cargo.lock", "corpus"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.strip()
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    said = (
        f"`xqdiff bench` (release build) on {when}, commit {commit}"
        f"{' with uncommitted changes' if dirty else ''}, {os.cpu_count()} cores ({cpu}), "
        f"load average {load_before[0]:.1f} before and {load_after[0]:.1f} after "
        f"(1 minute): one run, all rates from that run."
    )
    made = "\n".join([SPEED_BEGIN, said, ""] + table + [""])
    return readme[:begin] + made + readme[end:]


# --- self-test ------------------------------------------------------------------------------


class SelfTest(unittest.TestCase):
    README = "\n".join([
        "# A README",
        "```text",
        "$ printf 'took 1.5 s\\nsame\\n'",
        "took [..] s",
        "same",
        "$ printf 'a\\nb\\nc\\nd\\n'",
        "a",
        "...",
        "d",
        "```",
        "",
    ])

    def run_readme(self, readme):
        found = commands(readme)

        def run(command):
            done = subprocess.run(["bash", "-c", command], capture_output=True, text=True)
            return done.returncode, done.stdout

        return check(found, run, log=lambda *a, **k: None)

    def test_placeholders_match(self):
        self.assertEqual(self.run_readme(self.README).failures, [])

    def test_a_changed_line_fails_with_a_diff_naming_the_readme_line(self):
        changed = self.README.replace("\nsame\n", "\nnot the same\n")
        failures = self.run_readme(changed).failures
        self.assertEqual(len(failures), 1)
        self.assertIn("README.md:3:", failures[0])
        self.assertIn("-not the same", failures[0])
        self.assertIn("+same", failures[0])
        self.assertIn("@@ -4,", failures[0])  # README's line 4 starts the output

    def test_a_missing_or_extra_line_fails(self):
        self.assertTrue(self.run_readme(self.README.replace("d\n```", "d\ne\n```")).failures)
        self.assertTrue(self.run_readme(self.README.replace("...\n", "")).failures)

    def test_bless_puts_a_changed_line_in_its_place_not_under_a_dots_line(self):
        # The lines after `last 2` are new: a `...` that took every line it could would
        # swallow them and `last 2` with them.
        readme = "```text\n$ printf 'head\\nx\\ny\\nlast 2\\nt1\\nt2\\n'\nhead\n...\nlast 1\n```\n"
        outcome = self.run_readme(readme)
        self.assertEqual(len(outcome.failures), 1)
        self.assertIn("-last 1", outcome.failures[0])
        self.assertIn("+last 2", outcome.failures[0])
        blessed = bless(readme, outcome.rewrites)
        self.assertEqual(blessed, readme.replace("last 1", "last 2\nt1\nt2"))

    def test_the_exit_is_checked(self):
        readme = "```text\n$ false   # exits 2\n```\n"
        failures = self.run_readme(readme).failures
        self.assertEqual(len(failures), 1)
        self.assertIn("exit 1, expected 2", failures[0])

    def test_bless_keeps_placeholders_and_fixes_the_rest(self):
        changed = self.README.replace("\nsame\n", "\nother\n")
        changed = changed.replace("took [..] s\n", "took [..] ms\n")
        outcome = self.run_readme(changed)
        blessed = bless(changed, outcome.rewrites)
        self.assertEqual(blessed, self.README)
        self.assertEqual(self.run_readme(blessed).failures, [])

    def test_carry_placeholders(self):
        self.assertEqual(carry_placeholders("ok    [..] s  start", "ok      0.07 s   start"),
                         "ok      [..] s   start")
        self.assertEqual(carry_placeholders("in [..]: 3", "in /a/b: 4"), "in [..]: 4")

    def test_line_placeholder(self):
        self.assertTrue(line_matches("x [..] y", "x  y"))
        self.assertTrue(line_matches("x [..] y", "x 1.5 s y"))
        self.assertFalse(line_matches("x [..] y", "x 1 z"))
        self.assertTrue(line_matches("a.b", "a.b"))
        self.assertFalse(line_matches("a.b", "axb"))

    def test_synopses_against_help(self):
        readme = "\n".join([
            "```text",
            "xqdiff perft [--depth N] [--gone]",
            "             [--json]",
            "xqdiff moves [--position FEN] ... (see --help)",
            "```",
        ])
        helps = {
            None: (set(), set()),
            "perft": ({"--depth", "--json", "--threads"}, set()),
            "moves": ({"--fen", "--json"}, {"--position"}),
        }
        problems = check_synopses(readme, lambda c: helps[c])
        self.assertEqual(len(problems), 2, problems)
        self.assertIn("has no --gone", problems[0])
        self.assertIn("lacks --threads", problems[1])


def self_test() -> int:
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(SelfTest)
    return 0 if unittest.TextTestRunner(verbosity=1).run(suite).wasSuccessful() else 1


# --- main -----------------------------------------------------------------------------------


def untracked() -> set:
    """The files git does not track and does not ignore, and those in xqdiff-findings/
    (ignored, but where the README's engine commands save their findings)."""
    listed = ""
    for command in (
        ["git", "ls-files", "--others", "--exclude-standard", "-z"],
        ["git", "ls-files", "--others", "-z", "--", "xqdiff-findings"],
    ):
        listed += subprocess.run(
            command, cwd=ROOT, check=True, capture_output=True,
        ).stdout.decode()
    return set(filter(None, listed.split("\0")))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--already-ran", action="append", default=[])
    parser.add_argument("--only", action="append", default=[],
                        help="run only the command on this README line, or matching this regex")
    parser.add_argument("--bless", action="store_true",
                        help="write what the commands print into the transcripts")
    parser.add_argument("--list", action="store_true", help="print the commands, run nothing")
    parser.add_argument("--self-test", action="store_true")
    parser.add_argument("--speed-table", action="store_true")
    args = parser.parse_args()

    if args.self_test:
        return self_test()
    readme_path = ROOT / "README.md"
    readme = readme_path.read_text()
    xqdiff = str(ROOT / "target" / "release" / "xqdiff")
    if args.speed_table:
        readme_path.write_text(speed_table(readme, xqdiff))
        print(f"{readme_path}: speed table made again")
        return 0

    found = commands(readme)
    if not found:
        print("README.md: no command found", file=sys.stderr)
        return 1
    if args.list:
        for command in found:
            kind = "transcript" if command.transcript else "command"
            print(f"README.md:{command.line}: [{kind}, exit {command.expected_exit}] "
                  f"{command.text}")
        return 0

    def skip(command: Command) -> bool:
        if args.only and not any(
            (only.isdigit() and int(only) == command.line)
            or (not only.isdigit() and re.search(only, command.text))
            for only in args.only
        ):
            return True
        if command.text.split("#")[0].strip() in args.already_ran:
            print(f"== README.md:{command.line}: {command.text}  (run above)")
            return True
        return False

    before = untracked()
    report_there = (ROOT / "xqdiff-report").exists()
    env = dict(os.environ)
    env["PATH"] = f"{ROOT / 'target' / 'release'}{os.pathsep}{env['PATH']}"
    env["EDITOR"] = "cp examples/adapters/python/pyffish_adapter.py"
    env["NO_COLOR"] = "1"
    env["COLUMNS"] = "80"
    # What a terminal leaves on screen: the bar is redrawn in place and gone at the
    # end, while off a terminal its plain lines would differ with the machine's speed.
    env["XQDIFF_NO_PROGRESS"] = "1"
    try:
        outcome = check(found, bash_runner(env), skip=skip)
    finally:
        for name in untracked() - before:
            (ROOT / name).unlink(missing_ok=True)
            # And the folders that held only it (a new engine's xqdiff-findings/ folder);
            # git keeps no empty folder, so none of these was in the checkout.
            try:
                os.removedirs((ROOT / name).parent)
            except OSError:
                pass
        if not report_there:
            shutil.rmtree(ROOT / "xqdiff-report", ignore_errors=True)
    # After the commands, the first of which builds the binary whose --help is read.
    problems = []
    if not args.only:
        try:
            problems += check_synopses(readme, lambda c: help_options(xqdiff, c))
        except (OSError, RuntimeError) as e:
            problems.append(f"README.md: the synopses could not be checked: {e}")
    if args.bless:
        blessed = bless(readme, outcome.rewrites)
        if blessed != readme:
            readme_path.write_text(blessed)
            print("README.md: transcripts rewritten with what the commands printed; "
                  "read `git diff README.md`")
        outcome.failures = [f for f in outcome.failures if "output differs" not in f]
    for failure in problems + outcome.failures:
        print(failure, file=sys.stderr)
    return 1 if problems or outcome.failures else 0


if __name__ == "__main__":
    sys.exit(main())
