"""What every command shares besides its option declarations (cli/options.py): the command line being run and how
it spells each option, reading the program, NAME=VALUE bindings, the output format, and running a command inside
its engine configuration."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import Any

# Patterns are compiled when first used (re caches them): most commands never need them, and each costs start-up
_COMMA_NUMBERS = r"^-?[0-9.]+(\s*,\s*-?[0-9.]+)+$"  # x=1,5


_BINDING_SHAPED = r"^[A-Za-z_][A-Za-z0-9_]*=(-?[0-9.]+([eE]-?[0-9]+)?|\[[^=]*\])$"  # x=2, w=[1, 2]


HELP_OPTIONS = ("-h", "--help")


def is_program(token: str, options: set[str] | dict[str, object]) -> bool:
    """Whether a command's first argument is its PROGRAM although it starts with a minus sign (`-x**2 + 3*x`):
    it is not one of the command's `options` (spellings, the help's included), with or without a value
    attached (--format=json, -fPATH). A word after two dashes (`--frmat`, a misspelt option) is an option, never
    a program: click says it does not know it."""
    if not token.startswith("-") or token in ("-", "--"):
        return False
    if token.startswith("--") and token[2:3].isalpha() and all(c.isalnum() or c == "-" for c in
                                                               token.split("=", 1)[0][2:]):
        return False
    return token.split("=", 1)[0] not in options and not (len(token) > 2 and token[:2] in options)


# Errors from the application name a setting by its parameter's name ({order}); cli/errors.py words it as its
# option (flag_of: --order). A parameter's flag is --its-name, unless listed here (cli/options.py's `option`
# refuses a declaration this table would word wrong).
FLAGS: dict[str, str] = {"variables": "--var", "constants": "--const", "output_format": "--format",
                         "expectations": "--expect", "target": "--to"}


def flag_of(name: str) -> str:
    """The option that sets the parameter `name`."""
    return FLAGS.get(name) or "--" + name.replace("_", "-")


# The spellings of each parameter's option (--iterations, --steps) and the command line being run: a message
# names an option as the user typed it (`newton --steps 0` is about --steps, not --iterations).
SPELLINGS: dict[str, set[str]] = {}


COMMAND_LINE: list[str] = []


def remember_command_line(args: list[str]) -> None:
    """The arguments of the command being run (main calls this first)."""
    COMMAND_LINE[:] = list(args)


def spelled(name: str, opts: tuple[str, ...] | list[str] = ()) -> str:
    """The option that sets `name` as the command line spells it (-f or --file, --steps or --iterations): the
    last of its spellings typed before any `--`, else its own flag (flag_of). `opts`: the spellings, when the
    parameter is at hand."""
    spellings = {o for o in (*opts, *SPELLINGS.get(name, ())) if o.startswith("-")}
    typed = COMMAND_LINE[:COMMAND_LINE.index("--")] if "--" in COMMAND_LINE else COMMAND_LINE
    for token in reversed(typed):
        flag = token.split("=", 1)[0]
        if flag in spellings:
            return flag
    return flag_of(name)


def backward_names(values: tuple[str, ...], assignments: tuple[str, ...]) -> tuple[list[str], tuple[str, ...]]:
    """The --backward names ('' for the root) and the NAME=VALUE arguments: `--backward x=2` is a bare
    --backward followed by the binding x=2 (click takes the next word as the option's value)."""
    names: list[str] = []
    for value in values:
        if "=" in value:
            assignments = (*assignments, value)
            value = ""
        names.append(value)
    return names, assignments


def batch_program(program: str | None, file: str | None, batch: str | None) -> str | None:
    """The program of a --batch run: PROGRAM, '-' or --file as without --batch, or None (each line gives its
    own); PROGRAM '-' and --batch - cannot both read standard input."""
    from autodiff.engine.errors import UsageError

    if batch == "-" and (program == "-" or file == "-"):
        raise UsageError("the program and --batch cannot both read standard input: give the program as an "
                         "argument or with --file, or in each line as \"program\"")
    if program is None and file is None:
        return None
    return program_text(program, file)


def output_format(choice: str | None) -> str:
    """The chosen format, or pretty on a terminal (or with FORCE_COLOR or --color always) and plain when piped."""
    if choice:
        return choice
    import os

    forced = COLOR[0] == "always" or (COLOR[0] != "never" and os.environ.get("FORCE_COLOR"))
    return "pretty" if sys.stdout.isatty() or forced else "plain"


def read_program(program: str | None, file: str | None, assignments: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """The program text and the NAME=VALUE arguments (with --file, PROGRAM is one of them)."""
    if file is not None and program is not None:
        assignments = (program, *assignments)
        program = None
    return program_text(program, file), assignments


def program_text(program: str | None, file: str | None) -> str:
    """PROGRAM itself, standard input for '-', or the file's text."""
    from autodiff.engine.errors import UsageError

    if file == "-":
        return read_stdin(f"the program on standard input ({spelled('file')} -)")
    if file is not None:
        return read_file(file, f"{spelled('file')} {file}")
    if program is None:
        raise UsageError("no PROGRAM given: pass it as the first argument, '-' for standard input, or --file PATH")
    if program == "-":
        return read_stdin("the program on standard input")
    # `echo 'x**3' | autodiff eval x=2`: x=2 took PROGRAM's place
    if "=" in program and re.match(_BINDING_SHAPED, program.strip()):
        raise UsageError(f"{program!r} looks like a binding, but it is where the PROGRAM goes: give the program "
                         "first (autodiff eval 'x**3' x=2), or '-' to read it from standard input "
                         "(echo 'x**3' | autodiff eval - x=2)")
    return program


def read_file(path: str, what: str, it: str = "it") -> str:
    """A program's or script's text from a file (see read_source)."""
    from autodiff.engine.errors import InputError

    try:
        with open(path, "rb") as f:
            return read_source(f, what)
    except OSError as error:
        raise InputError(f"{what}: cannot read {it} ({error.strerror or error})") from None
    except ValueError:  # a NUL character in the path
        raise InputError(f"{what}: cannot read {it} (the path contains a NUL character)") from None


def read_stdin(what: str) -> str:
    """A program's or script's text from standard input (see read_source)."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:  # already text (a test harness's stream)
        return sys.stdin.read()
    return read_source(stream, what)


def read_file_bytes(path: str, what: str) -> bytes:
    """A script's bytes, as Python reads a file it runs (its encoding is the script's: PEP 263)."""
    from autodiff.engine.errors import InputError

    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as error:
        raise InputError(f"{what}: cannot read {path} ({error.strerror or error})") from None
    except ValueError:  # a NUL character in the path
        raise InputError(f"{what}: cannot read it (the path contains a NUL character)") from None


def read_stdin_bytes(what: str) -> bytes:
    """A script's bytes from standard input."""
    stream = getattr(sys.stdin, "buffer", None)
    return sys.stdin.read().encode("utf-8") if stream is None else stream.read()


def read_source(stream: Any, what: str) -> str:
    """Text from a binary stream, decoded here as UTF-8 whatever the locale (Python's own decoding of stdin
    depends on it). No more is read than the parser accepts: a 10 GB file or an endless pipe is refused,
    not loaded."""
    from autodiff.engine.errors import InputError, LimitError
    from autodiff.grammar.syntax import MAX_SOURCE_CHARS

    most = 4 * MAX_SOURCE_CHARS  # UTF-8 takes at most 4 bytes a character
    data = stream.read(most + 1)
    if len(data) > most:
        raise LimitError(f"{what}: the text is over the limit of {MAX_SOURCE_CHARS:,} characters", reason="source")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"{what}: not UTF-8 text (byte {error.start + 1} is 0x{data[error.start]:02x})") from None


def split_binding(text: str, option: str) -> tuple[str, str]:
    """NAME=VALUE as (NAME, VALUE), checked."""
    from autodiff.engine.errors import UsageError

    name, sep, value = text.partition("=")
    name = name.strip()
    if not sep or not name or not value.strip():
        raise UsageError(f"{option} {text!r}: expected NAME=VALUE, e.g. x=1.5 or 'x=[1, 2]'")
    from autodiff.app.names import name_problem

    problem = name_problem(name)
    if problem:
        raise UsageError(f"{option} {text!r}: {problem}")
    value = value.strip()
    if "," in value and re.match(_COMMA_NUMBERS, value):
        raise UsageError(f"{option} {text!r}: a list needs brackets and a decimal needs a point",
                         hint=f"write '{name}=[{value.replace(',', ', ')}]' for a list, or {name}="
                              f"{value.replace(',', '.', 1)} for a decimal number")
    return name, value


def binding_value(name: str, text: str, max_elements: int | None) -> Any:
    """A VALUE: `@PATH` to a .npy/.json/.csv file, or a constant expression of the language."""
    if text.startswith("@"):
        from autodiff.cli.inputs import load_array

        return load_array(text[1:], max_elements)
    from autodiff.app.session import constant

    return constant(text, f"the value of {name}")


def binding_texts(assignments: tuple[str, ...], variables: tuple[str, ...],
                  constants: tuple[str, ...]) -> list[tuple[str, str, str, bool]]:
    """(name, value text, option, requires_grad) for bare NAME=VALUE, --var and --const, in that order; a
    name bound twice is a usage error (which value was meant?)."""
    from autodiff.engine.errors import UsageError

    out = []
    seen: dict[str, str] = {}
    for text, option, requires_grad in ([(a, "NAME=VALUE", True) for a in assignments]
                                        + [(v, "--var", True) for v in variables]
                                        + [(c, "--const", False) for c in constants]):
        name, value = split_binding(text, option)
        label = repr(text) if option == "NAME=VALUE" else f"{option} {text!r}"
        if name in seen:
            raise UsageError(f"{name} is bound twice ({seen[name]} and {label}): bind each name once")
        seen[name] = label
        out.append((name, value, option, requires_grad))
    return out


def bindings_from(assignments: tuple[str, ...], variables: tuple[str, ...], constants: tuple[str, ...],
                  max_elements: int) -> list[Any]:
    """--var, bare NAME=VALUE and --const as evaluated bindings, in the order given (a later one wins)."""
    from autodiff.app.session import Binding

    return [Binding(name, binding_value(name, value, max_elements), requires_grad)
            for name, value, _, requires_grad in binding_texts(assignments, variables, constants)]


def echo(text: str) -> None:
    """A line on standard output, flushed (what click.echo does with a str)."""
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def run_configured(body: Callable[..., Any], dtype: bool | str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Run a command's body inside its engine configuration: --dtype (or the command's fixed dtype), --seed and
    --max-elements become one frozen `config` (app.config.Config), passed to the body and applied while it runs
    (the engine's settings are restored after it); the process's memory cap is set first."""
    from autodiff.cli import memory

    seed, max_elements = kwargs.pop("seed"), kwargs.pop("max_elements")
    COLOR[0] = kwargs.pop("color", None)  # --color, for cli.text.colour and output_format while the body runs
    memory.prepare()  # numpy imported and the process's memory cap set, now that the command computes
    from autodiff.app.config import Config

    chosen = dtype if isinstance(dtype, str) else kwargs.get("dtype") or "float32"
    config = Config(chosen, seed, max_elements)
    try:
        with config.applied():
            return body(*args, config=config, **kwargs)
    finally:
        COLOR[0] = None


# --color of the command being run (None or "auto": the environment decides, cli.text.colour)
COLOR: list[str | None] = [None]
