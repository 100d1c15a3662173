"""What bench's SVG charts (chart.py, growth_chart.py) share: the document around the drawing, a text
element, and writing the file. Python 3 standard library only; the SVG is written by hand."""
from xml.sax.saxutils import escape

FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"


def text(x, y, s, size=12, anchor="start", weight="normal", fill="#222", extra=""):
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" '
            f'font-weight="{weight}" fill="{fill}"{extra}>{escape(s)}</text>')


def start(width, height):
    """The document's opening lines: the svg element and a white background."""
    return [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="{FONT}">',
            f'<rect width="{width}" height="{height}" fill="#ffffff"/>']


def finish(out):
    """The document: the lines from start() and the drawing, closed."""
    out.append("</svg>")
    return "\n".join(out) + "\n"


def write(path, svg):
    with open(path, "w", encoding="utf-8") as f:
        f.write(svg)
