"""Check a Python Xiangqi library's move generation in process, against xqdiff's three
independent generators: the same check as `xqdiff engine`, without a pipe or an adapter
program. The library is given by its callables::

    import xqdiff
    report = xqdiff.check(legal_moves=my_lib.legal_moves, fen_to_board=my_lib.Board.from_fen)
    assert report.passed, report

or, in a pytest test, through the ``xqdiff`` fixture, which fails the test with each
finding's cause, its board and the command that checks it again.
"""

from __future__ import annotations

import dataclasses
import importlib
import os
import shlex
import shutil
import sys
from typing import Any, Callable, Iterable, List, Optional, Sequence, Tuple, Union

from . import _xqdiff

__version__ = _xqdiff.XQDIFF_VERSION

__all__ = ["check", "Report", "Finding", "Failure", "Checked", "board_diagram"]

Callable_ = Callable[..., Any]
Known = Union[None, str, "os.PathLike[str]", Iterable[str]]


@dataclasses.dataclass(frozen=True)
class Finding:
    """One distinct bug of the library: its smallest witness and what it explains."""

    #: The bug's name: ``cause/subject/<variant>`` when a misreading of the rules
    #: explains it (docs/variants.md), else the class of move that differs.
    signature: str
    #: The ``cause: ...`` lines: the rule misread, in words.
    cause_lines: Tuple[str, ...]
    #: Whether the known bugs name it (it then fails nothing).
    known: bool
    #: How many positions showed it.
    hits: int
    #: The smallest position that shows it (FEN, ranks 9 to 0, Red upper case).
    witness: str
    #: The perft depth at which it shows there (1: the move lists themselves).
    depth: int
    #: The library's total there, and the built-in generators'.
    library_total: int
    xqdiff_total: int
    #: Moves only the library lists there, and only xqdiff's generators.
    only_library: Tuple[str, ...]
    only_xqdiff: Tuple[str, ...]
    #: Moves both have whose counts below differ: (move, library's, xqdiff's).
    counts_differ: Tuple[Tuple[str, int, int], ...]
    #: Moves the library lists more than once, with how many times.
    listed_twice: Tuple[Tuple[str, int], ...]
    #: Where it was first met: the position's label, FEN, depth, and the moves from it.
    first_on: str
    root: str
    root_depth: int
    path: Tuple[str, ...]
    #: Other small witnesses.
    also: Tuple[str, ...]
    #: The command that checks the witness again.
    reproduce: str
    #: The "Reproduce with:" block: the command and xqdiff's own answer there.
    reproduce_lines: Tuple[str, ...]
    #: The whole finding as ``xqdiff engine`` prints it.
    text: str

    @property
    def cause(self) -> str:
        """The first cause line without its ``cause:`` word."""
        first = self.cause_lines[0] if self.cause_lines else "cause: unexplained"
        return first.split(":", 1)[1].strip() if ":" in first else first

    def board(self) -> str:
        """The witness drawn as text (see `board_diagram`)."""
        return board_diagram(self.witness)


@dataclasses.dataclass(frozen=True)
class Failure:
    """Why the check stopped before its end: the library raised an exception, or gave a
    list that is not a list of moves, on a position it was asked about."""

    label: str
    fen: str
    depth: int
    error: str


@dataclasses.dataclass(frozen=True)
class Checked:
    """One position checked: the library's perft count beside the built-ins'."""

    label: str
    fen: str
    depth: int
    library_total: int
    xqdiff_total: int
    #: ``agree``, ``differs``, ``known`` (a known bug's difference) or
    #: ``ours-disagree`` (the built-in generators disagree: a bug of xqdiff's).
    verdict: str
    bug: Optional[str]
    #: The position's line as ``xqdiff engine`` prints it.
    line: str


@dataclasses.dataclass(frozen=True)
class Report:
    """Everything a check did. ``passed`` is what a test asserts."""

    library: str
    #: Every position answered and agreed (or differed only by known bugs).
    passed: bool
    #: Every distinct bug found, known ones included (see `new_findings`).
    findings: Tuple[Finding, ...]
    failure: Optional[Failure]
    checked: Tuple[Checked, ...]
    #: Disagreements among xqdiff's own generators (a bug of xqdiff's), as text.
    ours: Tuple[str, ...]
    #: Under king-capture rules, the moves into check set aside, as text.
    set_aside: Optional[str]
    #: The hint a run under the legal rules gives when every difference is a move
    #: into check.
    hint: Optional[str]
    #: For a timed run, the fresh positions made and the features they reached.
    fresh: Optional[str]
    #: Leaf nodes compared, wall seconds, the library's and the built-ins' seconds, and
    #: the move lists asked of the library.
    nodes: int
    seconds: float
    library_seconds: float
    xqdiff_seconds: float
    lists: int
    seed: int

    @property
    def new_findings(self) -> Tuple[Finding, ...]:
        """The findings the known bugs do not name: what fails a check."""
        return tuple(f for f in self.findings if not f.known)

    def summary(self) -> str:
        """One line: what was compared, and what was found."""
        new = len(self.new_findings)
        known = len(self.findings) - new
        bugs = f"{new} distinct bug{'' if new == 1 else 's'} ({known} known)"
        positions = f"{len(self.checked)} position{'' if len(self.checked) == 1 else 's'}"
        return (
            f"{self.library}: {bugs}; {positions}, {self.nodes} nodes "
            f"compared in {self.seconds:.1f} s (seed {self.seed}); the library answered "
            f"in {self.library_seconds:.2f} s ({self.lists} move lists)"
        )

    def __str__(self) -> str:
        parts = [f.text.rstrip("\n") for f in self.findings]
        parts += [o.rstrip("\n") for o in self.ours]
        if self.failure is not None:
            f = self.failure
            parts.append(f"the library failed on {f.label} ({f.fen}, depth {f.depth}): {f.error}")
        for extra in (self.set_aside, self.fresh, self.hint):
            if extra:
                parts.append(extra.rstrip("\n"))
        parts.append(self.summary())
        return "\n".join(parts)


def board_diagram(fen: str) -> str:
    """The position of `fen` as text: ranks 9 (Black's side) to 0, files a to i, Red's
    pieces in upper case (K A B N R C P), Black's in lower case, ``.`` an empty point."""
    fields = fen.split()
    rows = []
    for number, rank in zip(range(9, -1, -1), fields[0].split("/")):
        points = []
        for c in rank:
            points.extend(["."] * int(c) if c.isdigit() else [c])
        rows.append(f"{number}  {' '.join(points)}")
    side = "Red" if len(fields) < 2 or fields[1] in ("w", "r") else "Black"
    return "\n".join(["   a b c d e f g h i", *rows, f"{side} to move"])


def check(
    legal_moves: Callable_,
    *,
    fen_to_board: Optional[Callable_] = None,
    play: Optional[Callable_] = None,
    make: Optional[Callable_] = None,
    unmake: Optional[Callable_] = None,
    pseudo_legal_moves: Optional[Callable_] = None,
    in_check: Optional[Callable_] = None,
    rules: str = "legal",
    compare: str = "legal",
    known: Known = None,
    depth: int = 2,
    positions: int = 100,
    seconds: Optional[float] = None,
    fens: Sequence[str] = (),
    seed: int = 1,
    max_findings: int = 1,
    name: Optional[str] = None,
    reproduce: Optional[Sequence[str]] = None,
) -> Report:
    """Checks a library's move generation against xqdiff's generators, in process.

    The library is given by its callables. A board is whatever ``fen_to_board(fen)``
    returns (by default the FEN itself); ``fen`` is written as xqdiff writes it: ranks 9
    to 0, ``w``/``b`` for the side to move, ``K A B N R C P``.

    - ``legal_moves(board)``: the legal moves, an iterable of moves whose ``str()`` is
      ICCS, such as ``h2e2`` (files a-i from Red's left, ranks 0-9 from Red's side).
    - To have the library's own make checked too, ``play(board, move) -> new board``,
      or ``make(board, move)`` changing it in place with ``unmake(board)`` taking the
      last move back (``make`` alone is given a ``copy.deepcopy`` of the board). The
      move is the library's own object, as ``legal_moves`` listed it. Without either,
      every position's board comes from its FEN.
    - For ``compare="pseudo-legal"``: ``pseudo_legal_moves(board)``, and
      ``in_check(board)``, whether the king of the side to move is attacked, asked of
      the board after each pseudo-legal move with the mover to move again (made from
      its FEN), as the moves protocol's ``check`` request.

    ``rules`` (``legal`` or ``king-capture``), ``compare`` (``legal`` or
    ``pseudo-legal``), ``known`` (a known-bugs file as ``--known`` reads, or the
    signatures themselves), ``depth``, ``positions`` random positions or ``seconds`` of
    fresh ones, ``fens`` (check these alone), ``seed`` and ``max_findings`` (0: every
    position) are ``xqdiff engine``'s settings. ``reproduce`` is the command that checks
    a witness again, as words with ``{fen}`` and ``{depth}`` in them (by default the
    ``xqdiff engine`` command over ``python -m xqdiff.adapter`` when the callables can
    be imported by name).

    An exception the library raises is its refusal of that question: while a witness is
    shrunk it means "not this position"; on a position checked it ends the check, whose
    ``failure`` says where and what. Ctrl-C stops the check and raises
    KeyboardInterrupt.
    """
    calls = {
        "legal_moves": legal_moves,
        "fen_to_board": fen_to_board,
        "play": play,
        "make": make,
        "unmake": unmake,
        "pseudo_legal_moves": pseudo_legal_moves,
        "in_check": in_check,
    }
    for what, given in calls.items():
        if given is not None and not callable(given):
            raise TypeError(f"{what} must be callable, not {type(given).__name__}")
    given = {k: v for k, v in calls.items() if v is not None}
    runnable = True
    if reproduce is None:
        reproduce = adapter_command(given, rules=rules, compare=compare)
    if reproduce is None:
        # No command can run callables a fresh interpreter cannot import: the call that
        # checks the witness again, in words.
        runnable = False
        reproduce = ["xqdiff.check(..., fens=['{fen}'], depth={depth})"]
    raw = _xqdiff.check(
        name=name or library_name(given.values()),
        fen_to_board=fen_to_board if fen_to_board is not None else _the_fen,
        legal_moves=legal_moves,
        play=play,
        make=make,
        unmake=unmake,
        pseudo_legal_moves=pseudo_legal_moves,
        in_check=in_check,
        rules=rules,
        compare=compare,
        known=known_text(known),
        depth=depth,
        positions=positions,
        seconds=seconds,
        fens=list(fens),
        seed=seed,
        max_findings=max_findings,
        reproduce=list(reproduce),
        runnable=runnable,
    )
    return _report(raw, seed)


def _the_fen(fen: str) -> str:
    return fen


def known_text(known: Known) -> str:
    """The text of a known-bugs list: a file's (a path), or signatures one a line."""
    if known is None:
        return ""
    if isinstance(known, (str, os.PathLike)):
        with open(known, encoding="utf-8") as f:
            return f.read()
    return "".join(f"{signature}\n" for signature in known)


def _report(raw: dict, seed: int) -> Report:
    findings = tuple(
        Finding(
            signature=f["signature"],
            cause_lines=tuple(f["cause"]),
            known=f["known"],
            hits=f["hits"],
            witness=f["witness"],
            depth=f["depth"],
            library_total=f["library_total"],
            xqdiff_total=f["xqdiff_total"],
            only_library=tuple(f["only_library"]),
            only_xqdiff=tuple(f["only_xqdiff"]),
            counts_differ=tuple(tuple(c) for c in f["counts_differ"]),
            listed_twice=tuple(tuple(c) for c in f["listed_twice"]),
            first_on=f["first_on"],
            root=f["root"],
            root_depth=f["root_depth"],
            path=tuple(f["path"]),
            also=tuple(f["also"]),
            reproduce=f["reproduce"],
            reproduce_lines=tuple(f["reproduce_lines"]),
            text=f["text"],
        )
        for f in raw["findings"]
    )
    failure = raw["failure"]
    return Report(
        library=raw["library"],
        passed=raw["passed"],
        findings=findings,
        failure=Failure(**failure) if failure is not None else None,
        checked=tuple(Checked(**c) for c in raw["checked"]),
        ours=tuple(raw["ours"]),
        set_aside=raw["set_aside"],
        hint=raw["hint"],
        fresh=raw["fresh"],
        nodes=raw["nodes"],
        seconds=raw["seconds"],
        library_seconds=raw["library_seconds"],
        xqdiff_seconds=raw["xqdiff_seconds"],
        lists=raw["lists"],
        seed=seed,
    )


# --- naming the library, and the command that checks it again ---------------------------


def importable_name(obj: Any) -> Optional[str]:
    """``module:qualified.name`` under which a fresh interpreter finds `obj`, when there is
    one (not for a lambda or a function defined inside another)."""
    module = getattr(obj, "__module__", None)
    qualname = getattr(obj, "__qualname__", None)
    if not module or not qualname or "<" in qualname or module == "__main__":
        return None
    try:
        found: Any = importlib.import_module(module)
        for part in qualname.split("."):
            found = getattr(found, part)
    except (ImportError, AttributeError):
        return None
    return f"{module}:{qualname}" if found is obj or found == obj else None


def python_word() -> str:
    """The interpreter, as the shortest word that starts it from a shell."""
    for word in ("python3", "python"):
        on_path = shutil.which(word)
        if on_path and os.path.realpath(on_path) == os.path.realpath(sys.executable) and (
            os.path.dirname(os.path.abspath(on_path)) == os.path.dirname(sys.executable)
        ):
            return word
    return sys.executable


def adapter_command(given: dict, *, rules: str, compare: str) -> Optional[List[str]]:
    """The ``xqdiff engine`` command that checks the same callables on a witness over the
    moves protocol (``python -m xqdiff.adapter``), when each can be imported by name."""
    flags = []
    for what, obj in given.items():
        spec = importable_name(obj)
        if spec is None:
            return None
        flags += [f"--{what.replace('_', '-')}", spec]
    served = " ".join(shlex.quote(w) for w in [python_word(), "-m", "xqdiff.adapter", *flags])
    words = ["xqdiff", "engine", "--protocol", "moves", "--cmd", served]
    if compare != "legal":
        words += ["--compare", compare]
    if rules != "legal":
        words += ["--rules", rules]
    return words + ["--fen", "{fen}", "--depth", "{depth}", "--no-save"]


def library_name(callables: Iterable[Any]) -> str:
    """The library's name for reports: the distribution its callables come from, with its
    version (``xiangqi-1.0.5``), else their module's name."""
    modules = []
    for obj in callables:
        module = getattr(obj, "__module__", None)
        if module and module not in modules and module.split(".")[0] != "xqdiff":
            modules.append(module)
    for module in modules:
        named = _distribution_of(module)
        if named:
            return named
    return modules[0].split(".")[0] if modules else "library"


def _distribution_of(module: str) -> Optional[str]:
    try:
        from importlib import metadata
    except ImportError:  # pragma: no cover - Python 3.7
        return None
    top = module.split(".")[0]
    try:
        names = metadata.packages_distributions().get(top, [])  # type: ignore[attr-defined]
    except AttributeError:  # Python 3.9
        names = []
    if not names:
        # A package that puts its own folder on sys.path imports its modules by their
        # bare names: the distribution holding the module's file names it.
        path = getattr(sys.modules.get(module), "__file__", None)
        if path:
            path = os.path.realpath(path)
            for dist in metadata.distributions():
                root = os.path.realpath(str(dist.locate_file("")))
                if not path.startswith(root + os.sep):
                    continue
                relative = os.path.relpath(path, root).replace(os.sep, "/")
                if any(str(f) == relative for f in dist.files or ()):
                    names = [dist.metadata["Name"]]
                    break
    for name in names:
        try:
            return f"{name}-{metadata.version(name)}"
        except metadata.PackageNotFoundError:
            continue
    return None
