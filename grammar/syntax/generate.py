"""Regenerate `tables.py` from `autodiff.lark`: run `python grammar/syntax/generate.py`.

lark compiles the grammar into an LALR(1) table here, at development time; the generated module holds
that table and the lexer's terminals as plain Python data, which `parser.py` drives with a small loop.
So a program's first parse costs no grammar compilation, no import of lark and no pickle.
`--check` exits 1 when the generated module is out of date.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
GRAMMAR_PATH = HERE.parent / "autodiff.lark"
OUTPUT_PATH = HERE / "tables.py"


def grammar_sha256(grammar_text: str) -> str:
    """The fingerprint that ties the generated module to the grammar text it came from."""
    return hashlib.sha256(grammar_text.replace("\r\n", "\n").encode("utf-8")).hexdigest()


LARK_VERSIONS = ((1, 1, 9), (2, 0, 0))  # the range the generated tables were checked with (pyproject's dev extra)


def _check_lark_version(version: str) -> None:
    """Refuse a lark outside LARK_VERSIONS: its tables (state numbering, terminal order) could differ."""
    parts = tuple(int(p) for p in version.split(".")[:3] if p.isdigit())
    low, high = LARK_VERSIONS
    if not low <= parts < high:
        raise SystemExit(f"grammar/syntax/generate.py needs lark >= {'.'.join(map(str, low))}, "
                         f"< {'.'.join(map(str, high))}; "
                         f"this is lark {version}: pip install '.[dev]'")


def _compile(grammar_text: str):  # -> lark.Lark
    import logging

    import lark
    from lark import Lark, logger

    _check_lark_version(lark.__version__)

    # lark resolves shift/reduce conflicts silently (its strict mode needs the `interegular` package):
    # catch its debug log so a conflict fails the generation instead.
    conflicts: list[str] = []

    class _Catch(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            conflicts.append(record.getMessage())

    handler, level = _Catch(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        parser = Lark(grammar_text, parser="lalr", lexer="basic", maybe_placeholders=False)
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    bad = [m for m in conflicts if "conflict" in m.lower()]
    if bad:
        raise SystemExit("grammar is not LALR(1):\n  " + "\n  ".join(bad))
    return parser


def _keywords_and_terminals(lexer: object) -> tuple[dict[str, str], list]:
    """The keywords (a NAME spelled like one is that keyword) and the other terminals, in lark's order."""
    from lark.lexer import UnlessCallback

    lexer._build_scanner()  # sorts the terminals and finds the keywords, as lark's own lexer does
    keywords: dict[str, str] = {}
    for callback in lexer.callback.values():
        if isinstance(callback, UnlessCallback):
            for scanner_terminal in callback.scanner.terminals:
                keywords[scanner_terminal.pattern.value] = scanner_terminal.name
    terminals = [t for t in lexer.terminals if t.name not in keywords.values()]
    return keywords, terminals


def _rule_rows(rules: list) -> list[tuple[str, str, str]]:
    """Each rule in lark's (grammar) order: its nonterminal, how it builds its value, and its children."""
    rows = []
    for rule in rules:
        origin = str(rule.origin.name)
        spec = ""
        for sym in rule.expansion:
            if sym.is_term:
                spec += "d" if sym.filter_out else "k"
            else:
                spec += "s" if sym.name.startswith("_") else "k"
        if origin.startswith("_"):
            action = "_"
        elif rule.options.expand1 and not rule.alias:
            if spec.count("k") != 1 or "s" in spec:
                raise SystemExit(f"rule {rule} must keep exactly one child or have an alias")
            action = ""
        else:
            action = str(rule.alias or origin)
        rows.append((origin, action, spec))
    return rows


def _state_rows(table: object, rule_index: dict[int, int]) -> tuple[list[str], int]:
    """The states renumbered breadth-first from the start state (so the output does not depend on set order),
    each as 'symbol action ...'; and the number of the end state."""
    start, end = table.start_states["start"], table.end_states["start"]
    order, seen = [start], {start}
    for state in order:
        for _sym, (action, arg) in sorted(table.states[state].items()):
            if action.name == "Shift" and arg not in seen:
                seen.add(arg)
                order.append(arg)
    number = {state: i for i, state in enumerate(order)}
    rows = []
    for state in order:
        entries = []
        for sym, (action, arg) in sorted(table.states[state].items()):
            shift = action.name == "Shift"
            entries.append(f"{sym} {'s' if shift else 'r'}{number[arg] if shift else rule_index[id(arg)]}")
        rows.append(" ".join(entries))
    return rows, number[end]


def render(grammar_text: str) -> str:
    """The text of `tables.py` for this grammar (deterministic)."""
    import lark

    parser = _compile(grammar_text)
    lexer = parser.parser.lexer
    keywords, terminals = _keywords_and_terminals(lexer)
    rules = list(parser.rules)
    rule_rows = _rule_rows(rules)
    state_rows, end_state = _state_rows(parser.parser.parser.parser.parse_table,
                                        {id(rule): i for i, rule in enumerate(rules)})
    lines = [
        "# Generated by grammar/syntax/generate.py from grammar/autodiff.lark: do not edit, run that script.",
        "# ruff: noqa",
        "# fmt: off",
        '"""LALR(1) tables of the autodiff language as plain data, read by parser.py."""',
        "",
        f"GRAMMAR_SHA256 = {grammar_sha256(grammar_text)!r}",
        f"LARK_VERSION = {lark.__version__!r}",
        "",
        "# Lexer: at each position the first terminal whose regular expression matches wins.",
        "TERMINALS = (",
        *(f"    ({t.name!r}, {t.pattern.to_regexp()!r})," for t in terminals),
        ")",
        f"IGNORE = {tuple(sorted(lexer.ignore_types))!r}",
        "# A NAME spelled like a keyword is that keyword.",
        f"KEYWORDS = {dict(sorted(keywords.items()))!r}",
        "",
        "# RULES[i] = (nonterminal, action, children). action: a builder.TreeBuilder method to call, '' to pass",
        "# the one kept child through, '_' to splice the children into the parent. children has a letter",
        "# per symbol: k(eep), d(rop: punctuation) or s(plice: an inlined rule's children).",
        "RULES = (",
        *(f"    {row!r}," for row in rule_rows),
        ")",
        "",
        "# STATES[i] = 'symbol action ...': sN shifts a terminal (or goes, after a reduction) to state N,",
        "# rN reduces by RULES[N]. Parsing ends when '$END' has reduced the program into END_STATE.",
        "START_STATE = 0",
        f"END_STATE = {end_state}",
        "STATES = (",
        *(f"    {row!r}," for row in state_rows),
        ")",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    text = render(GRAMMAR_PATH.read_text(encoding="utf-8"))
    current = OUTPUT_PATH.read_text(encoding="utf-8") if OUTPUT_PATH.exists() else None
    if "--check" in argv:
        if current != text:
            print(f"{OUTPUT_PATH.name} is out of date: run python grammar/syntax/generate.py", file=sys.stderr)
            return 1
        return 0
    if current != text:
        OUTPUT_PATH.write_text(text, encoding="utf-8")
        print(f"wrote {OUTPUT_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
