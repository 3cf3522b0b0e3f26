#!/usr/bin/env python3
"""Run every command the README prints, as printed, so the README cannot drift.

The commands are the lines of its ```sh blocks and the `$ ` lines of its transcripts
(```text blocks); a line ending in a backslash goes on. Each must exit 0, unless its
line ends with a comment `# exits N`. They run one after another from the checkout's
root, as a user would, with the release build's folder on the PATH (the README's
"To have xqdiff on the PATH"), so the builds the commands need are the ones already
made. Files the commands leave that git does not know of (jobs files, an edited
adapter, a known-bugs list) are removed afterwards; files that were there before stay.

  .ci/readme.py [--already-ran "COMMAND"]... [--list]

`--already-ran` names a command the caller has just run itself (`.ci/run` runs the
test command before everything else), so it is not run twice. `$EDITOR` is set to a
command that makes the edit the README asks for (it copies the pyffish adapter over
the template), so the steps that open an editor run unattended.
"""

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXPECT = re.compile(r"#\s*exits\s+(\d+)\b")


def commands(readme: str):
    """(line number, command, expected exit) for every command the README prints."""
    found = []
    fence = None
    pending, start = None, 0
    for number, line in enumerate(readme.splitlines(), 1):
        if line.startswith("```"):
            fence = None if fence is not None else line[3:].strip()
            pending = None
            continue
        if fence not in ("sh", "text"):
            continue
        if pending is None:
            stripped = line.strip()
            if fence == "sh":
                if not stripped or stripped.startswith("#"):
                    continue
            elif not line.startswith("$ "):
                continue
            else:
                line = line[2:]
            pending, start = "", number
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1].strip() + " "
            continue
        pending += line.strip()
        match = EXPECT.search(pending)
        found.append((start, pending, int(match.group(1)) if match else 0))
        pending = None
    return found


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
    parser.add_argument("--list", action="store_true", help="print the commands, run nothing")
    args = parser.parse_args()

    found = commands((ROOT / "README.md").read_text())
    if not found:
        print("README.md: no command found", file=sys.stderr)
        return 1
    if args.list:
        for number, command, code in found:
            print(f"README.md:{number}: [exit {code}] {command}")
        return 0

    before = untracked()
    env = dict(os.environ)
    env["PATH"] = f"{ROOT / 'target' / 'release'}{os.pathsep}{env['PATH']}"
    env["EDITOR"] = "cp examples/adapters/python/pyffish_adapter.py"
    failures = []
    try:
        for number, command, expected in found:
            if command.split("#")[0].strip() in args.already_ran:
                print(f"== README.md:{number}: {command}  (run above)")
                continue
            print(f"== README.md:{number}: {command}", flush=True)
            began = time.monotonic()
            code = subprocess.run(["bash", "-c", command], cwd=ROOT, env=env).returncode
            took = time.monotonic() - began
            verdict = "ok" if code == expected else "FAILED"
            print(f"== {verdict}: exit {code} (expected {expected}), {took:.1f} s", flush=True)
            if code != expected:
                failures.append(f"README.md:{number}: exit {code}, expected {expected}: {command}")
    finally:
        for name in untracked() - before:
            (ROOT / name).unlink(missing_ok=True)
            # And the folders that held only it (a new engine's xqdiff-findings/ folder);
            # git keeps no empty folder, so none of these was in the checkout.
            try:
                os.removedirs((ROOT / name).parent)
            except OSError:
                pass
    for failure in failures:
        print(failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
