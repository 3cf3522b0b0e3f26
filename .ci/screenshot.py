"""The boards of a report page, laid out for a screenshot and checked in it.

  boards PAGE OUT   writes OUT: the page's board pictures (the report's own SVG) one
                    under another at 1:1, so SVG units are screen pixels
  old PAGE OUT      the same with the pieces' letters taken out: the boards as they
                    were drawn before the letters, characters only
  size OUT          the window size that shows all of them, as Chromium's WIDTH,HEIGHT
  check OUT PNG     crops every piece's disc from the screenshot PNG where the SVG puts
                    it, and requires each side's pieces of one kind to look alike and
                    of two kinds to look different (an empty box for every character
                    looks alike whatever the piece)
"""

import re
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def boards(page):
    found = re.findall(r'<svg xmlns="http://www.w3.org/2000/svg" class="board".*?</svg>', page, re.S)
    return [ET.fromstring(svg) for svg in found]


def layout(out_html):
    """Each board with its top edge on the page."""
    with open(out_html, encoding="utf-8") as f:
        svgs = boards(f.read())
    top = 0
    for svg in svgs:
        yield svg, top
        top += round(float(svg.get("height")))


def write_boards(page_path, out_html):
    with open(page_path, encoding="utf-8") as f:
        page = f.read()
    found = re.findall(r'<svg xmlns="http://www.w3.org/2000/svg" class="board".*?</svg>', page, re.S)
    if not found:
        sys.exit(f"screenshot: {page_path} has no board")
    with open(out_html, "w", encoding="utf-8") as f:
        f.write('<!DOCTYPE html><html><head><meta charset="utf-8"><style>'
                "body{margin:0;background:#fff}svg{display:block}</style></head><body>")
        f.write("".join(found))
        f.write("</body></html>")


def write_old_boards(page_path, out_html):
    write_boards(page_path, out_html)
    with open(out_html, encoding="utf-8") as f:
        page = f.read()
    page, badges = re.subn(r'<circle class="badge"[^>]*/>', "", page)
    page, letters = re.subn(r'<text class="letter"[^>]*>[^<]*</text>', "", page)
    if badges == 0 or letters != badges:
        sys.exit(f"screenshot: {page_path}: {badges} badges and {letters} letters to take out")
    with open(out_html, "w", encoding="utf-8") as f:
        f.write(page)


def size(out_html):
    placed = list(layout(out_html))
    width = max(round(float(svg.get("width"))) for svg, _ in placed)
    svg, top = placed[-1]
    print(f"{width},{top + round(float(svg.get('height')))}")


def check(out_html, png):
    from PIL import Image, ImageChops, ImageDraw

    shot = Image.open(png).convert("RGB")
    # Each piece: its disc, masked to the inside of its outline, keyed by its FEN letter.
    discs = {}
    for svg, top in layout(out_html):
        for g in svg.iter(SVG + "g"):
            if "piece" not in g.get("class", "").split():
                continue
            # The filled circles: the disc and, where drawn, the letter's badge.
            filled = [c for c in g.iter(SVG + "circle") if c.get("fill") != "none"]
            cx, cy = float(filled[0].get("cx")), float(filled[0].get("cy")) + top
            # One box for every piece, around the disc and the badge's place, so that
            # crops of different pieces compare pixel for pixel.
            box = (round(cx - 20), round(cy - 20), round(cx + 24), round(cy + 24))
            crop = shot.crop(box)
            mask = Image.new("L", crop.size, 0)
            draw = ImageDraw.Draw(mask)
            for c in filled:
                x = float(c.get("cx")) - box[0]
                y = float(c.get("cy")) + top - box[1]
                r = float(c.get("r")) - 1.5
                draw.ellipse((x - r, y - r, x + r, y + r), fill=255)
            disc = Image.new("RGB", crop.size, (255, 255, 255))
            disc.paste(crop, (0, 0), mask)
            discs.setdefault(g.get("data-piece"), []).append((g.get("data-square"), disc))

    def differing(a, b):
        """Pixels that differ clearly (anti-aliasing differs by a few levels at most)."""
        diff = ImageChops.difference(a, b).convert("L")
        return sum(1 for v in diff.getdata() if v > 60)

    failures = []
    alike = 0
    for letter, seen in sorted(discs.items()):
        first_square, first = seen[0]
        for square, disc in seen[1:]:
            alike += 1
            if differing(first, disc) > 8:
                failures.append(f"{letter} on {first_square} and on {square} look different")
    apart = 0
    for side in (str.isupper, str.islower):
        kinds = sorted(k for k in discs if side(k))
        for i, a in enumerate(kinds):
            for b in kinds[i + 1:]:
                apart += 1
                n = differing(discs[a][0][1], discs[b][0][1])
                if n < 20:
                    failures.append(f"{a} and {b} look alike ({n} pixels differ)")
    pieces = sum(len(v) for v in discs.values())
    print(f"screenshot: {pieces} pieces of {len(discs)} kinds; {alike} pairs of one kind, "
          f"{apart} pairs of two kinds of one side compared")
    if apart == 0:
        failures.append("no two kinds of one side on the boards: nothing was compared")
    for f in failures:
        print(f"screenshot: FAIL {f}")
    if failures:
        sys.exit(1)
    print("screenshot: every kind of piece is told apart")


if __name__ == "__main__":
    command, *args = sys.argv[1:]
    {"boards": write_boards, "old": write_old_boards, "size": size, "check": check}[command](*args)
