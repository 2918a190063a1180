"""autodiff.grammar.syntax: the language's text to its syntax tree, without evaluating anything.

`parse(source) -> Program` lexes (lexer.py), drives the LALR(1) tables generated from `grammar/autodiff.lark`
(tables.py, states.py, parser.py) and builds the tree bottom-up (builder.py, tree.py, fstrings.py); a
mistake is a ParseError with line, column and a caret excerpt (diagnostics.py). Only the interpreter
(autodiff.grammar.interpreter) reads the tree; the layers above hold a parsed program without looking in (they
may ask forms.py what form it has: elementwise, a number).
"""

from __future__ import annotations

from typing import Any

from autodiff.grammar.syntax.forms import FUNCTIONS as ELEMENTWISE_FUNCTIONS
from autodiff.grammar.syntax.forms import elementwise, is_number, number_lanes
from autodiff.grammar.syntax.lexer import MAX_BRACKET_DEPTH, MAX_INT_DIGITS, MAX_PARSE_DEPTH, MAX_SOURCE_CHARS
from autodiff.grammar.syntax.parser import parse
from autodiff.grammar.syntax.shapes import formula_shape
from autodiff.grammar.syntax.tree import Program


def __getattr__(name: str) -> Any:
    """source_excerpt, from diagnostics.py: imported when first asked for (a program that parses imports none
    of the messages of mistakes)."""
    if name == "source_excerpt":
        from autodiff.grammar.syntax.diagnostics import source_excerpt

        return source_excerpt
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["ELEMENTWISE_FUNCTIONS", "MAX_BRACKET_DEPTH", "MAX_INT_DIGITS", "MAX_PARSE_DEPTH", "MAX_SOURCE_CHARS",
           "Program", "elementwise", "formula_shape", "is_number", "number_lanes", "parse",
           "source_excerpt"]
