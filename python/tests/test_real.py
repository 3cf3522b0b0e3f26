"""Real libraries from PyPI, pinned in .ci/python.sh, each checked by a test file of five
lines in python/examples/: xiangqi 1.0.5 fails with the cause docs/real-bugs.md gives
for its bug, cchess 1.25.5 passes. Outside CI, a library that is not installed skips its
test; CI sets XQDIFF_REAL_LIBRARIES=required, so there it fails instead."""

import importlib
import os

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..", "examples")
EXPECTED = os.path.join(HERE, "..", "..", "tests", "data", "real-bugs")


def needs(module):
    if os.environ.get("XQDIFF_REAL_LIBRARIES") == "required":
        importlib.import_module(module)
    else:
        pytest.importorskip(module)


def expected_signatures(name):
    with open(os.path.join(EXPECTED, name)) as f:
        return [line.split()[0] for line in f if line.strip() and not line.startswith("#")]


def test_xiangqi_1_0_5_fails_with_its_known_bugs_cause(pytester):
    needs("xiangqi")
    [signature] = expected_signatures("xiangqi-1.0.5.txt")
    example = os.path.join(EXAMPLES, "test_xiangqi_1_0_5.py")
    with open(example) as f:
        assert len(f.read().splitlines()) == 5
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", example)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        f"BUG {signature}: *",
        "  cause: a cannon alone between the kings may capture over one of them as its "
        "screen, leaving the kings facing each other*",
        "  Reproduce with:",
    ])
    assert "xiangqi-1.0.5: 1 distinct bug (0 known)" in result.stdout.str()


def test_cchess_1_25_5_passes(pytester):
    needs("cchess")
    example = os.path.join(EXAMPLES, "test_cchess_1_25_5.py")
    pytester.runpytest_subprocess("-p", "no:cacheprovider", example).assert_outcomes(passed=1)
