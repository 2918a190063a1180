"""Reading the common command lines of `autodiff eval` and `autodiff check` without click.

Importing click is a tenth of a one-shot start-up (benchmarks/README: "The click-free start"). This reader
takes the command lines whose meaning is certain, the way click would read them (options anywhere among the
arguments, --opt=value, -fPATH, `--` ending the options, a PROGRAM that starts with a minus sign), with the
options of cli/quick_table.py (generated from the click declarations). It answers None, and click reads the
command line, for everything else: help, completion, --debug, an option it does not know or whose value it
cannot convert, an option whose value may be left out (eval --backward). So every message about a wrong
command line is still click's, and tests/cli/test_quick.py checks the two readers agree on what both read.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Any

from autodiff.cli.commandline import HELP_OPTIONS, SPELLINGS, is_program, run_configured, split_binding
from autodiff.cli.quick_table import DEFAULTS, OPTIONS

_CLICK_ONLY = frozenset((*HELP_OPTIONS, "--debug", "--version"))
_INTEGER = r"[+-]?[0-9]+"  # compiled when first used (re caches it): most command lines have no number option
_FLOAT = r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?"


class Decline(Exception):
    """The command line is left to click."""


class QuickCommand:
    """A command line read: the command's name and its parameters, as click would pass them."""

    def __init__(self, name: str, params: dict[str, Any]) -> None:
        self.name, self.params = name, params

    def run(self) -> int | None:
        """Run the command's body, as its click command does (inside the engine's configuration)."""
        for spelling, (name, *_) in OPTIONS[self.name].items():
            SPELLINGS.setdefault(name, set()).add(spelling)  # how messages name an option (cli.commandline.spelled)
        params = dict(self.params)
        head = (params.pop("program"), params.pop("assignments"), params.pop("file"))
        body = _body(self.name)
        dtype = False  # --dtype is an option of both commands
        return run_configured(lambda *args, **options: body(*args, options), dtype, head, params)


def _body(name: str) -> Callable[..., int | None]:
    if name == "eval":
        from autodiff.cli.eval_entry import eval_body

        return eval_body
    from autodiff.cli.check_run import check_body

    return check_body


def read(args: list[str]) -> QuickCommand | None:
    """The command line read, or None: click reads it."""
    if not args or args[0] not in OPTIONS or "_AUTODIFF_COMPLETE" in os.environ:
        return None
    if any(arg in _CLICK_ONLY for arg in args):
        return None
    try:
        return QuickCommand(args[0], parameters(args[0], args[1:]))
    except Decline:
        return None


def parameters(command: str, args: list[str]) -> dict[str, Any]:
    """The parameters of `command` (eval or check) for its arguments, as click's ctx.params; Decline when click
    must read them."""
    options = OPTIONS[command]
    leading = args[0] if args and is_program(args[0], {*options, *HELP_OPTIONS}) else None
    rest = args[1:] if leading is not None else list(args)
    given: dict[str, Any] = {}
    positional: list[str] = []
    i = 0
    while i < len(rest):
        token = rest[i]
        i += 1
        if token == "--":
            positional += rest[i:]
            break
        if not token.startswith("-") or token == "-":
            positional.append(token)
            continue
        spelling, value = _split_option(token, options)
        name, kind, multiple, type_ = options[spelling]
        if kind == "flag":
            if value is not None:
                raise Decline
            given[name] = True
            continue
        if kind != "value":
            raise Decline
        if value is None:
            if i == len(rest):
                raise Decline
            value, i = rest[i], i + 1
        converted = _convert(value, type_, spelling)
        if multiple:
            given.setdefault(name, []).append(converted)
        elif name in given and given[name] != converted:
            raise Decline  # given twice with two values: click says so (cli.options.ProgramCommand)
        else:
            given[name] = converted
    params = dict(DEFAULTS[command])
    params.update({name: tuple(v) if isinstance(v, list) else v for name, v in given.items()})
    params["program"] = positional[0] if positional else None
    params["assignments"] = tuple(positional[1:])
    if leading is not None:  # as cli.options.ProgramCommand: the first positional was a NAME=VALUE
        first = params["program"]
        params["assignments"] = ((first,) if first is not None else ()) + params["assignments"]
        params["program"] = leading
    return params


def _split_option(token: str, options: dict[str, tuple]) -> tuple[str, str | None]:
    """(spelling, value attached to it or None) of an option token, as click matches it: a long option (its
    value after '='), else a short one (its value the rest of the token)."""
    spelling, sep, value = token.partition("=")
    if spelling in options and len(spelling) > 2:
        return spelling, value if sep else None
    short = token[:2]
    if token[1] != "-" and short in options:
        return short, token[2:] or None
    raise Decline


def _convert(value: str, type_: tuple, spelling: str) -> Any:
    """A value converted as its click type would, when that certainly succeeds; else Decline."""
    kind = type_[0]
    if kind == "str":
        return value
    if kind == "binding":
        try:
            split_binding(value, spelling)
        except Exception:  # click reports it (in its order of the parameters)
            raise Decline from None
        return value
    if kind == "choice":
        if value not in type_[1]:
            raise Decline
        return value
    if kind == "float":
        if not re.fullmatch(_FLOAT, value):
            raise Decline
        return float(value)
    if not re.fullmatch(_INTEGER, value):
        raise Decline
    number, low, high = int(value), type_[1], type_[2]
    if (low is not None and number < low) or (high is not None and number > high):
        raise Decline
    return number
