"""``python -m xqdiff ARGS``: the ``xqdiff`` command this package installed, for an
environment whose scripts folder is not on the PATH."""

import os
import sys
import sysconfig


def main() -> None:
    name = "xqdiff.exe" if os.name == "nt" else "xqdiff"
    program = os.path.join(sysconfig.get_path("scripts"), name)
    if not os.access(program, os.X_OK):
        sys.exit(f"python -m xqdiff: {program} is not there: the package was installed "
                 "without its xqdiff command")
    os.execv(program, [program, *sys.argv[1:]])


if __name__ == "__main__":
    main()
