"""The parser's automaton: the LALR(1) tables of tables.py decoded once into one dict of actions per state, and
what they say (is a token acceptable here?), for the driver (parser.py) and its error messages."""

from __future__ import annotations

from autodiff.grammar.syntax import tables


def _decode_table(row: str) -> dict[str, int]:
    """'NAME s6 RPAR r42' -> {'NAME': 6, 'RPAR': ~42}: a shift/goto is >= 0, a reduction is ~rule."""
    words = row.split()
    return {sym: int(act[1:]) if act[0] == "s" else ~int(act[1:]) for sym, act in zip(words[::2], words[1::2])}



class _Rows(dict):
    """The states' action tables, each decoded when the parser first reaches it (decoding all 300-odd at
    import cost every command's start-up a few milliseconds; a program visits a few dozen). A dict, so a
    decoded row is found at C speed."""

    def __missing__(self, state: int) -> dict[str, int]:
        row = self[state] = _decode_table(tables.STATES[state])
        return row


ACTIONS: dict[int, dict[str, int]] = _Rows()
START_STATE = tables.START_STATE
END_STATE = tables.END_STATE


def is_terminal(symbol: str) -> bool:
    return symbol == "$END" or symbol.lstrip("_")[:1].isupper()


def unit_reductions(under: int, top: int, kind: str, rules: list) -> int:
    """The state after every unit reduction that a `kind` lookahead triggers on top of `under`."""
    while True:
        action = ACTIONS[top].get(kind)
        if action is None or action >= 0 or rules[~action][1] is not None:
            return top
        top = ACTIONS[under][rules[~action][0]]


def accepts(states: list[int], kind: str) -> bool:
    """Would the parser, in this state, take a token of this kind? (Simulates the reductions.)"""
    stack = list(states)
    while True:
        action = ACTIONS[stack[-1]].get(kind)
        if action is None:
            return False
        if action >= 0:
            return True
        origin, _, spec = tables.RULES[~action]
        if spec:
            del stack[-len(spec) :]
        stack.append(ACTIONS[stack[-1]][origin])
        if kind == "$END" and stack[-1] == END_STATE:
            return True
