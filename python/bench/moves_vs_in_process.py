"""The in-process route beside the moves protocol, on the same library, callables and
positions, in one run with the machine's load: xiangqi 1.0.5 (PyPI), a pure-Python
library, checked at depth 2 on the start position, the reference suite, the corpus and
seeded random positions, each route twice (the board from each position's FEN, and the
library's own make), then the same lists served by a "library" that costs nothing (its
lists read back from memory), which leaves the routes' own cost per list.

    python python/bench/moves_vs_in_process.py [--positions N] [--depth D] [--seed S]

Run it from the checkout with an environment holding the xqdiff wheel and xiangqi 1.0.5
(and numpy, which xiangqi imports); its scripts folder (the `xqdiff` command) is put on
the PATH. Every row checks the same positions: the script stops if their counts differ.
"""

import argparse
import json
import os
import re
import resource
import shlex
import subprocess
import sys
import sysconfig
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import xiangqi_calls as calls  # noqa: E402

import xqdiff  # noqa: E402

NAME = "xiangqi-1.0.5"
SUMMARY = re.compile(r" on (\d+) positions, (\d+) nodes compared|; (\d+) positions, (\d+) nodes compared")


def cpu_of_children():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cpu_of_self():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def over_the_protocol(served, args, env):
    """`xqdiff engine` over `python -m xqdiff.adapter SERVED`: (wall, cpu, positions,
    nodes)."""
    command = " ".join(shlex.quote(w) for w in [sys.executable, "-m", "xqdiff.adapter", *served])
    argv = ["xqdiff", "engine", "--protocol", "moves", "--cmd", command, "--depth",
            str(args.depth), "--positions", str(args.positions), "--seed", str(args.seed),
            "--max-findings", "0", "--no-save", "--quiet"]
    cpu = cpu_of_children()
    began = time.monotonic()
    done = subprocess.run(argv, capture_output=True, text=True, env=env)
    wall = time.monotonic() - began
    if done.returncode not in (0, 1):
        sys.exit(f"xqdiff engine exited {done.returncode}:\n{done.stdout}{done.stderr}")
    found = SUMMARY.search(done.stdout)
    if not found:
        sys.exit(f"no summary in:\n{done.stdout}")
    positions, nodes = (int(g) for g in found.groups() if g)
    return wall, cpu_of_children() - cpu, positions, nodes


def in_process(args, **given):
    """`xqdiff.check` on the callables: (wall, cpu, positions, nodes, lists)."""
    cpu = cpu_of_self()
    began = time.monotonic()
    report = xqdiff.check(name=NAME, depth=args.depth, positions=args.positions,
                          seed=args.seed, max_findings=0, **given)
    wall = time.monotonic() - began
    return wall, cpu_of_self() - cpu, len(report.checked), report.nodes, report.lists


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    scripts = sysconfig.get_path("scripts")
    memo = os.path.join(tempfile.mkdtemp(), "lists.json")
    env = {**os.environ, "PATH": scripts + os.pathsep + os.environ["PATH"],
           "PYTHONPATH": HERE + os.pathsep + os.environ.get("PYTHONPATH", ""),
           "XQDIFF_BENCH_MEMO": memo}
    os.environ.update(env)
    fen = ["--legal-moves", "xiangqi_calls:legal_moves",
           "--fen-to-board", "xiangqi_calls:fen_to_board", "--name", NAME]
    make = fen + ["--make", "xiangqi_calls:make", "--unmake", "xiangqi_calls:unmake"]
    load_before = os.getloadavg()
    rows = []

    def row(label, protocol, process):
        pw, pc, pp, pn = protocol
        iw, ic, ip, i_n, lists = process
        if (pp, pn) != (ip, i_n):
            sys.exit(f"{label}: the routes checked different positions: {pp} positions, "
                     f"{pn} nodes over the protocol; {ip}, {i_n} in process")
        rows.append((label, ip, i_n, lists, pw, pc, iw, ic))
        print(f"{label}: protocol {pw:.2f} s, in process {iw:.2f} s", file=sys.stderr)

    row("board from each FEN", over_the_protocol(fen, args, env),
        in_process(args, legal_moves=calls.legal_moves, fen_to_board=calls.fen_to_board))
    row("the library's own make", over_the_protocol(make, args, env),
        in_process(args, legal_moves=calls.legal_moves, fen_to_board=calls.fen_to_board,
                   make=calls.make, unmake=calls.unmake))
    # Every list either route asked, recorded once; read back, the library costs nothing.
    import memo_calls

    memo_calls.record(over_the_protocol, in_process, args, env)
    memo = ["--legal-moves", "memo_calls:legal_moves", "--name", "memo"]
    row("a library that costs nothing", over_the_protocol(memo, args, env),
        in_process(args, legal_moves=memo_calls.legal_moves))
    load_after = os.getloadavg()
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    print(f"xqdiff {xqdiff.__version__}, {NAME}, depth {args.depth}, {args.positions} random "
          f"positions besides the start, suite and corpus (seed {args.seed}); "
          f"{os.cpu_count()} cores ({cpu}), load average {load_before[0]:.2f} before and "
          f"{load_after[0]:.2f} after (1 minute); one run, every figure from it.")
    print()
    print("| route | positions | nodes | lists | moves protocol: wall s (cpu s) "
          "| in process: wall s (cpu s) | in process faster, wall |")
    print("|---|---|---|---|---|---|---|")
    for label, positions, nodes, lists, pw, pc, iw, ic in rows:
        print(f"| {label} | {positions} | {nodes} | {lists} | {pw:.2f} ({pc:.2f}) "
              f"| {iw:.2f} ({ic:.2f}) | {pw / iw:.2f}x |")
    label, _, _, lists, pw, _, iw, _ = rows[-1]
    print()
    print(f"The routes' own cost, from the last row: {1e6 * pw / lists:.0f} us a list over "
          f"the protocol, {1e6 * iw / lists:.0f} us in process (the whole check's wall time "
          f"over the lists, xqdiff's work included).")
    print(json.dumps({"rows": rows}), file=sys.stderr)


if __name__ == "__main__":
    main()
