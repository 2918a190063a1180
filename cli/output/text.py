"""Text output: one document model, printed plain (no colour, ASCII) or pretty (Rich styles, box drawing).

A `Doc` is a list of lines, each a list of (text, style) pieces, and of tables (`Grid`). Plain output joins
the text; pretty output hands the same pieces to Rich as `Text` (never markup, so user text is printed as it
is). A table is printed plain as its own padded lines (the stable layout scripts and diffs read) and pretty as
a Rich table fitted to the terminal's width (`columns()`): no renderer pads columns by hand for a terminal.
"""

from __future__ import annotations

import os
import sys
from typing import Any

Piece = tuple[str, str]

# Deep graphs (a 100,000-op chain) would print a staircase of 100,000 indented lines: past these
# limits the tree stops indenting and then stops, saying what it left out.
MAX_TREE_DEPTH = 24
MAX_TREE_LINES = 400


class Grid:
    """A table: a header (None: no header row), rows of cells (a string, a (text, style) piece or a list of
    pieces), each column's justification ("left", "right"), and the same table as plain text lines."""

    def __init__(self, header: list[str] | None, rows: list[list[Any]], justify: list[str], plain: list[str],
                 indent: int = 2, styles: list[str] | None = None, after: list[list[Piece]] | None = None) -> None:
        self.header = header
        self.rows = rows
        self.justify = justify
        self.plain = plain
        self.indent = indent
        self.styles = [] if styles is None else styles  # each column's style ("name", "muted", ...), if any
        self.after = [] if after is None else after  # pretty only: lines under the table (plain has them)

    def __repr__(self) -> str:
        return f"Grid(header={self.header!r}, rows={self.rows!r}, justify={self.justify!r})"


class Doc:
    def __init__(self) -> None:
        self.lines: list[list[Piece] | Grid] = []

    def table(self, grid: Grid) -> None:
        self.lines.append(grid)

    def line(self, *pieces: Piece | str) -> None:
        self.lines.append([(p, "") if isinstance(p, str) else p for p in pieces])

    def blank(self) -> None:
        if self.lines and self.lines[-1]:
            self.lines.append([])

    def block(self, label: list[Piece], text: str, indent: int = 0) -> None:
        """`label` then a possibly multi-line text whose later lines align under its first character."""
        width = indent + sum(len(t) for t, _ in label)
        first, *rest = text.split("\n")
        self.lines.append([(" " * indent, ""), *label, (first, "value")])
        for more in rest:
            self.lines.append([(" " * width, ""), (more, "value")])

    def plain(self) -> str:
        return "".join("".join(row + "\n" for row in line.plain) if isinstance(line, Grid)
                       else "".join(t for t, _ in line) + "\n" for line in self.lines)


STYLES = {
    "title": "bold",
    "name": "bold cyan",
    "value": "",
    "none": "dim",
    "hint": "yellow",
    "node": "magenta",
    "leaf": "green",
    "muted": "dim",
    "error": "bold red",
}


def colour(stream: Any = None) -> bool:
    """Whether to colour what goes to `stream` (standard output by default): the one decision every renderer
    (Rich's documents, plot) follows. NO_COLOR (non-empty, https://no-color.org) never; FORCE_COLOR (non-empty)
    always; TERM=dumb never; otherwise only a terminal. --color always or never (cli.commandline.COLOR) decides
    before any of them."""
    from autodiff.cli.commandline import COLOR

    if COLOR[0] in ("always", "never"):
        return COLOR[0] == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream or sys.stdout, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (OSError, ValueError):
        return False


def prose(text: str, pretty: bool) -> str:
    """Lines of words as a terminal shows them (pretty output): each line longer than the terminal's width
    wrapped at spaces, continued two spaces further in; plain output keeps one line per line (for scripts)."""
    if not pretty:
        return text
    import textwrap

    width = max(columns(), 20)
    out = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        indent = " " * (len(line) - len(line.lstrip(" ")))
        out.append(textwrap.fill(line, width, subsequent_indent=indent + "  ", break_long_words=False,
                                 break_on_hyphens=False))
    return "\n".join(out)


def columns(default: int = 80) -> int:
    """The width to fill: COLUMNS when it is a positive number, else the terminal's, else `default`."""
    import shutil

    text = os.environ.get("COLUMNS", "").strip()
    if text.isdigit() and int(text) > 0:
        return int(text)
    try:
        size = shutil.get_terminal_size((default, 24)).columns
    except (OSError, ValueError):
        return default
    return size if size > 0 else default


def console(file: Any = None, **options: Any) -> Any:
    """A Rich Console for autodiff's output: a closed pipe is a BrokenPipeError (a quiet exit 0, as in plain
    output; Rich's own answer is exit 1), and a COLUMNS of 0 or less (Rich would print nothing) is ignored."""
    from rich.console import Console

    class Output(Console):
        def on_broken_pipe(self) -> None:
            raise BrokenPipeError

    columns = os.environ.get("COLUMNS", "").strip()
    if columns.lstrip("-").isdigit() and int(columns) < 1:
        options.setdefault("width", 80)
    return Output(file=file, markup=False, highlight=False, emoji=False, **options)


def unicode_ok(stream: Any = None) -> bool:
    """Can the stream take box drawing and braille (a UTF-8 terminal can; PYTHONIOENCODING=ascii cannot)?"""
    encoding = getattr(stream or sys.stdout, "encoding", None) or "utf-8"
    try:
        "\u251c\u2500\u2502\u2514\u28ff".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def write(doc: Doc, pretty: bool, file: Any = None) -> None:
    out = file or sys.stdout
    if not pretty:
        out.write(doc.plain())
        return
    from rich.text import Text

    styled = colour(out)  # no colour: no bold or dim either
    console_ = console(out, soft_wrap=True, no_color=not styled, force_terminal=styled or None)
    for line in doc.lines:
        if isinstance(line, Grid):
            for k, part in enumerate(split(line, columns())):
                if k:
                    console_.print()
                console_.print(rich_table(part, styled, unicode_ok(out)), soft_wrap=False, width=columns())
            for pieces in line.after:
                console_.print(Text.assemble(*((t, (STYLES.get(n, n) or None) if styled else None)
                                               for t, n in pieces)))
            continue
        text = Text()
        for piece, style in line:
            text.append(piece, style=(STYLES.get(style, style) or None) if styled else None)
        console_.print(text)


def cell_text(cell: Any) -> str:
    """A grid cell's text: a string, a (text, style) piece or a list of pieces."""
    if isinstance(cell, str):
        return cell
    return cell[0] if isinstance(cell, tuple) else "".join(t for t, _ in cell)


def split(grid: Grid, width: int) -> list[Grid]:
    """The grid as tables that each fit `width` columns (as numpy prints a wide array): the columns after the
    first in turn, the first (the labels) repeated in each. A column too wide even alone gets a table of its
    own, where Rich folds its cells."""
    sizes = [max([len(grid.header[k]) if grid.header is not None else 0,
                  *(len(line) for r in grid.rows for line in cell_text(r[k]).split("\n"))])
             for k in range(len(grid.justify))]
    parts: list[list[int]] = [[]]
    used = grid.indent + sizes[0]
    for k in range(1, len(sizes)):
        if parts[-1] and used + 3 + sizes[k] > width:  # Rich: a space between columns, padded either side
            parts.append([])
            used = grid.indent + sizes[0]
        parts[-1].append(k)
        used += 3 + sizes[k]
    if len(parts) == 1:
        return [grid]
    return [Grid(None if grid.header is None else [grid.header[k] for k in (0, *part)],
                 [[row[k] for k in (0, *part)] for row in grid.rows], [grid.justify[k] for k in (0, *part)],
                 [], grid.indent, [([*grid.styles, *[""] * len(sizes)])[k] for k in (0, *part)]) for part in parts]


def rich_table(grid: Grid, styled: bool, boxes: bool = True) -> Any:
    """The grid as a Rich table (indented by grid.indent): a line under the header, no outer frame; a cell too
    wide for the terminal folds onto more lines (no digit is cut off)."""
    from rich import box
    from rich.padding import Padding
    from rich.table import Table
    from rich.text import Text

    def style(name: str) -> str | None:
        return (STYLES.get(name, name) or None) if styled and name else None

    table = Table(box=box.SIMPLE_HEAD if boxes else box.ASCII2, show_edge=False, pad_edge=False,
                  show_header=grid.header is not None, header_style="bold" if styled else None)
    styles = [*grid.styles, *[""] * len(grid.justify)]
    for k, justify in enumerate(grid.justify):
        table.add_column(grid.header[k] if grid.header is not None else "", justify=justify,  # type: ignore[arg-type]
                         overflow="fold", style=style(styles[k]), no_wrap=k == 0 and len(grid.justify) > 1)
    for row in grid.rows:
        cells = []
        for cell in row:
            pieces = [(cell, "")] if isinstance(cell, str) else [cell] if isinstance(cell, tuple) else cell
            text = Text()
            for piece, name in pieces:
                text.append(piece, style=style(name) or "")
            cells.append(text)
        table.add_row(*cells)
    return Padding(table, (0, 0, 0, grid.indent), expand=False) if grid.indent else table


def write_columns(header: list[str], rows: list[list[str]], pretty: bool, marks: list[str] | None = None,
                  file: Any = None) -> None:
    """A table of numbers, right-aligned under its header, each row with an optional remark after it: pretty, a
    Rich table (coloured header, fitted to the terminal's width); plain, columns two spaces apart (a stable
    layout for scripts and diffs)."""
    out = file or sys.stdout
    marks = marks or [""] * len(rows)
    if not pretty:
        widths = [max(len(h), *(len(r[k]) for r in rows)) for k, h in enumerate(header)]
        lines = ["  ".join(h.rjust(w) for h, w in zip(header, widths))]
        lines += ["  ".join(c.rjust(w) for c, w in zip(row, widths)) + (f"  {m}" if m else "")
                  for row, m in zip(rows, marks)]
        out.write("\n".join(lines) + "\n")
        return
    from rich import box
    from rich.table import Table
    from rich.text import Text

    styled = colour(out)
    table = Table(box=box.SIMPLE_HEAD if unicode_ok(out) else box.ASCII2, show_edge=False, pad_edge=False,
                  header_style="bold" if styled else None)
    for name in header:
        table.add_column(name, justify="right", no_wrap=True)
    if any(marks):
        table.add_column("", justify="left", style="yellow" if styled else None)
    for row, mark in zip(rows, marks):
        table.add_row(*(Text(c) for c in row), *([Text(mark)] if any(marks) else []))
    console(out, no_color=not styled, force_terminal=styled or None, width=columns()).print(table)


def tree_lines(doc: Doc, graph: Any, pretty: bool, indent: int = 2, labels: dict[int, list[Piece]] | None = None
               ) -> None:
    """The backward graph as a tree from the root's grad_fn down to the leaves, iteratively.

    A node reached a second time (a value used twice) is shown once, then referred to by its number.
    """
    if graph.root is None:
        doc.line((" " * indent, ""), ("(no graph: the root does not require grad)", "muted"))
        return
    boxes = pretty and unicode_ok()
    branch, last, pipe, space = ("├── ", "└── ", "│   ", "    ") if boxes else ("|-- ", "`-- ", "|   ", "    ")
    nodes = {n.id: n for n in graph.nodes}
    shown: set[int] = set()
    shared = _shared(graph)
    stack: list[tuple[int | None, str, bool, int]] = [(graph.root, "", True, 0)]
    count = 0
    while stack:
        node_id, prefix, is_last, depth = stack.pop()
        connector = "" if depth == 0 else (last if is_last else branch)
        if count >= MAX_TREE_LINES:
            doc.line((" " * indent + prefix + connector, "muted"),
                     (f"... {len(graph.nodes) - len(shown)} more nodes (--format json shows the whole graph)",
                      "muted"))
            return
        count += 1
        lead = (" " * indent + prefix + connector, "muted")
        if node_id is None:
            doc.line(lead, ("None", "none"), ("  (an input that needs no grad)", "muted"))
            continue
        node = nodes[node_id]
        pieces = _node_pieces(node, node_id in shared)
        if labels and node_id in labels:
            pieces += labels[node_id]
        if node_id in shown:
            doc.line(lead, (node.name, "node"), (f"  [{node_id}] (shown above)", "muted"))
            continue
        shown.add(node_id)
        doc.line(lead, *pieces)
        children = node.next
        child_prefix = prefix + ("" if depth == 0 else (space if is_last else pipe))
        if depth >= MAX_TREE_DEPTH and sum(1 for edge in children if edge) == 1:
            child_prefix = prefix  # a long chain (x + 1 + 1 ...: one node and a None each): stop indenting
        for i in reversed(range(len(children))):
            edge = children[i]
            stack.append((edge[0] if edge else None, child_prefix, i == len(children) - 1, depth + 1))


def _shared(graph: Any) -> set[int]:
    seen: dict[int, int] = {}
    for n in graph.nodes:
        for edge in n.next:
            if edge:
                seen[edge[0]] = seen.get(edge[0], 0) + 1
    return {i for i, c in seen.items() if c > 1}


def _node_pieces(node: Any, shared: bool) -> list[Piece]:
    if node.name == "AccumulateGrad":
        pieces: list[Piece] = [("AccumulateGrad", "node"), ("  ", ""),
                               (node.variable or "(unnamed leaf)", "leaf" if node.variable else "muted")]
    else:
        pieces = [(node.name, "node")]
        if node.tensor:
            pieces += [("  ", ""), (f"-> {node.tensor}", "name")]
    if shared:
        pieces.append((f"  [{node.id}]", "muted"))
    return pieces
