"""`parse(source) -> Program`: text of the autodiff language to a syntax tree (no evaluation).

The grammar is `autodiff.lark`; `generate.py` compiles it with lark into the LALR(1) tables of
`tables.py`, and this module drives them: `lexer.tokens` lexes and filters, `_run` shifts and
reduces, calling a `TreeBuilder` method per rule (builder.py) so the tree grows bottom-up. Nothing recurses over the
program, and nothing here imports lark or compiles the grammar: importing this module and parsing a
line costs about 6 ms (plus the `dataclasses` module, if nothing imported it before).


Every mistake raises `ParseError` (line, column and a caret excerpt) or `LimitError`; nothing else.
"""

from __future__ import annotations

from autodiff.engine.errors import LimitError, ParseError, UsageError
from autodiff.grammar.syntax.builder import TreeBuilder
from autodiff.grammar.syntax.lexer import (
    MAX_BRACKET_DEPTH,
    MAX_INT_DIGITS,
    MAX_PARSE_DEPTH,
    MAX_SOURCE_CHARS,
    SyntaxProblem,
    Token,
    tokens,
)
from autodiff.grammar.syntax.states import ACTIONS, END_STATE, START_STATE, unit_reductions
from autodiff.grammar.syntax.tree import Program

__all__ = ["MAX_BRACKET_DEPTH", "MAX_INT_DIGITS", "MAX_PARSE_DEPTH", "MAX_SOURCE_CHARS", "parse"]

# (state under, state on top, lookahead) -> state after its chain of unit reductions (e.g. a number
# followed by '+' climbs atom, primary, power, factor, term): one lookup instead of five steps.
_UNIT_CACHE: dict[tuple[int, int, str], int] = {}


def _run(tokens, builder: TreeBuilder, brackets: list[Token]) -> list:
    """Shift and reduce until '$END' completes the program; returns the `start` rule's value."""
    actions, rules, unit_cache = ACTIONS, builder.rules, _UNIT_CACHE
    states: list[int] = [START_STATE]
    values: list = []
    prev: Token | None = None
    for tok in tokens:
        kind = tok.type
        while True:
            action = actions[states[-1]].get(kind)
            if action is None:
                from autodiff.grammar.syntax.diagnostics import syntax_problem  # (a mistake's message)

                raise syntax_problem(tok, prev, states, brackets)
            if action >= 0:  # shift
                states.append(action)
                values.append(tok)
                if len(states) > MAX_PARSE_DEPTH:
                    raise SyntaxProblem(
                        f"the program is nested too deeply for the parser (limit {MAX_PARSE_DEPTH:,})",
                        tok.line,
                        tok.column,
                        limit=True,
                    )
                prev = tok
                break
            origin, build, size, keep = rules[~action]
            if build is None:  # rules like `?term: factor` pass their one child through: only the state changes
                key = (states[-2], states[-1], kind)
                top = unit_cache.get(key)
                if top is None:
                    top = unit_cache[key] = unit_reductions(states[-2], states[-1], kind, rules)
                states[-1] = top
                continue
            if size:
                args = values[-size:]
                del values[-size:]
                del states[-size:]
            else:
                args = []
            if keep is not None:  # drop punctuation, splice inlined rules
                children = args[0] if keep[0] is None else []  # reuse a left-recursive list: O(n), not O(n^2)
                for index, splice in keep[1:]:
                    if splice:
                        children.extend(args[index])
                    else:
                        children.append(args[index])
                args = children
            value = build(args)
            goto = actions[states[-1]][origin]
            states.append(goto)
            values.append(value)
            if kind == "$END" and goto == END_STATE:
                return value
    raise AssertionError("the token stream ends with $END")  # pragma: no cover



def parse(source: str) -> Program:
    """Parse a program of the autodiff language into a `Program` (see syntax.py); no evaluation.

    Raises ParseError (kind `syntax`, with line/column and a caret excerpt in the message) for any
    mistake, or LimitError (kind `limit`) for programs over MAX_SOURCE_CHARS, MAX_BRACKET_DEPTH,
    MAX_PARSE_DEPTH or MAX_INT_DIGITS.
    """
    if len(source) > MAX_SOURCE_CHARS:
        raise LimitError(f"the program has {len(source):,} characters; the limit is {MAX_SOURCE_CHARS:,}")
    text = source[1:] if source.startswith("\ufeff") else source  # a byte-order mark from an editor
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    brackets: list[Token] = []
    try:
        statements = _run(tokens(text, brackets), _BUILDER, brackets)
    except SyntaxProblem as problem:
        from autodiff.grammar.syntax.diagnostics import source_excerpt  # (a mistake's message)

        excerpt = source_excerpt(text, problem.line, problem.column)
        if problem.limit:
            raise LimitError(problem.message, line=problem.line, column=problem.column, excerpt=excerpt) from None
        if problem.python:  # Python's blocks, lambdas, f-strings: a program for `autodiff run`
            raise UsageError(problem.message, line=problem.line, column=problem.column, excerpt=excerpt,
                             reason="python_block") from None
        raise ParseError(
            f"{problem.message}\n{excerpt}",
            line=problem.line,
            column=problem.column,
            summary=problem.message,
            excerpt=excerpt,
        ) from None
    return Program(tuple(statements), text, line=1, column=1)


_BUILDER = TreeBuilder()
