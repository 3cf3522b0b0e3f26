"""The pytest plugin: the ``xqdiff`` fixture, whose ``check`` runs `xqdiff.check` and
fails the test on a new finding with its cause, its board and the command that checks
it again::

    def test_move_generation(xqdiff):
        xqdiff.check(legal_moves=my_lib.legal_moves, fen_to_board=my_lib.Board.from_fen)

Options: ``--xqdiff-seconds N`` (fresh positions for N seconds instead of random ones
made beforehand), ``--xqdiff-seed S``, ``--xqdiff-known FILE`` (known bugs, as
``xqdiff engine --known``; also the ``xqdiff_known`` ini setting), and ``--xqdiff-fen
FEN --xqdiff-depth D`` (check that position alone: what a finding's reproduce command
gives).
"""

from __future__ import annotations

import os
import shutil
import sys
from typing import Any, List, Optional

import pytest

# Not `import xqdiff`: the fixture below takes that name in this module.
import xqdiff as xq


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("xqdiff", "xqdiff: Xiangqi move generation checked in process")
    group.addoption("--xqdiff-seconds", type=float, metavar="N",
                    help="check each library for N seconds: fresh positions made as the "
                         "run goes, instead of random positions made beforehand")
    group.addoption("--xqdiff-seed", type=int, metavar="S",
                    help="the seed of the random or fresh positions (default: the test's, "
                         "else 1)")
    group.addoption("--xqdiff-known", metavar="FILE",
                    help="known bugs, one signature a line (as xqdiff engine --known): "
                         "reported, they fail no test")
    group.addoption("--xqdiff-fen", action="append", default=[], metavar="FEN",
                    help="check this position alone (repeat for more): a finding's witness")
    group.addoption("--xqdiff-depth", type=int, metavar="D",
                    help="the perft depth of every check")
    parser.addini("xqdiff_known", "known bugs file for the xqdiff fixture (relative to the "
                  "rootdir)", default="")


def pytest_report_header(config: pytest.Config) -> str:
    return f"xqdiff {xq.__version__}"


class Checker:
    """The ``xqdiff`` fixture: `check` takes `xqdiff.check`'s arguments."""

    def __init__(self, request: pytest.FixtureRequest):
        self._request = request
        config = request.config
        self.seconds: Optional[float] = config.getoption("xqdiff_seconds")
        self.seed: Optional[int] = config.getoption("xqdiff_seed")
        self.fens: List[str] = list(config.getoption("xqdiff_fen") or [])
        self.depth: Optional[int] = config.getoption("xqdiff_depth")
        known = config.getoption("xqdiff_known") or config.getini("xqdiff_known")
        if known and not os.path.isabs(known) and not config.getoption("xqdiff_known"):
            known = os.path.join(str(config.rootpath), known)
        self.known_file: Optional[str] = known or None

    def check(self, legal_moves: Any = None, **settings: Any) -> xq.Report:
        """Runs `xqdiff.check` with the command line's settings over the test's own, and
        fails the test on a finding the known bugs do not name, or when the library
        could not be checked. Returns the report."""
        if legal_moves is not None:
            settings["legal_moves"] = legal_moves
        if self.seconds is not None:
            settings["seconds"] = self.seconds
        if self.seed is not None:
            settings["seed"] = self.seed
        if self.depth is not None:
            settings["depth"] = self.depth
        if self.fens:
            settings["fens"] = self.fens
        if self.known_file:
            own = settings.get("known")
            signatures = xq.known_text(own) + xq.known_text(self.known_file)
            settings["known"] = signatures.splitlines()
        settings.setdefault("reproduce", self._rerun())
        report = xq.check(**settings)
        if not report.passed:
            pytest.fail(failure_message(report), pytrace=False)
        return report

    def _rerun(self) -> List[str]:
        """The pytest command, as typed in the folder pytest was started from, that runs
        this test again on one witness alone."""
        node = self._request.node
        test = os.path.relpath(str(node.path), os.getcwd())
        if "::" in node.nodeid:
            test += "::" + node.nodeid.split("::", 1)[1]
        return _pytest_words() + [test, "--xqdiff-fen", "{fen}", "--xqdiff-depth", "{depth}"]


def _pytest_words() -> List[str]:
    """How pytest was started: its script as typed (bare when the PATH finds that one),
    else ``python -m pytest``."""
    typed = sys.argv[0] if sys.argv else ""
    base = os.path.basename(typed)
    if base in ("pytest", "py.test"):
        on_path = shutil.which(base)
        if on_path and os.path.abspath(on_path) == os.path.abspath(typed):
            return [base]
        return [typed]
    return [xq.python_word(), "-m", "pytest"]


@pytest.fixture
def xqdiff(request: pytest.FixtureRequest) -> Checker:
    """Checks a Xiangqi library's move generation in process: ``xqdiff.check(...)``
    with `xqdiff.check`'s arguments; a new finding fails the test."""
    return Checker(request)


def failure_message(report: xq.Report) -> str:
    """What a failed check says in pytest's report: each new finding with its cause, the
    witness drawn as a board, the moves that differ there, and the command that checks
    it again; or why the library could not be checked."""
    lines = [f"xqdiff: {report.summary()}"]
    for f in report.new_findings:
        lines.append("")
        hits = f"{f.hits} position{'' if f.hits == 1 else 's'}"
        lines.append(f"BUG {f.signature}: {hits}")
        lines += [f"  {line}" for line in f.cause_lines]
        lines.append(f"  witness {f.witness}  (perft {f.depth}: the library "
                     f"{f.library_total}, xqdiff {f.xqdiff_total})")
        lines += [f"    {row}" for row in f.board().splitlines()]
        if f.only_library:
            lines.append(f"  only the library lists: {' '.join(f.only_library)}")
        if f.only_xqdiff:
            lines.append(f"  only xqdiff's generators list: {' '.join(f.only_xqdiff)}")
        for mv, theirs, ours in f.counts_differ[:8]:
            lines.append(f"  below {mv}: the library {theirs}, xqdiff {ours}")
        for mv, times in f.listed_twice:
            lines.append(f"  the library lists {mv} {times} times")
        lines += [f"  {line}" for line in f.reproduce_lines]
    for ours in report.ours:
        lines += ["", ours.rstrip("\n")]
    if report.failure is not None:
        fail = report.failure
        lines += ["", f"the library could not be checked on {fail.label} "
                      f"({fail.fen}, depth {fail.depth}):", f"  {fail.error}"]
    if report.hint:
        lines += ["", report.hint]
    return "\n".join(lines)
