"""The commands' click declarations: the context settings, the options every command shares (each declared
once, by `option`), and the parameter types. What needs no click (reading the program, bindings, running inside
the engine's configuration) is cli/commandline.py. Imports click only at the top, so that `autodiff --help` stays
cheap."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import click

from autodiff.cli.commandline import (
    HELP_OPTIONS,
    SPELLINGS,
    flag_of,
    is_program,
    run_configured,
    spelled,
    split_binding,
)

SETTINGS: dict[str, Any] = {"help_option_names": list(HELP_OPTIONS), "max_content_width": 100}


def settings() -> dict[str, Any]:
    """A fresh copy of the click context settings (click mutates nothing, but commands may extend it)."""
    return dict(SETTINGS)


# ---------------------------------------------------------------------------- commands that take a program
class ProgramCommand(click.Command):
    """A command whose first argument is a PROGRAM: one that starts with a minus sign (`-x**2 + 3*x`) is
    the program, not an option (click would otherwise report "no such option")."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        self._given_once(ctx, args[1:] if args and self._is_program(args[0]) else args)
        if args and self._is_program(args[0]):
            program, rest = args[0], args[1:]
            remaining = super().parse_args(ctx, rest)
            first = ctx.params.get("program")  # the positional click took for PROGRAM is a NAME=VALUE
            ctx.params["assignments"] = ((first,) if first is not None else ()) + tuple(
                ctx.params.get("assignments") or ())
            ctx.params["program"] = program
            return remaining
        return super().parse_args(ctx, args)

    def _given_once(self, ctx: click.Context, args: list[str]) -> None:
        """An option that takes one value, given twice with two values (--order 2 --order 3), is a usage error:
        click would keep the last one silently."""
        takes: dict[str, click.Option] = {}
        for param in self.params:
            if isinstance(param, click.Option) and not param.is_flag and not param.count:
                takes.update(dict.fromkeys(param.opts, param))
        seen: dict[str, tuple[str, str]] = {}
        i = 0
        while i < len(args):
            token, i = args[i], i + 1
            if token == "--":
                return
            spelling, _, attached = token.partition("=")
            param = takes.get(spelling) if token.startswith("--") else takes.get(token[:2])
            if param is None:
                continue
            if token.startswith("--") and "=" in token:
                value = attached
            elif not token.startswith("--") and len(token) > 2:
                value = token[2:]
            elif i < len(args) and not (param.is_bool_flag or getattr(param, "_flag_needs_value", False)):
                value, i = args[i], i + 1
            else:
                continue
            if param.multiple or param.name is None:
                continue
            if param.name in seen and seen[param.name][1] != value:
                before = seen[param.name][1]
                raise click.UsageError(f"{spelling if spelling in param.opts else token[:2]} is given twice ({before}, "
                                       f"then {value}): give it once", ctx)
            seen[param.name] = (spelling, value)

    def _is_program(self, token: str) -> bool:
        options = {opt for param in self.params for opt in (*getattr(param, "opts", ()),
                                                            *getattr(param, "secondary_opts", ()))}
        options.update(self.context_settings.get("help_option_names", ()))
        return is_program(token, options)


# ---------------------------------------------------------------------------- option declarations
# Every option of every command is declared once, by one call of `option` (a flag in one place only:
# tests/test_layering.py checks); options several commands share are the functions below, each taking
# what differs between commands as arguments.


class Option(click.Option):
    """An option that may keep an old spelling working without showing it (`old`: newton --steps is now
    --iterations; the help lists only the new one)."""

    def __init__(self, *args: Any, old: tuple[str, ...] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.old = old
        if self.name:
            SPELLINGS.setdefault(self.name, set()).update(o for o in self.opts if o.startswith("-"))

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        shown = self.opts
        self.opts = [o for o in shown if o not in self.old]
        try:
            return super().get_help_record(ctx)
        finally:
            self.opts = shown


def option(*declarations: str, old: tuple[str, ...] = (), **attributes: Any) -> Callable:
    """click.option (the one place that calls it), for a flag that FLAGS words right; `old`: former spellings
    that still work, not shown in the help."""
    flag = next(d for d in declarations if d.startswith("--"))
    name = next((d for d in declarations if not d.startswith("-")), flag[2:].replace("-", "_"))
    if flag_of(name) != flag:
        raise ValueError(f"option {flag} sets {name!r}: add it to FLAGS")
    return click.option(*declarations, *old, cls=Option, old=old, **attributes)


def _decorate(fn: Callable, decorators: list[Callable]) -> Callable:
    for decorator in reversed(decorators):
        fn = decorator(fn)
    return fn


class BindingText(click.ParamType):
    """NAME=VALUE, checked (the VALUE stays text: each command evaluates it as it needs)."""

    name = "NAME=VALUE"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        label = next((o for o in getattr(param, "opts", ()) if o.startswith("--")), "NAME=VALUE")
        split_binding(value, label)
        return value


class Positive(click.ParamType):
    """A whole number of at least `low`, refused with the option's name (a usage error)."""

    name = "N"

    def __init__(self, low: int = 1, words: str = "positive") -> None:
        self.low, self.words = low, words

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        number = value if isinstance(value, int) else click.INT.convert(value, param, ctx)
        if number < self.low:
            from autodiff.engine.errors import UsageError

            name = getattr(param, "name", None)
            flag = spelled(name, getattr(param, "opts", ())) if name else "the value"
            raise UsageError(f"{flag} must be {self.words}, got {number}")
        return number


BINDING = BindingText()


def program_options(fn: Callable) -> Callable:
    """PROGRAM, NAME=VALUE arguments, -f/--file, --var and --const."""
    return _decorate(fn, [
        click.argument("program", required=False),
        click.argument("assignments", nargs=-1),
        option("-f", "--file", "file", metavar="PATH", help="Read the program from a file ('-': standard input)."),
        option("--var", "variables", multiple=True, metavar="NAME=VALUE", type=BINDING,
               help="Bind a leaf tensor that requires grad (VALUE: 3, [1, 2], randn(2, 2), @data.npy)."),
        option("--const", "constants", multiple=True, metavar="NAME=VALUE", type=BINDING,
               help="Bind a tensor that needs no grad."),
    ])


# The one principle of --dtype: the commands that mirror PyTorch (eval, run, repl, graph, jacobian, hessian: what
# torch and torch.autograd.functional compute) follow PyTorch's default, float32; the calculus commands (check,
# table, plot; and diff, critical, tangent, limit, newton, gradient, gradcheck, which always compute in float64)
# compute in float64. tests/cli/test_options_consistent.py checks every command against these lists.
PYTORCH_COMMANDS = ("eval", "run", "repl", "graph", "jacobian", "hessian")
CALCULUS_COMMANDS = ("check", "table", "plot", "diff", "critical", "tangent", "limit", "newton", "gradient",
                     "gradcheck")
DTYPE_HELP = ("The floating-point precision: the commands that mirror PyTorch default to PyTorch's float32, the "
              "calculus commands to float64.")


def dtype_option(default: str) -> Callable:
    """--dtype float32|float64, its default by the principle above."""
    return option("--dtype", type=click.Choice(["float32", "float64"]), default=default, show_default=True,
                  help=DTYPE_HELP)


def engine_options(dtype: bool | str = True, max_elements: int | None = 50_000_000) -> Callable[[Callable], Callable]:
    """--seed, --max-elements and --dtype (dtype=True; a dtype name: that dtype, no option; False: the command
    declares its own --dtype), --max-elements's default (None: no limit, for the commands that run the user's own
    Python, as PyTorch has none). The command receives them as one frozen `config` (app.config.Config) and runs
    inside it: the engine's settings are the command's, restored after it."""
    options = [
        option("--seed", type=Positive(0, "a non-negative integer"),
               help="Seed for the random numbers (PyTorch's generator: torch.manual_seed)."),
        option("--max-elements", type=Positive(), default=max_elements, show_default=max_elements is not None,
               help="Refuse tensors with more elements." if max_elements is not None else
               "Refuse tensors with more elements (default: no limit, as in PyTorch)."),
        option("--color", type=click.Choice(["auto", "always", "never"]), default=None,
               help="Colour: auto (default: on a terminal, as NO_COLOR, FORCE_COLOR and TERM=dumb say), always "
                    "(and pretty output when piped), never."),
    ]
    if dtype is True:
        options.insert(0, dtype_option("float32"))

    def decorate(fn: Callable) -> Callable:
        @functools.wraps(fn)
        def configured(*args: Any, **kwargs: Any) -> Any:
            return run_configured(fn, dtype, args, kwargs)

        return _decorate(configured, options)

    return decorate


FORMAT_HELP = "Output format (default: pretty on a terminal, plain when piped)."


def format_option(*extra: str, json: bool = True) -> Callable:
    """--format pretty|plain|json, and the command's own formats (the same help everywhere; the choices list
    what each command writes)."""
    choices = ["pretty", "plain", *(["json"] if json else []), *extra]
    return option("--format", "output_format", type=click.Choice(choices), help=FORMAT_HELP)


class Whole(click.ParamType):
    """A whole number in [low, high] (high None: no upper bound), refused with the option's name (a usage error)."""

    name = "N"

    def __init__(self, low: int = 1, high: int | None = None) -> None:
        self.low, self.high = low, high

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        number = value if isinstance(value, int) else click.INT.convert(value, param, ctx)
        if number < self.low or (self.high is not None and number > self.high):
            from autodiff.engine.errors import UsageError

            flag = next((o for o in getattr(param, "opts", ()) if o.startswith("--")), "the value")
            words = f"at least {self.low}" if self.high is None else f"between {self.low} and {self.high}"
            raise UsageError(f"{flag} must be {words}, got {number}")
        return number


def order_option(help: str, high: int | None = None) -> Callable:
    """--order N: which derivative (or up to which one); the help says which, as it differs between commands."""
    return option("--order", type=Whole(1, high), default=1, show_default=True, help=help)


WRT_HELP = "Differentiate with respect to NAME (default: every variable; a bound name left out is a constant)."


def wrt_option(extra: str = "", multiple: bool = True, metavar: str = "NAME") -> Callable:
    """--wrt NAME: the variables of the derivative (repeatable, or one: eval's --order, newton); every command's
    help starts with WRT_HELP, `extra` adds what is the command's own (diff: x,y for a mixed derivative)."""
    words = " ".join(w for w in (WRT_HELP, "Repeatable." if multiple else "One NAME.", extra) if w)
    return option("--wrt", "wrt", multiple=multiple, metavar=metavar, help=words)


def tolerance_options(rtol: float | str, atol: float | str) -> Callable:
    """--rtol and --atol: a comparison passes when |got - expected| <= atol + rtol * |expected| (torch.allclose);
    each default a number, or the words for one that depends on --dtype (None to the command)."""
    def one(flag: str, default: float | str, help: str) -> Callable:
        fixed = not isinstance(default, str)
        return option(flag, type=float, default=default if fixed else None, show_default=default, help=help)

    return lambda fn: _decorate(fn, [
        one("--rtol", rtol, "Relative tolerance: passes when |got - expected| <= atol + rtol * |expected|."),
        one("--atol", atol, "Absolute tolerance: passes when |got - expected| <= atol + rtol * |expected|."),
    ])


def backward_option() -> Callable:
    """--backward [NAME]: run backward from the named tensor (repeatable, in order); --backward alone: from the
    root (eval runs it from the root anyway; graph runs none without it)."""
    return option("--backward", "backward", multiple=True, is_flag=False, flag_value="", metavar="[NAME]",
                  help="Run backward from the tensor NAME (repeatable, in order; --backward alone: from the root).")


def grad_tensor_option() -> Callable:
    """--grad-tensor VALUE (also --gradient)."""
    return option("--grad-tensor", "--gradient", "grad_tensor", metavar="VALUE",
                  help="The gradient argument of backward (for a non-scalar output).")


def retain_graph_option() -> Callable:
    return option("--retain-graph", is_flag=True, help="Keep the graph's saved values so backward can run again.")


def steps_option() -> Callable:
    """--steps: the derivation shown (diff): `--steps` alone the textbook's rules, `--steps backward` the backward
    pass. (newton's number of steps is --iterations, where --steps still works.)"""
    return option("--steps", is_flag=False, flag_value="rules", metavar="[backward]",
                  help="Show the derivation: by the textbook's rules, outside in (--steps), or as the backward pass "
                       "computes it, node by node (--steps backward).")


def iterations_option(default: int) -> Callable:
    """--iterations N (formerly --steps N): N iterations of a method, as an exercise asks (the command's own
    limit, `default`, when not given)."""
    return option("--iterations", old=("--steps",), type=Positive(), default=None,
                  help=f"Do this many iterations, as an exercise asks (exit 0 when they are done; without it, at "
                       f"most {default}, until converged).")


def watch_options(fn: Callable) -> Callable:
    """--detect-anomaly, --trace and --explain: how a program's backward passes are watched (eval, run)."""
    return _decorate(fn, [
        option("--detect-anomaly", is_flag=True, help="Stop at the first backward node that returns nan, naming it and "
               "where it was recorded."),
        option("--trace", is_flag=True, help="Show the backward graph (a script's: after each backward pass, on "
               "stderr)."),
        option("--explain", is_flag=True, help="Replay the backward pass step by step (a script's: each pass, on "
               "stderr)."),
    ])


def batch_options(what: str) -> Callable:
    """--batch FILE and --max-line-bytes: one JSON document per input line (`what` the command does per line)."""
    return lambda fn: _decorate(fn, [
        option("--batch", metavar="FILE", help=f"{what} once per JSON line of FILE ('-': standard input): bindings, "
               "and optionally the line's own \"program\" and settings; one JSON answer per line."),
        option("--max-line-bytes", metavar="BYTES", default="32M", show_default=True,
               help="With --batch: a longer line gets a limit error, unread (BYTES: 1000000, 64M, 1G)."),
        option("--jobs", metavar="N", type=Whole(0), default=1, show_default=True,
               help="With --batch: answer the lines in N worker processes (0: one per core); the answers come in "
                    "input order, exactly as with 1."),
    ])


def exact_option() -> Callable:
    """--no-exact: the calculus commands' decimals without SymPy's exact forms."""
    return option("--no-exact", is_flag=True, help="Numbers only: skip SymPy's exact forms.")


def inverse_option() -> Callable:
    """--inverse B: diff's (f^-1)'(B)."""
    return option("--inverse", metavar="B", help="The derivative of the inverse function at B: (f^-1)'(B) = 1/f'(a) "
                  "where f(a) = B (a found on [-10, 10], where f must be one-to-one).")


def values_option() -> Callable:
    """--values: limit's table of the values approaching the point."""
    return option("--values", is_flag=True, help="Also the values approaching the point (f at a +- h, h = 0.1, "
                  "0.01, ...), and what they say about rounding error.")


def antiderivative_option() -> Callable:
    """--antiderivative F: check's other question, is F' the program?"""
    return option("--antiderivative", metavar="F", help="Your antiderivative of the program, instead of --expect: "
                  "checks that F' is the program (a trailing '+ C' is fine).")


def constraint_option() -> Callable:
    """--constraint: critical's Lagrange multipliers (g = c) or closed region (g <= c)."""
    return option("--constraint", metavar="'G = C' | 'G <= C'", help="Extrema subject to a constraint: on the curve "
                  "G = C (Lagrange multipliers), or on the region G <= C (the critical points inside too).")


def normal_option() -> Callable:
    """--normal: tangent's normal line too."""
    return option("--normal", is_flag=True, help="Also the normal line (through the point, perpendicular to the "
                  "tangent line).")


def at_option() -> Callable:
    """--at POINT: tangent's line (polynomial) evaluated near the point, the linear approximation."""
    return option("--at", metavar="X | x=X,y=Y", help="Evaluate the tangent line (plane, polynomial) there: the "
                  "linear approximation, beside the function's own value (--at 3.01 for 3.01^4 from x^4 at 3).")


def symbolic_option() -> Callable:
    """--symbolic: a command's formulas too (SymPy, imported only then)."""
    return option("--symbolic", is_flag=True, help="Also the formulas, and their exact values at the point (SymPy).")
