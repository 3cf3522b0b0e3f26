"""The `xqdiff` command the wheel installs, and the same callables over the moves protocol
(`python -m xqdiff.adapter`): what a finding of the in-process check says to run."""

import os
import subprocess
import sys
import sysconfig

import libs
import xqdiff

TESTS = os.path.dirname(os.path.abspath(__file__))
# As in an activated environment: its scripts folder first on the PATH.
SCRIPTS = sysconfig.get_path("scripts")
ENV = {**os.environ, "PYTHONPATH": TESTS, "PATH": SCRIPTS + os.pathsep + os.environ["PATH"]}


def shell(command):
    return subprocess.run(command, shell=True, capture_output=True, text=True, env=ENV)


def test_the_command_is_installed_with_the_package():
    for command in ("xqdiff --version", f"{sys.executable} -m xqdiff --version"):
        done = shell(command)
        assert (done.returncode, done.stdout) == (0, f"xqdiff {xqdiff.__version__}\n"), done


def test_the_reproduce_command_finds_the_same_bug_over_the_moves_protocol():
    report = xqdiff.check(libs.cannon_cannot_capture, fen_to_board=libs.fen_to_board,
                          make=libs.make, unmake=libs.unmake, fens=[libs.CANNON])
    [finding] = report.new_findings
    assert "--make libs:make --unmake libs:unmake" in finding.reproduce
    done = shell(finding.reproduce)
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"BUG {finding.signature}: 1 position" in done.stdout
    # The library's own make is used over the protocol too (it offers `play`).
    assert "play" not in done.stderr


def test_the_adapter_serves_a_correct_library_that_agrees():
    served = (f"{sys.executable} -m xqdiff.adapter --legal-moves libs:legal_moves "
              "--fen-to-board libs:fen_to_board --play libs:play "
              "--pseudo-legal-moves libs:pseudo_legal_moves --in-check libs:in_check")
    for compare in ("legal", "pseudo-legal"):
        done = shell(f"xqdiff engine --protocol moves --cmd '{served}' --compare {compare} "
                     f"--fen '{libs.CANNON}' --fen '{libs.QUIET}' --depth 2 --no-save")
        assert done.returncode == 0, done.stdout + done.stderr
        assert "agreement: libs matches the built-in generators on 2 positions" in done.stdout
