"""The boards of a report page, laid out for a screenshot and checked in it.

  start REPORT OUT  writes OUT: the report JSON with a copy of its first disagreement
                    drawn on the position it was found from (a check run's findings
                    start from the opening, where all fourteen kinds of piece stand)
  boards PAGE OUT   writes OUT: the page's board pictures (the report's own SVG, with
                    the page's glyph definitions) one under another at 1:1, so SVG units
                    are screen pixels
  old PAGE OUT      the same with each piece's character written as text in a CJK font,
                    as the boards were drawn before the glyphs: on a machine without
                    such a font every character is the same empty box
  size OUT          the window size that shows all of them, as Chromium's WIDTH,HEIGHT
  check OUT PNG [KINDS]
                    crops every piece from the screenshot PNG where the SVG puts it.
                    The whole disc (character and letter): each side's pieces of one
                    kind alike, of two kinds different. The character alone (the disc
                    inside its ring, the letter's badge masked out): ink there, pieces of
                    one kind alike, every two kinds different, and each piece's ink where
                    its glyph's strokes, drawn here from the path data, put it: closer
                    to its own glyph than to any other. With KINDS, that many kinds
                    must be on the boards.
"""

import json
import re
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
GLYPHS = r'<svg xmlns="http://www.w3.org/2000/svg" class="glyphs".*?</svg>'
# The disc's fill (svg.rs DISC_FILL): ink is what differs from it clearly.
PAPER = (0xfb, 0xf1, 0xdc)


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


def write_start(report_path, out_json):
    with open(report_path, encoding="utf-8") as f:
        report = json.load(f)
    found = [d for d in report["disagreements"] if d.get("original_fen")]
    if not found:
        sys.exit(f"screenshot: {report_path} has no disagreement with the position it came from")
    start = dict(found[0], fen=found[0]["original_fen"], moves=[])
    start.pop("moves_fen", None)
    report["disagreements"].append(start)
    with open(out_json, "w", encoding="utf-8") as f:
        json.dump(report, f, ensure_ascii=False)


def write_boards(page_path, out_html):
    with open(page_path, encoding="utf-8") as f:
        page = f.read()
    found = re.findall(r'<svg xmlns="http://www.w3.org/2000/svg" class="board".*?</svg>', page, re.S)
    if not found:
        sys.exit(f"screenshot: {page_path} has no board")
    with open(out_html, "w", encoding="utf-8") as f:
        f.write('<!DOCTYPE html><html><head><meta charset="utf-8"><style>'
                "body{margin:0;background:#fff}svg{display:block}</style></head><body>")
        f.write("".join(re.findall(GLYPHS, page, re.S)))
        f.write("".join(found))
        f.write("</body></html>")


def symbols(page):
    """The page's glyphs by id: the character, the box, the pen and the path data."""
    found = {}
    for svg in re.findall(GLYPHS, page, re.S):
        for sym in ET.fromstring(svg).iter(SVG + "symbol"):
            path = sym.find(SVG + "path")
            found[sym.get("id")] = {
                "character": sym.get("data-character"),
                "box": float(sym.get("viewBox").split()[2]),
                "pen": float(path.get("stroke-width")),
                "d": path.get("d"),
            }
    return found


def write_old_boards(page_path, out_html):
    write_boards(page_path, out_html)
    with open(out_html, encoding="utf-8") as f:
        page = f.read()
    glyphs = symbols(page)

    def text(m):
        use = ET.fromstring(m.group(0))
        x = float(use.get("x")) + float(use.get("width")) / 2
        y = float(use.get("y")) + float(use.get("height")) / 2
        character = glyphs[use.get("href").lstrip("#")]["character"]
        # A piece's ink is on its use; the river's words are in the default black.
        fill = f'fill="{use.get("stroke")}" ' if use.get("stroke") else ""
        return (f'<text class="glyph" x="{x}" y="{y}" {fill}font-size="23" '
                'font-weight="bold" font-family="\'Noto Serif CJK TC\',\'Noto Serif CJK SC\','
                '\'Songti TC\',\'PMingLiU\',\'SimSun\',serif" text-anchor="middle" '
                f'dominant-baseline="central">{character}</text>')

    page, n = re.subn(r'<use class="glyph"[^>]*/>', text, page)
    if n == 0:
        sys.exit(f"screenshot: {page_path}: no drawn character to write as text")
    page = re.sub(GLYPHS, "", page, flags=re.S)
    with open(out_html, "w", encoding="utf-8") as f:
        f.write(page)


def size(out_html):
    placed = list(layout(out_html))
    width = max(round(float(svg.get("width"))) for svg, _ in placed)
    svg, top = placed[-1]
    print(f"{width},{top + round(float(svg.get('height')))}")


def strokes(d):
    """Path data (M, L, Q with absolute coordinates) as polylines, curves flattened."""
    tokens = re.findall(r"[MLQ]|-?[0-9.]+", d)
    lines, i = [], 0
    while i < len(tokens):
        command = tokens[i]
        if command == "M":
            lines.append([(float(tokens[i + 1]), float(tokens[i + 2]))])
            i += 3
        elif command == "L":
            lines[-1].append((float(tokens[i + 1]), float(tokens[i + 2])))
            i += 3
        elif command == "Q":
            (x0, y0), (cx, cy) = lines[-1][-1], (float(tokens[i + 1]), float(tokens[i + 2]))
            x1, y1 = float(tokens[i + 3]), float(tokens[i + 4])
            for k in range(1, 13):
                t = k / 12
                lines[-1].append(((1 - t) ** 2 * x0 + 2 * (1 - t) * t * cx + t * t * x1,
                                  (1 - t) ** 2 * y0 + 2 * (1 - t) * t * cy + t * t * y1))
            i += 5
        else:
            sys.exit(f"screenshot: path command {command} in {d}")
    return lines


def check(out_html, png, kinds=0):
    from PIL import Image, ImageChops, ImageDraw

    shot = Image.open(png).convert("RGB")
    with open(out_html, encoding="utf-8") as f:
        glyphs = symbols(f.read())

    def count(mask):
        return mask.histogram()[255]

    def drawn(glyph, place, size):
        """How much of each pixel of a crop of `size` the strokes of `glyph` cover when
        its box is at `place` in it: drawn with its round pen at 4 times the size, then
        scaled down."""
        ss = 4
        x0, y0, width = place
        scale = width / glyph["box"] * ss
        big = Image.new("L", (size[0] * ss, size[1] * ss), 0)
        draw = ImageDraw.Draw(big)
        pen = glyph["pen"] * scale
        for line in strokes(glyph["d"]):
            points = [((x0 * ss + x * scale), (y0 * ss + y * scale)) for x, y in line]
            draw.line(points, fill=255, width=round(pen))
            for x, y in points:
                draw.ellipse((x - pen / 2, y - pen / 2, x + pen / 2, y + pen / 2), fill=255)
        return big.resize(size, Image.BOX)

    # Each piece: its disc, masked to the inside of its outline, keyed by its FEN
    # letter; and its character's area, as ink (what differs clearly from the paper).
    discs, characters = {}, {}
    for svg, top in layout(out_html):
        for g in svg.iter(SVG + "g"):
            if "piece" not in g.get("class", "").split():
                continue
            letter, square = g.get("data-piece"), g.get("data-square")
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
            discs.setdefault(letter, []).append((square, disc))

            # The character's area: inside the thin ring, off the badge and its rim.
            ring = next(c for c in g.iter(SVG + "circle") if c.get("fill") == "none")
            r = float(ring.get("r")) - 1.5
            box = (round(cx - r) - 1, round(cy - r) - 1, round(cx + r) + 2, round(cy + r) + 2)
            area = Image.new("L", (box[2] - box[0], box[3] - box[1]), 0)
            draw = ImageDraw.Draw(area)
            draw.ellipse((cx - r - box[0], cy - r - box[1], cx + r - box[0], cy + r - box[1]),
                         fill=255)
            for c in filled[1:]:
                x, y = float(c.get("cx")) - box[0], float(c.get("cy")) + top - box[1]
                rb = float(c.get("r")) + 1.5
                draw.ellipse((x - rb, y - rb, x + rb, y + rb), fill=0)
            paper = Image.new("RGB", area.size, PAPER)
            diff = ImageChops.difference(shot.crop(box), paper).split()
            strongest = ImageChops.lighter(ImageChops.lighter(diff[0], diff[1]), diff[2])
            ink = ImageChops.multiply(strongest.point(lambda v: 255 if v > 80 else 0), area)
            use = g.find(SVG + "use")
            place = None
            if use is not None and "glyph" in use.get("class", "").split():
                # How much ink covers each pixel: its difference from the paper as a
                # share of the full ink colour's.
                colour = use.get("stroke")
                full = max(abs(int(colour[i:i + 2], 16) - p)
                           for i, p in zip((1, 3, 5), PAPER))
                covered = ImageChops.multiply(
                    strongest.point(lambda v: min(255, v * 255 // full)), area)
                place = (float(use.get("x")) - box[0], float(use.get("y")) + top - box[1],
                         float(use.get("width")), use.get("href").lstrip("#"), covered)
            characters.setdefault(letter, []).append((square, ink, area, place))

    def differing(a, b):
        """Pixels that differ clearly (anti-aliasing differs by a few levels at most)."""
        diff = ImageChops.difference(a, b).convert("L")
        return sum(1 for v in diff.getdata() if v > 60)

    def distance(covered, want):
        """How far the coverage seen is from the one wanted, as a share of the ink
        wanted: 0 for the same picture, about 1 or more for another shape."""
        return (sum(ImageChops.difference(covered, want).getdata())
                / max(1, sum(want.getdata())))

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
        kinds_of_side = sorted(k for k in discs if side(k))
        for i, a in enumerate(kinds_of_side):
            for b in kinds_of_side[i + 1:]:
                apart += 1
                n = differing(discs[a][0][1], discs[b][0][1])
                if n < 20:
                    failures.append(f"{a} and {b} look alike ({n} pixels differ)")

    # The characters alone: an empty box, the same for every character, fails here
    # whatever the letters beside it say.
    for letter, seen in sorted(characters.items()):
        first_square, first, _, _ = seen[0]
        for square, ink, _, _ in seen:
            if count(ink) < 30:
                failures.append(f"character of {letter} on {square}: no ink ({count(ink)} pixels)")
            n = count(ImageChops.difference(first, ink))
            if n > 8:
                failures.append(f"characters of {letter} on {first_square} and on {square} "
                                f"look different ({n} pixels differ)")
    letters = sorted(characters)
    for i, a in enumerate(letters):
        for b in letters[i + 1:]:
            n = count(ImageChops.difference(characters[a][0][1], characters[b][0][1]))
            if n < 25:
                failures.append(f"characters of {a} and {b} look alike ({n} pixels differ)")
    # Each character where its own strokes put it, and nearer them than any other's.
    matched = 0
    for letter, seen in sorted(characters.items()):
        for square, ink, area, place in seen:
            if place is None:
                failures.append(f"{letter} on {square}: its character is not drawn as strokes")
                continue
            x, y, width, own, covered = place
            if own not in glyphs:
                failures.append(f"{letter} on {square}: no glyph {own} on the page")
                continue
            scores = {
                gid: distance(covered, ImageChops.multiply(drawn(glyph, (x, y, width), ink.size),
                                                        area))
                for gid, glyph in glyphs.items()
            }
            # Seen on the opening (tens of pieces): 0.10 to 0.25 from its own strokes,
            # 0.49 or more from any other glyph's.
            nearest = min(scores, key=scores.get)
            if nearest != own or scores[own] > 0.35:
                failures.append(f"{letter} on {square}: {scores[own]:.2f} from {own}'s strokes; "
                                f"nearest is {nearest} ({scores[nearest]:.2f})")
            else:
                matched += 1

    pieces = sum(len(v) for v in discs.values())
    print(f"screenshot: {pieces} pieces of {len(discs)} kinds; {alike} pairs of one kind, "
          f"{apart} pairs of two kinds of one side compared; characters: "
          f"{len(letters) * (len(letters) - 1) // 2} pairs of kinds compared, "
          f"{matched} matched to their own strokes")
    if apart == 0:
        failures.append("no two kinds of one side on the boards: nothing was compared")
    if len(discs) < int(kinds):
        failures.append(f"{len(discs)} kinds of piece on the boards, not {kinds}")
    for f in failures:
        print(f"screenshot: FAIL {f}")
    if failures:
        sys.exit(1)
    print("screenshot: every kind of piece is told apart, by its letter and by its character")


if __name__ == "__main__":
    command, *args = sys.argv[1:]
    {"start": write_start, "boards": write_boards, "old": write_old_boards, "size": size,
     "check": check}[command](*args)
