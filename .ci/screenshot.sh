#!/usr/bin/env bash
# The report's boards as a person without a CJK font sees them (a container, a CI
# artifact viewer): headless Chromium from Debian's package screenshots the boards of a
# failing report, and .ci/screenshot.py requires pieces of different kinds to look
# different and pieces of one kind alike, both with their letters and by their
# characters alone, and each character to be where its glyph's strokes put it. A
# character written as text without a font renders as the same empty box whatever it
# is, so boards that write the characters as text fail here.
#
#   bash .ci/screenshot.sh              a failing `xqdiff check` with a planted bug, its
#                                       finding also drawn on the opening position,
#                                       where all fourteen kinds of piece stand
#   bash .ci/screenshot.sh PAGE.html    the boards of a report page already rendered
#
# The screenshots are left in target/screenshot/ to look at.
set -euo pipefail
cd "$(dirname "$0")/.."
out=target/screenshot
mkdir -p "$out"

# Debian's own Python, where python3-pil installs (a pyenv or venv python3 first on the
# PATH would not see it).
py=/usr/bin/python3
missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v fc-list >/dev/null || missing+=(fontconfig)
"$py" -c 'import PIL' 2>/dev/null || missing+=(python3 python3-pil)
if ((${#missing[@]})); then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# No CJK font, whatever is installed: a CJK font found is rejected by a fontconfig file
# of our own (uninstalling it would change the machine for everything else).
cjk=$(fc-list :lang=zh file | sed 's/: *$//')
if [[ -n "$cjk" ]]; then
    conf="$out/no-cjk-fonts.conf"
    {
        echo '<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>'
        echo '<include ignore_missing="yes">/etc/fonts/fonts.conf</include>'
        echo '<selectfont><rejectfont>'
        while IFS= read -r f; do echo "<glob>$f</glob>"; done <<<"$cjk"
        echo '</rejectfont></selectfont></fontconfig>'
    } >"$conf"
    export FONTCONFIG_FILE="$PWD/$conf"
fi
if [[ -n "$(fc-list :lang=zh)" ]]; then
    echo "screenshot: a CJK font is still visible to fontconfig:" >&2
    fc-list :lang=zh >&2
    exit 1
fi

kinds=0
if (($#)); then
    page=$1
else
    # A planted bug the engine check finds on its first positions: a failing report
    # with boards. Exit 1 is the failed run this needs; anything else is a broken run.
    # The release builds the README's commands use too (.ci/readme.py, after this in
    # .ci/run), so they are made once.
    cargo build --release --quiet --bin xqdiff
    cargo build --release --quiet --features planted --bin xqdiff-test-engine
    rm -rf "$out/report"
    status=0
    target/release/xqdiff check --quick --seconds 1 --max-nodes 20000 --no-save --seed 1 \
        --engine "target/release/xqdiff-test-engine --bug cannon-cannot-capture" \
        --engine-positions 5 --report-dir "$out/report" >"$out/check.log" 2>&1 || status=$?
    if ((status != 1)); then
        echo "screenshot: xqdiff check exited $status, not 1 (a failed run):" >&2
        cat "$out/check.log" >&2
        exit 1
    fi
    # The finding drawn on the position it was found from too: the minimized board
    # has only a few kinds of piece, the opening all fourteen.
    "$py" .ci/screenshot.py start "$out/report/report.json" "$out/start.json"
    # Exit 1 again: the report it renders is a failed run's.
    status=0
    target/release/xqdiff report --from "$out/start.json" --html "$out/start.html" \
        >"$out/report.log" 2>&1 || status=$?
    if ((status != 1)); then
        echo "screenshot: xqdiff report exited $status, not 1 (a failed run's report):" >&2
        cat "$out/report.log" >&2
        exit 1
    fi
    page=$out/start.html
    kinds=14
fi

# --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
shoot() {
    local size
    size=$("$py" .ci/screenshot.py size "$1")
    chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --force-device-scale-factor=1 --window-size="$size" --screenshot="$PWD/$2" \
        "file://$PWD/$1" >/dev/null 2>&1
}
# The check must be able to fail: the same boards with the characters written as text,
# as they were drawn before the glyphs, must fail it on this font-less machine, and on
# the characters themselves (their letters still tell the pieces apart).
"$py" .ci/screenshot.py old "$page" "$out/old-boards.html"
shoot "$out/old-boards.html" "$out/old-boards.png"
if "$py" .ci/screenshot.py check "$out/old-boards.html" "$out/old-boards.png" >"$out/old-check.log"; then
    echo "screenshot: the characters written as text passed the check, which therefore looks at nothing:" >&2
    cat "$out/old-check.log" >&2
    exit 1
fi
if ! grep -q "FAIL characters of .* look alike" "$out/old-check.log"; then
    echo "screenshot: the characters written as text failed, but not for looking alike:" >&2
    cat "$out/old-check.log" >&2
    exit 1
fi
echo "screenshot: as it must, the characters written as text fail:" \
    "$(grep -c "FAIL characters of .* look alike" "$out/old-check.log") pairs alike"
"$py" .ci/screenshot.py boards "$page" "$out/boards.html"
shoot "$out/boards.html" "$out/boards.png"
"$py" .ci/screenshot.py check "$out/boards.html" "$out/boards.png" "$kinds"
