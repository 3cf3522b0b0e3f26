"""The pytest plugin, as a user meets it: the `xqdiff` fixture in a test file of their
own, run by pytest in a process of its own. A finding fails the test with its cause, the
board and a command that checks it again, which does; known bugs and the options reach
the check."""

import os
import re
import shlex
import subprocess

import pytest

TESTS = os.path.dirname(os.path.abspath(__file__))

PLANTED = """
import libs

def test_library(xqdiff):
    xqdiff.check(libs.cannon_cannot_capture, fen_to_board=libs.fen_to_board,
                 make=libs.make, unmake=libs.unmake, fens=[libs.CANNON, libs.QUIET])
"""


@pytest.fixture(autouse=True)
def libs_importable(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", TESTS)


def run(pytester, *args):
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", *args)


def test_a_finding_fails_the_test_with_cause_board_and_a_command_that_reruns_it(pytester):
    pytester.makepyfile(test_planted=PLANTED)
    result = run(pytester)
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert "BUG cause/subject/cannon-cannot-capture: " in out
    assert "  cause: a cannon never captures" in out
    assert "   a b c d e f g h i" in out and "Red to move" in out
    assert "only xqdiff's generators list: " in out
    # The command the report gives runs this test again on the witness alone.
    command = re.search(r"Reproduce with:\n\s+(.*)\n", out).group(1)
    words = shlex.split(command)
    assert words[-4:-2] == ["--xqdiff-fen", words[-3]] and words[-2:] == ["--xqdiff-depth", "1"]
    assert "test_planted.py::test_library" in words
    again = subprocess.run(words, cwd=str(pytester.path), capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": TESTS})
    assert again.returncode == 1, again.stdout + again.stderr
    assert "BUG cause/subject/cannon-cannot-capture" in again.stdout
    # Only the witness was checked.
    assert "; 1 position, " in again.stdout


def test_known_bugs_from_a_file_or_the_ini(pytester):
    pytester.makepyfile(test_planted=PLANTED)
    known = pytester.makefile(".txt", known="cause/subject/cannon-cannot-capture  planted\n")
    run(pytester, "--xqdiff-known", str(known)).assert_outcomes(passed=1)
    pytester.makeini("[pytest]\nxqdiff_known = known.txt\n")
    run(pytester).assert_outcomes(passed=1)


def test_the_options_reach_the_check(pytester):
    pytester.makepyfile(test_options="""
        import libs

        def test_settings(xqdiff):
            report = xqdiff.check(libs.legal_moves, fen_to_board=libs.fen_to_board, depth=1)
            assert report.seed == 7
            assert report.fresh is not None
            assert all(c.depth == 1 for c in report.checked)

        def test_one_position(xqdiff):
            report = xqdiff.check(libs.legal_moves, fen_to_board=libs.fen_to_board)
            assert [c.fen for c in report.checked] == [libs.QUIET]
            assert report.checked[0].depth == 3
    """)
    run(pytester, "-k", "settings", "--xqdiff-seed", "7", "--xqdiff-seconds", "1"
        ).assert_outcomes(passed=1)
    run(pytester, "-k", "one_position", "--xqdiff-fen",
        "4k4/9/9/9/9/9/9/9/4C4/3K5 w - - 0 1", "--xqdiff-depth", "3").assert_outcomes(passed=1)


def test_a_library_that_raises_fails_the_test_saying_where(pytester):
    pytester.makepyfile(test_raises="""
        def broken(board):
            raise ValueError("no moves today")

        def test_library(xqdiff):
            xqdiff.check(broken, fens=["4k4/9/9/9/9/9/9/9/4C4/3K5 w - - 0 1"])
    """)
    result = run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "the library could not be checked on fen 1 (4k4/9/9/9/9/9/9/9/4C4/3K5 w - - 0 1, depth 2):",
        "*ValueError: no moves today (in broken, test_raises.py:*",
    ])


def test_the_header_names_the_version(pytester):
    pytester.makepyfile(test_nothing="def test_nothing():\n    pass\n")
    import xqdiff
    run(pytester).stdout.fnmatch_lines([f"xqdiff {xqdiff.__version__}"])
