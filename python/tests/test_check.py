"""`xqdiff.check` in process on a library given by its callables (tests/libs.py, over
cchess): each way of moving agrees where the library is right, a planted bug is found
and named, and what the library raises or lists wrongly is reported, not crashed on."""

import os
import signal
import threading

import pytest

import libs
import xqdiff

QUICK = dict(fens=[libs.CANNON, libs.QUIET], depth=2)


@pytest.mark.parametrize("moving", [
    {},
    {"play": libs.play},
    {"make": libs.make, "unmake": libs.unmake},
    {"make": libs.make},
])
def test_each_way_of_moving_agrees_and_uses_the_librarys_own_make(moving):
    for k in libs.CALLS:
        libs.CALLS[k] = 0
    report = xqdiff.check(libs.legal_moves, fen_to_board=libs.fen_to_board, **moving, **QUICK)
    assert report.passed, report
    assert [c.verdict for c in report.checked] == ["agree", "agree"]
    assert report.nodes == sum(c.xqdiff_total for c in report.checked) > 0
    # One list a position asked: the two roots and each of their children.
    children = sum(c.xqdiff_total for c in xqdiff.check(
        libs.legal_moves, fen_to_board=libs.fen_to_board, fens=QUICK["fens"], depth=1).checked)
    assert report.lists == 2 + children
    made = libs.CALLS["make"] + libs.CALLS["play"]
    if moving:
        # The library's own move reaches every child; boards come from FENs at the roots.
        assert made >= children
        assert libs.CALLS["unmake"] == (made if "unmake" in moving else 0)
    else:
        assert made == 0 and libs.CALLS["boards"] >= 2 + children


def test_a_planted_bug_is_found_minimized_and_named():
    report = xqdiff.check(libs.cannon_cannot_capture, fen_to_board=libs.fen_to_board,
                          make=libs.make, unmake=libs.unmake, **QUICK)
    assert not report.passed
    [finding] = report.new_findings
    assert finding.signature == "cause/subject/cannon-cannot-capture", finding.text
    assert finding.cause.startswith("a cannon never captures")
    assert len(finding.only_xqdiff) == 1 and not finding.only_library
    assert finding.depth == 1 and finding.witness.count("/") == 9
    assert "witness" not in finding.board() and finding.board().endswith("Red to move")
    # Outside pytest, with callables a fresh interpreter can import, the finding is seen
    # again over the moves protocol.
    assert finding.reproduce.startswith("xqdiff engine --protocol moves --cmd ")
    assert "--legal-moves libs:cannon_cannot_capture" in finding.reproduce
    assert "--fen " in finding.reproduce and finding.reproduce.endswith("--no-save")


def test_known_bugs_fail_nothing(tmp_path):
    known = tmp_path / "known.txt"
    known.write_text("cause/subject/cannon-cannot-capture  planted in tests/libs.py\n")
    for given in (str(known), known, ["cause/subject/cannon-cannot-capture"]):
        report = xqdiff.check(libs.cannon_cannot_capture, fen_to_board=libs.fen_to_board,
                              known=given, **QUICK)
        assert report.passed and report.findings[0].known and not report.new_findings


def test_an_exception_is_a_refusal_with_where_it_came_from():
    def broken(board):
        raise ValueError("no moves today")

    report = xqdiff.check(broken, fen_to_board=libs.fen_to_board, **QUICK)
    assert not report.passed and not report.findings
    assert report.failure.fen == libs.CANNON
    assert "ValueError: no moves today (in broken, test_check.py:" in report.failure.error
    assert report.failure.error.startswith("refused legal_moves on " + libs.CANNON)


def test_a_refusal_while_shrinking_means_not_this_position():
    # Fewer than four pieces: the library gives up. The bug is still found, on a witness
    # of four pieces or more.
    def picky(board):
        if sum(1 for row in board._board for p in row if p) < 4:
            raise RuntimeError("too few pieces")
        return libs.cannon_cannot_capture(board)

    report = xqdiff.check(picky, fen_to_board=libs.fen_to_board, **QUICK)
    assert report.failure is None
    [finding] = report.new_findings
    assert finding.signature == "cause/subject/cannon-cannot-capture"
    assert sum(c.isalpha() for c in finding.witness.split()[0]) >= 4


@pytest.mark.parametrize("listed, problem", [
    (["zz99"], 'it listed "zz99", not a move such as h2e2'),
    ([("e2", "e6")], "not a move such as h2e2"),
    (42, "TypeError"),
])
def test_what_is_not_a_list_of_moves_is_an_unreadable_answer(listed, problem):
    report = xqdiff.check(lambda board: listed, **QUICK)
    assert not report.passed and problem in report.failure.error, report.failure
    if not isinstance(listed, int):
        assert f"legal_moves returned {listed!r}" in report.failure.error


def test_keyboard_interrupt_from_the_library_is_raised_again():
    def interrupted(board):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        xqdiff.check(interrupted, fen_to_board=libs.fen_to_board, **QUICK)


def test_ctrl_c_stops_a_long_check():
    # Raised on the main thread while the check runs on a thread of its own: the check
    # stops at the library's next call (the positions are all made before the first),
    # where it had thousands of lists left to ask (the start position alone, at depth
    # 3, is some 1,800).
    # Sent from the library's hundredth call, not after a time: whatever the machine's
    # speed, the check is then running, with most of its lists still to ask.
    sent = threading.Event()
    before, after = [], []

    def counting(board):
        if sent.is_set():
            after.append(board)
        else:
            before.append(board)
            if len(before) == 100:
                sent.set()
                os.kill(os.getpid(), signal.SIGINT)
        return libs.legal_moves(board)

    # A shell starts a background job with SIGINT ignored, and Python then leaves it so:
    # the handler that raises KeyboardInterrupt is put in place for this test.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            xqdiff.check(counting, fen_to_board=libs.fen_to_board, depth=3, positions=20)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert sent.is_set() and len(after) < 200, len(after)


def test_pseudo_legal_lists_and_the_check_test():
    report = xqdiff.check(libs.legal_moves, fen_to_board=libs.fen_to_board,
                          pseudo_legal_moves=libs.pseudo_legal_moves, in_check=libs.in_check,
                          compare="pseudo-legal", **QUICK)
    assert report.passed, report

    # A check test blind to cannons: moves into a cannon's check count as safe.
    def blind(board):
        return libs.in_check(board) and "c" not in board.to_fen().split()[0].lower()

    report = xqdiff.check(libs.legal_moves, fen_to_board=libs.fen_to_board,
                          pseudo_legal_moves=libs.pseudo_legal_moves, in_check=blind,
                          compare="pseudo-legal", fens=["3k5/9/9/9/3c5/9/3R5/9/9/4K4 w - - 0 1"],
                          depth=1)
    assert not report.passed and report.new_findings[0].only_library


def test_settings_that_cannot_be_used_are_value_errors():
    with pytest.raises(ValueError, match="needs pseudo_legal_moves and in_check"):
        xqdiff.check(libs.legal_moves, compare="pseudo-legal")
    with pytest.raises(ValueError, match="do not go together"):
        xqdiff.check(libs.legal_moves, pseudo_legal_moves=libs.pseudo_legal_moves,
                     in_check=libs.in_check, compare="pseudo-legal", rules="king-capture")
    with pytest.raises(ValueError, match="unknown rules"):
        xqdiff.check(libs.legal_moves, rules="chess")
    with pytest.raises(ValueError, match="play, or make"):
        xqdiff.check(libs.legal_moves, play=libs.play, make=libs.make)
    with pytest.raises(ValueError, match="bad FEN"):
        xqdiff.check(libs.legal_moves, fens=["not a fen"])
    with pytest.raises(TypeError, match="must be callable"):
        xqdiff.check(libs.legal_moves, make="make")


def test_a_timed_check_makes_fresh_positions():
    report = xqdiff.check(libs.legal_moves, fen_to_board=libs.fen_to_board, depth=1,
                          seconds=1.5)
    assert report.passed and report.fresh and "fresh position" in report.fresh
    assert any(c.label.startswith("fresh ") for c in report.checked)
