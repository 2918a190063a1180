"""How the calculus commands (diff, check, table, plot, jacobian, hessian, critical, tangent, limit, newton,
gradient) read their program: in textbook notation too (autodiff.app.textbook.notation), with the names of --wrt and
of the bindings read the same way (θ=1 binds theta). `eval` and `run` never come here."""

from __future__ import annotations

import sys
from typing import Any

from autodiff.cli.commandline import read_program, split_binding


def read_math(program: str | None, file: str | None, assignments: tuple[str, ...], options: dict[str, Any], *,
              implicit: bool = False, show: bool = True, question: bool = False) -> tuple[Any, tuple[str, ...]]:
    """The program's Reading (see autodiff.app.textbook.notation) and the NAME=VALUE arguments; --wrt, --var and
    --const in `options` are rewritten in place. With `show`, "read as: ..." goes to stderr when the
    program was read from textbook notation (diff and check show it in their own output instead). With
    `question` (diff), `d/dx x^3` sets --wrt and --order; other commands refuse it."""
    from autodiff.app.textbook.notation import read

    text, assignments = read_program(program, file, assignments)
    text = text.rstrip()  # `echo 'x**3' | autodiff diff -`: the line's newline is not part of the formula
    if "\n" not in text:
        text = text.strip()
    shown: list[str] = []
    assignments = tuple(_binding(a, shown) for a in assignments)
    for key in ("variables", "constants"):
        if options.get(key):
            options[key] = tuple(_binding(a, shown) for a in options[key])
    wrt = options.get("wrt")
    if wrt:
        options["wrt"] = _names(wrt) if isinstance(wrt, str) else tuple(_names(w) for w in wrt)
    wrt = options.get("wrt") or ()
    bound = [a.split("=", 1)[0].strip() for a in (*assignments, *(options.get("variables") or ())) if "=" in a]
    declared = [*_split((wrt,) if isinstance(wrt, str) else wrt), *bound]
    reading = read(text, declared, implicit)
    if reading.derivative is not None:
        _question(reading.derivative, text, options, question)
    if reading.read_as is not None and reading.equation is None:
        _parses_as_read(reading.program, text)
    if show and reading.read_as is not None:
        sys.stderr.write(f"read as: {reading.read_as}\n")
    for binding in shown:  # a value the command will refuse is not shown as read: its error comes first
        split_binding(binding.replace(" = ", "=", 1), "NAME=VALUE")
    for binding in shown:  # sin π/2 is sin(pi)/2: a value read otherwise than spelt is shown too
        sys.stderr.write(f"read as: {binding}\n")
    return reading, assignments


def _question(derivative: tuple[str, int], text: str, options: dict[str, Any], allowed: bool) -> None:
    """`d/dx f` as --wrt x (and `d^2/dx^2 f` as --order 2), unless the options already say otherwise."""
    from autodiff.engine.errors import UsageError

    name, order = derivative
    asked = "d/d" + name if order == 1 else f"d^{order}/d{name}^{order}"
    if not allowed:
        raise UsageError(f"{asked} asks for a derivative: autodiff diff '{text}' answers it (this command takes the "
                         "function itself)")
    wrt = tuple(options.get("wrt") or ())
    if wrt and wrt != (name,):
        raise UsageError(f"the program asks {asked} but --wrt says {','.join(wrt)}: give one of them")
    if options.get("order", 1) not in (1, order):
        raise UsageError(f"the program asks {asked} but --order says {options['order']}: give one of them")
    options["wrt"], options["order"] = (name,), order


def _parses_as_read(program: str, text: str) -> None:
    """Parse the textbook reading of `text`; its mistake is shown in the user's own text (`|x` is read as
    `abs(x`, whose unclosed bracket is the '|' at column 1), not in the reading's."""
    from autodiff.app.session import parsed
    from autodiff.engine.errors import AutodiffError

    try:
        parsed(program)
    except AutodiffError as error:
        raise _in_users_text(error, program, text) from None


def _in_users_text(error: Any, program: str, text: str) -> Any:
    """The parse error of the one-line reading `program`, its columns moved to where they are in `text`."""
    import difflib
    import re

    from autodiff.grammar.syntax import source_excerpt

    if error.line != 1 or error.column is None or "\n" in program or "\n" in text or len(program) > 2_000:
        return error
    blocks = difflib.SequenceMatcher(None, program, text, autojunk=False).get_opcodes()

    def moved(column: int) -> int:
        i = column - 1
        for tag, i1, i2, j1, _ in blocks:
            if i1 <= i < i2:
                return j1 + (i - i1 if tag == "equal" else 0) + 1
        return len(text) + 1

    def reworded(match: re.Match) -> str:
        column = moved(int(match.group(2)))
        return f"{match.group(1)}{column}"

    column = moved(error.column)
    summary = str(error.details.get("summary") or error.message.split("\n", 1)[0])
    summary = re.sub(r"(line 1, column )(\d+)", reworded, summary)
    if 0 < column <= len(text) and text[column - 1] == "|":
        summary = summary.replace("'('", "'|'").replace("')'", "'|'")
    shown = source_excerpt(text, 1, column)
    error.message = f"{summary}\n{shown}"
    error.details["summary"] = summary
    if error.details.get("excerpt"):
        error.details["excerpt"] = shown
    error.column = column
    return error


def refuse_equation(reading: Any, command: str) -> None:
    """A command that takes a formula, given an equation: say what to do instead."""
    from autodiff.engine.errors import UsageError

    if reading.equation is not None:
        left, right = reading.equation
        raise UsageError(f"{left} = {right} is an equation; {command} takes a formula (write one side, or "
                         f"differentiate the equation implicitly: autodiff diff '{left} = {right}' --implicit y)")


def _names(text: str) -> str:
    from autodiff.app.textbook.notation import name

    return ",".join(name(part.strip()) for part in text.split(","))


def _split(wrt: tuple[str, ...]) -> list[str]:
    return [part for w in wrt for part in w.split(",") if part]


def _binding(text: str, shown: list[str]) -> str:
    """NAME=VALUE with NAME's Greek letters spelt out and VALUE read in textbook notation (x=π/4, and each end
    and step of an interval, x=0:3π); a VALUE read as more than its letters spelt out is added to `shown`."""
    from autodiff.app.textbook.notation import name, read

    if "=" not in text:
        return text
    left, value = text.split("=", 1)
    left = name(left.strip())
    if value.strip().startswith("@"):
        return f"{left}={value}"
    parts = [read(part).program if part.strip() else part for part in value.split(":")]
    read_value = ":".join(parts)
    if _bare(read_value) != _bare(name(value).replace("²", "**2")):  # more than a '*' put in (2π is 2*pi)
        shown.append(f"{left} = {read_value}")
    return f"{left}={read_value}"


def _bare(text: str) -> str:
    return text.replace(" ", "").replace("*", "")


def read_formula(program: str | None, file: str | None, assignments: tuple[str, ...], options: dict[str, Any],
                 command: str) -> tuple[str, tuple[str, ...]]:
    """The program of a command that takes a formula (not an equation), in the language, and the bindings."""
    reading, assignments = read_math(program, file, assignments, options)
    refuse_equation(reading, command)
    return reading.program, assignments
