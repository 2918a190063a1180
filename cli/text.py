"""Text output: one document model, printed plain (no colour, ASCII) or pretty (Rich styles, box drawing).

A `Doc` is a list of lines, each a list of (text, style) pieces. Plain output joins the text; pretty
output hands the same pieces to Rich as `Text` (never markup, so user text is printed as it is).
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


class Doc:
    def __init__(self) -> None:
        self.lines: list[list[Piece]] = []

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
        return "".join("".join(t for t, _ in line) + "\n" for line in self.lines)


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


def use_color() -> bool | None:
    """False when NO_COLOR is set (any value, https://no-color.org); otherwise Rich decides."""
    return False if os.environ.get("NO_COLOR") else None


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

    styled = use_color() is not False  # NO_COLOR: no colour, and no bold or dim either
    console_ = console(out, soft_wrap=True, no_color=not styled)
    for line in doc.lines:
        text = Text()
        for piece, style in line:
            text.append(piece, style=(STYLES.get(style, style) or None) if styled else None)
        console_.print(text)


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
