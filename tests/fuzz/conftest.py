"""The fuzz suite's shared parts: an in-process runner with a hard time bound, the invariants every run
must keep, and the Hypothesis strategies.

The tests run under pytest's importlib import mode, so nothing here can be imported by a test module:
everything reaches them through the session-scoped `fz` fixture (`fz.run`, `fz.check`, `fz.programs()`,
...). The Hypothesis profiles are registered here, at collection time, so a test module can name them
in its `@settings(...)`.

Budgets: the profile "fuzz" (the default, what CI runs: 50 examples a test) keeps the whole suite near a
minute; `AUTODIFF_FUZZ=deep` selects "fuzz-deep" (30 times more examples) for a longer hunt. See
docs/robustness.md.
"""

from __future__ import annotations

import faulthandler
import json
import os
import re
import signal
import sys
import time
import warnings
from dataclasses import dataclass, field
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from autodiff import engine
from autodiff.cli.errors import EXIT_CODES
from autodiff.cli.main import main
from autodiff.engine import BUILTINS, KINDS
from autodiff.engine.core.settings import STATE
from autodiff.grammar.interpreter import TENSOR_ATTRIBUTES, TENSOR_METHODS

# ---------------------------------------------------------------------------- profiles
_COMMON = {
    "deadline": None,  # the runner enforces its own hard bound (a Hypothesis deadline cannot stop a hang)
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    "print_blob": True,
}
settings.register_profile("fuzz", max_examples=50, **_COMMON)  # CI: a fixed budget (was 100)
settings.register_profile("fuzz-deep", max_examples=1500, **_COMMON)
ACTIVE_PROFILE = "fuzz-deep" if os.environ.get("AUTODIFF_FUZZ") == "deep" else "fuzz"
settings.register_profile("fuzz-active", settings.get_profile(ACTIVE_PROFILE))

# A run of one small program takes milliseconds; anything near this is a hang.
RUN_SECONDS = float(os.environ.get("AUTODIFF_FUZZ_TIMEOUT", "20"))

# Warnings a user's terminal would show (Python hides these categories outside __main__ by default).
_HIDDEN_WARNINGS = (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning)
# Python's exception names in a message mean an exception leaked through unexplained.
_LEAKED = re.compile(
    r"Traceback|object at 0x|internal error|\b(Type|Value|Index|Key|Attribute|ZeroDivision|Overflow|Recursion|Memory"
    r"|UnicodeDecode|UnicodeEncode|Assertion|Name|Runtime|NotImplemented|OS|FileNotFound|Lookup)Error\b"
)


class Hang(BaseException):
    """Raised by the alarm when a run exceeds its time bound (a BaseException: main() must not catch it)."""


@dataclass
class Outcome:
    args: list[str]
    code: int
    stdout: str
    stderr: str
    seconds: float
    warnings: list[str] = field(default_factory=list)

    def json(self) -> Any:
        return strict_json(self.stdout)

    def __str__(self) -> str:
        return (f"autodiff {self.args!r}\n-> exit {self.code} in {self.seconds:.2f}s\n"
                f"stdout: {self.stdout[:2000]!r}\nstderr: {self.stderr[:2000]!r}\nwarnings: {self.warnings}")


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"non-standard JSON constant {name}")


def strict_json(text: str) -> Any:
    """Parse exactly one JSON document, refusing NaN/Infinity (json.loads takes them by default)."""
    return json.loads(text, parse_constant=_refuse_constant)


def _on_alarm(signum: int, frame: Any) -> None:
    raise Hang(f"the run took more than {RUN_SECONDS} s")


_STATE_FIELDS = ("grad_enabled", "default_dtype", "max_elements", "anomaly", "forward_context", "observer")


def run(args: list[str], input: str | bytes | None = None, timeout: float = RUN_SECONDS) -> Outcome:
    """`autodiff ARGS` through main() in this process, with captured streams and a hard time bound.

    The engine's process-wide state (grad mode, dtype, element limit, ...) is restored afterwards, as a
    fresh process would have it.
    """
    saved = {name: getattr(STATE, name) for name in _STATE_FIELDS}
    runner = CliRunner()
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    # A backstop for a hang inside C code, where the alarm's exception cannot be raised: dump the stacks
    # and end the test session rather than wait forever.
    faulthandler.dump_traceback_later(timeout * 3 + 30, exit=True)
    start = time.perf_counter()
    try:
        with warnings.catch_warnings(record=True) as caught, runner.isolation(input=input) as (out, err, _):
            warnings.simplefilter("always")
            signal.setitimer(signal.ITIMER_REAL, timeout)
            try:
                main(list(args))
                code = 0
            except SystemExit as done:
                code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            sys.stdout.flush()
            sys.stderr.flush()
            stdout = out.getvalue().decode("utf-8", "backslashreplace")
            stderr = err.getvalue().decode("utf-8", "backslashreplace")
    finally:
        faulthandler.cancel_dump_traceback_later()
        signal.signal(signal.SIGALRM, previous)
        for name, value in saved.items():
            setattr(STATE, name, value)
    shown = [f"{w.category.__name__}: {w.message}" for w in caught if not issubclass(w.category, _HIDDEN_WARNINGS)]
    return Outcome(list(args), code, stdout, stderr, time.perf_counter() - start, shown)


# ---------------------------------------------------------------------------- invariants
def _first_line(text: str) -> str:
    return text.split("\n", 1)[0]


def check_error_body(body: Any, outcome: Outcome, code: int | None) -> None:
    """An {"error": {...}} body: a documented kind, a message, and (for a whole run) the kind's exit code."""
    assert isinstance(body, dict), outcome
    assert body.get("kind") in KINDS, outcome
    message = body.get("message")
    assert isinstance(message, str) and message.strip(), outcome
    assert not _LEAKED.search(message), f"a Python exception leaked into the message\n{outcome}"
    for key in ("line", "column"):
        if key in body:
            assert isinstance(body[key], int) and body[key] >= 1, outcome
    if code is not None:
        assert code == EXIT_CODES[body["kind"]], f"kind {body['kind']} must exit {EXIT_CODES[body['kind']]}\n{outcome}"


EVAL_KEYS = frozenset({"root", "passes", "grads"})


def check(outcome: Outcome, json_mode: bool = False, batch: bool = False, keys: frozenset = EVAL_KEYS,
          session: bool = False) -> None:
    """The invariants of every run, whatever the input (see docs/robustness.md). A `batch` or REPL
    `session` reports errors and goes on: its exit code is not the kind's."""
    assert outcome.code in (0, 1, 2), f"exit code {outcome.code}\n{outcome}"
    for stream in (outcome.stdout, outcome.stderr):
        assert "Traceback" not in stream, outcome
        assert "internal error" not in stream, outcome
    assert not outcome.warnings, f"a warning would reach the terminal\n{outcome}"
    if outcome.stderr:
        first = _first_line(outcome.stderr)
        assert first.startswith("autodiff: "), f"stderr must start with 'autodiff: '\n{outcome}"
        assert not _LEAKED.search(first), f"a Python exception leaked into the message\n{outcome}"
        m = re.match(r"autodiff: (\w+) error", first)
        if m and not (batch or session):
            assert m.group(1) in KINDS, outcome
            assert outcome.code == EXIT_CODES[m.group(1)], f"kind {m.group(1)} must exit its code\n{outcome}"
    verdict = "ok" in keys and outcome.code == 1  # autodiff check's "an expectation does not hold" is no error
    if outcome.code != 0 and not verdict:
        assert outcome.stderr.strip(), f"a failure must say why on stderr\n{outcome}"
    if batch:
        _check_batch(outcome)
    elif json_mode:
        _check_json(outcome, keys)


def _check_json(outcome: Outcome, keys: frozenset) -> None:
    try:
        document = outcome.json()
    except ValueError as error:
        raise AssertionError(f"stdout is not one strict JSON document ({error})\n{outcome}") from None
    assert isinstance(document, dict), outcome
    if "error" in document:
        check_error_body(document["error"], outcome, outcome.code)
        assert outcome.code != 0, outcome
    else:
        assert keys <= set(document), outcome
        if "ok" in keys:  # autodiff check: exit 1 exactly when an expectation does not hold
            assert outcome.code == (0 if document["ok"] is True else 1), outcome
        else:
            assert outcome.code == 0, outcome


def _check_batch(outcome: Outcome) -> None:
    lines = outcome.stdout.splitlines()
    documents = []
    for text in lines:
        try:
            documents.append(strict_json(text))
        except ValueError as error:
            raise AssertionError(f"a batch output line is not strict JSON ({error}): {text[:300]!r}\n{outcome}") \
                from None
    if outcome.code != 0 and not documents:
        raise AssertionError(f"a failed --batch run must write its error document\n{outcome}")
    if len(documents) == 1 and "line" not in documents[0]:  # the whole run failed before the first line
        assert "error" in documents[0], outcome
        check_error_body(documents[0]["error"], outcome, outcome.code)
        return
    failed = 0
    for document in documents:
        assert isinstance(document, dict) and isinstance(document.get("line"), int), outcome
        if "error" in document:
            failed += 1
            check_error_body(document["error"], outcome, None)
        else:
            assert {"root", "passes", "grads"} <= set(document), outcome
    assert outcome.code == (1 if failed else 0), f"{failed} failed lines\n{outcome}"


# ---------------------------------------------------------------------------- strategies
VARIABLES = ("x", "y", "z", "w")
FUNCTIONS = tuple(BUILTINS)
METHODS = tuple(sorted(TENSOR_METHODS))
ATTRIBUTES = tuple(sorted(TENSOR_ATTRIBUTES))
KEYWORDS = ("dim", "keepdim", "dtype", "requires_grad", "min", "max", "other", "exponent", "start_dim", "end_dim",
            "dim0", "dim1", "fill_value", "steps", "step", "end", "start", "input", "m", "gradient",
            "retain_graph", "create_graph", "bogus")
_TOKENS = (*VARIABLES, *FUNCTIONS[:12], "torch", "torch.", "import", "as", "print", "True", "False", "None",
           "0", "1", "2", "-1", "2.5", ".5", "1e-3", "1e308", "1e999", "10**20", "+", "-", "*", "/", "**", "@", "=",
           "(", ")", "[", "]", ",", ":", "::", ".", "...", ";", "\n", " ", "\t", "#", "'s'", '"s"', '"""', "\\\n",
           "backward", "grad", "T", "shape", "sum", "dim=", "keepdim=True", "dtype=", "requires_grad=True",
           "lambda", "if", "for", "==", "+=", "//", "%", "{", "}", "!", "$", "\x00", "\u2212", "\uff12",
           "\u200b", "\u00a0", "\ufeff", "\udcff", "_x", "__class__")


def _shapes(max_dims: int = 3, max_side: int = 3) -> st.SearchStrategy[tuple[int, ...]]:
    return st.lists(st.integers(0, max_side), max_size=max_dims).map(tuple)


def _number_text() -> st.SearchStrategy[str]:
    return st.one_of(
        st.integers(-5, 5).map(str),
        st.sampled_from(["0", "1", "2", "0.5", ".5", "1e-3", "1e308", "1e-320", "1e999", "3.0", "10**20",
                         "2**64", "2**10**10", "123456789012345678901234567890"]),
        st.floats(allow_nan=False, allow_infinity=False, width=32).map(repr),
    )


def _list_literal(shape: tuple[int, ...], numbers: list[str]) -> str:
    if not shape:
        return numbers[0] if numbers else "1"
    inner = [_list_literal(shape[1:], numbers[i + 1:]) for i in range(shape[0])]
    return "[" + ", ".join(inner) + "]"


@st.composite
def value_texts(draw: st.DrawFn) -> str:
    """A VALUE for --var/--const/--grad-tensor: numbers, list literals (0-d, empty, ragged), constructors."""
    kind = draw(st.sampled_from(["number", "list", "list", "constructor", "ragged", "odd"]))
    if kind == "number":
        return draw(_number_text())
    if kind == "list":
        shape = draw(_shapes())
        return _list_literal(shape, draw(st.lists(_number_text(), min_size=8, max_size=8)))
    if kind == "constructor":
        name = draw(st.sampled_from(["ones", "zeros", "rand", "randn", "arange", "eye", "tensor", "full"]))
        sizes = draw(st.lists(st.integers(-1, 4), max_size=3))
        args = ", ".join(map(str, sizes))
        if name == "tensor":
            args = _list_literal(draw(_shapes()), ["1.5"] * 4)
        elif name == "full":
            args = f"({args}), 2.0" if sizes else "2, 2.0"
        extra = draw(st.sampled_from(["", ", dtype='float64'", ", requires_grad=True", ", dtype='bogus'"]))
        return f"{name}({args}{extra})"
    if kind == "ragged":
        return draw(st.sampled_from(["[[1, 2], [3]]", "[[], [1]]", "[1, [2]]", "[[[]]]", "[]", "[[]]", "[True]",
                                     "['a']", "[None]", "[1, 2,]", "[(1, 2)]"]))
    return draw(st.sampled_from(["y", "x + 1", "@missing.npy", "print(1)", "", " ", "ones(2)[0]", "(1, 2)",
                                 "'text'", "None", "True", "ones(2).grad", "1; 2", "x = 1", "ones(2) @ ones(2)"]))


def _index_item() -> st.SearchStrategy[str]:
    return st.one_of(
        st.integers(-4, 4).map(str),
        st.sampled_from([":", "::", "1:", ":-1", "::2", "::0", "::-1", "None", "...", "1.5", "1.0", "True",
                         "0:2:1", "-10:10", "x", "[0]", "'a'", "10**20"]),
    )


class _Expressions:
    """Random expression trees of the language, rendered to text (parenthesized, so mostly well-formed)."""

    def leaf(self) -> st.SearchStrategy[str]:
        return st.one_of(
            st.sampled_from(VARIABLES),
            _number_text(),
            value_texts(),
            st.sampled_from(["True", "False", "None", "'float64'", "torch.float64", "torch"]),
        )

    def extend(self, children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.tuples(children, st.sampled_from(["+", "-", "*", "/", "**", "@"]), children).map(
                lambda t: f"({t[0]} {t[1]} {t[2]})"),
            children.map(lambda c: f"(-{c})"),
            self._call(children),
            self._method(children),
            st.tuples(children, st.sampled_from(ATTRIBUTES)).map(lambda t: f"({t[0]}).{t[1]}"),
            st.tuples(children, st.lists(_index_item(), min_size=1, max_size=3)).map(
                lambda t: f"({t[0]})[{', '.join(t[1])}]"),
            st.lists(children, max_size=3).map(lambda items: "[" + ", ".join(items) + "]"),
        )

    def _arguments(self, children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        positional = st.lists(st.one_of(children, st.integers(-3, 3).map(str)), max_size=3)
        keyword_value = st.one_of(st.integers(-3, 3).map(str), st.sampled_from(
            ["True", "False", "None", "'float32'", "'float64'", "'int8'", "0.5", "(0, 1)", "[0]", "x"]))
        keywords = st.lists(st.tuples(st.sampled_from(KEYWORDS), keyword_value), max_size=2,
                            unique_by=lambda kv: kv[0])
        return st.tuples(positional, keywords).map(
            lambda t: ", ".join([*t[0], *(f"{k}={v}" for k, v in t[1])]))

    def _call(self, children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        prefix = st.sampled_from(["", "", "torch."])
        return st.tuples(prefix, st.sampled_from(FUNCTIONS), self._arguments(children)).map(
            lambda t: f"{t[0]}{t[1]}({t[2]})")

    def _method(self, children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.tuples(children, st.sampled_from(METHODS), self._arguments(children)).map(
            lambda t: f"({t[0]}).{t[1]}({t[2]})")

    def expressions(self, max_leaves: int = 12) -> st.SearchStrategy[str]:
        return st.recursive(self.leaf(), self.extend, max_leaves=max_leaves)


_EXPRESSIONS = _Expressions()


@st.composite
def programs(draw: st.DrawFn, max_statements: int = 4) -> str:
    """A program of 1..max_statements statements: assignments, index assignments and bare expressions."""
    expression = _EXPRESSIONS.expressions()
    statements = []
    for _ in range(draw(st.integers(1, max_statements))):
        kind = draw(st.sampled_from(["assign", "assign", "bare", "index"]))
        value = draw(expression)
        name = draw(st.sampled_from([*VARIABLES, "out", "a", "b"]))
        if kind == "assign":
            statements.append(f"{name} = {value}")
        elif kind == "index":
            items = draw(st.lists(_index_item(), min_size=1, max_size=2))
            statements.append(f"{name}[{', '.join(items)}] = {value}")
        else:
            statements.append(value)
    separator = draw(st.sampled_from(["\n", "; ", "\n\n", " ;\n"]))
    return separator.join(statements) + draw(st.sampled_from(["", "\n", "  # done"]))


@st.composite
def eval_options(draw: st.DrawFn, names: tuple[str, ...] = (*VARIABLES, "out", "a")) -> list[str]:
    """Bindings and options of `autodiff eval` (the program not included)."""
    args: list[str] = []
    for name in draw(st.lists(st.sampled_from(VARIABLES), max_size=3, unique=True)):
        option = draw(st.sampled_from(["--var", "--const", "bare"]))
        value = draw(value_texts())
        args += [f"{name}={value}"] if option == "bare" else [option, f"{name}={value}"]
    flags = draw(st.lists(st.sampled_from(["--retain-graph", "--zero-grad", "--detect-anomaly", "--trace",
                                           "--explain"]), max_size=3, unique=True))
    args += flags
    if draw(st.booleans()):
        args += ["--dtype", draw(st.sampled_from(["float32", "float64"]))]
    if draw(st.booleans()):
        args += ["--seed", str(draw(st.sampled_from([0, 1, 2**32, -1])))]
    # (Hypothesis draws small integers and the first items most: the valid choices come first.)
    for option, values in (("--repeat", st.sampled_from([1, 2, 3, 0, -1])),
                           ("--order", st.sampled_from([1, 2, 3, 0])),
                           ("--max-elements", st.sampled_from([10**6, 100, 5, 1, 0, -1]))):
        if draw(st.integers(0, 4)) == 4:
            args += [option, str(draw(values))]
    for option in ("--backward", "--retain-grad"):
        if draw(st.integers(0, 4)) == 4:
            args += [option, draw(st.sampled_from(names))]
    if draw(st.integers(0, 3)) == 3:
        args += ["--grad-tensor", draw(value_texts())]
    return args


def token_soup(min_size: int = 0, max_size: int = 30) -> st.SearchStrategy[str]:
    """Tokens of the language (and a few foreign ones) in random order: mostly syntax errors, sometimes not."""
    return st.lists(st.sampled_from(_TOKENS), min_size=min_size, max_size=max_size).map("".join)


def lenient_bytes(max_size: int = 200) -> st.SearchStrategy[str]:
    """Random bytes, decoded as a shell passes undecodable bytes to Python (surrogateescape) or replaced."""
    return st.tuples(st.binary(max_size=max_size), st.sampled_from(["surrogateescape", "replace", "latin-1"])).map(
        lambda t: t[0].decode("latin-1") if t[1] == "latin-1" else t[0].decode("utf-8", t[1]))


def any_text(max_size: int = 80) -> st.SearchStrategy[str]:
    """Any unicode, lone surrogates included."""
    return st.text(st.characters(codec=None, exclude_categories=()), max_size=max_size)


def _helped(args: list[str], outcome: Outcome) -> bool:
    """Whether the run printed a command's help (-h or --help before any `--`, and nothing else wrong): click
    answers it before --format is applied, with the help text whatever the format, as `autodiff eval --help`."""
    options = args[:args.index("--")] if "--" in args else args
    return (("-h" in options or "--help" in options) and outcome.code == 0
            and outcome.stdout.startswith("Usage: ") and not outcome.stderr)


def json_requested(args: list[str]) -> bool:
    """Whether the arguments ask for --format json (as main() decides it: the first --format wins)."""
    for i, arg in enumerate(args):
        if arg == "--format" and i + 1 < len(args):
            return args[i + 1] == "json"
        if arg.startswith("--format="):
            return arg == "--format=json"
    return False


_UNARY = ("exp", "log", "sin", "cos", "tan", "tanh", "sigmoid", "relu", "sqrt", "abs", "neg", "square", "sign",
          "reciprocal", "clone", "detach")
_EDGE_NUMBERS = ("0", "1", "-1", "0.5", "-2.5", "3", "1e30", "-1e30", "1e-40", "1e-3", "100", "1e38", "-0.0")


@st.composite
def well_typed(draw: st.DrawFn) -> tuple[str, list[str]]:
    """A program that mostly runs: variables of one random shape (0-d and empty included), combined by
    elementwise functions, operators, reductions, matmul and indexing that fit it. Returns the program
    and its bindings (edge values: zeros, negatives for log/sqrt, float32 overflow)."""
    shape = draw(_shapes(max_dims=2, max_side=3))
    names = draw(st.lists(st.sampled_from(VARIABLES[:3]), min_size=1, max_size=3, unique=True))
    bindings = []
    for name in names:
        if draw(st.booleans()):
            numbers = draw(st.lists(st.sampled_from(_EDGE_NUMBERS), min_size=12, max_size=12))
            value = _list_literal(shape, numbers)
        else:
            value = f"{draw(st.sampled_from(['randn', 'rand', 'ones', 'zeros']))}({', '.join(map(str, shape))})"
        bindings.append(f"{name}={value}")
    terms = list(names)
    for _ in range(draw(st.integers(1, 6))):
        a, b = draw(st.sampled_from(terms)), draw(st.sampled_from(terms))
        kind = draw(st.sampled_from(["unary", "method", "binary", "number", "pow", "clamp", "softmax"]))
        if kind == "unary":
            term = f"{draw(st.sampled_from(_UNARY))}({a})"
        elif kind == "method":
            term = f"({a}).{draw(st.sampled_from(_UNARY))}()"
        elif kind == "binary":
            term = f"({a} {draw(st.sampled_from(['+', '-', '*', '/']))} {b})"
        elif kind == "number":
            term = f"({draw(st.sampled_from(_EDGE_NUMBERS))} {draw(st.sampled_from(['+', '-', '*', '/', '**']))} {a})"
        elif kind == "pow":
            term = f"({a} ** {draw(st.sampled_from(['2', '0.5', '-1', '0', '3', b]))})"
        elif kind == "clamp":
            term = f"clamp({a}, min={draw(st.sampled_from(['-1', '0']))}, max=1)"
        else:
            term = f"{draw(st.sampled_from(['softmax', 'log_softmax']))}({a}, dim=-1)" if shape else f"exp({a})"
        terms.append(term)
    body = terms[-1]
    if len(shape) == 2 and draw(st.booleans()):
        body = f"({body}) @ ({terms[0]}).T"
    if shape and shape[0] > 0 and draw(st.integers(0, 3)) == 0:
        body = f"({body})[{draw(st.sampled_from(['0', '-1', '0:1', ':', '...', 'None']))}]"
    finish = draw(st.sampled_from(["sum", "mean", "max", "min", "none", "dim"]))
    if finish in ("sum", "mean") or (finish in ("max", "min") and 0 not in shape):
        body = f"({body}).{finish}()"
    elif finish == "dim" and shape:
        body = f"({body}).sum(dim={draw(st.integers(-1, 0))}, keepdim={draw(st.sampled_from(['True', 'False']))})"
    program = f"h = {terms[len(names)]}\nout = {body}" if len(terms) > len(names) + 1 else f"out = {body}"
    return program, bindings


@st.composite
def good_options(draw: st.DrawFn) -> list[str]:
    """Options that are valid on their own (combinations may still be refused, as they should be)."""
    args: list[str] = []
    args += draw(st.lists(st.sampled_from(["--retain-graph", "--zero-grad", "--detect-anomaly", "--trace",
                                           "--explain"]), max_size=3, unique=True))
    if draw(st.booleans()):
        args += ["--dtype", draw(st.sampled_from(["float32", "float64"]))]
    if draw(st.integers(0, 3)) == 3:
        args += ["--seed", str(draw(st.integers(0, 2**32)))]
    extra = draw(st.sampled_from(["", "", "", "repeat", "order", "backward", "retain-grad", "grad"]))
    if extra == "repeat":
        args += ["--repeat", str(draw(st.integers(1, 3)))]
    elif extra == "order":
        args += ["--order", str(draw(st.integers(1, 3)))]
    elif extra == "backward":
        args += ["--backward", "out", "--backward", "out"]
    elif extra == "retain-grad":
        args += ["--retain-grad", "h"]
    elif extra == "grad":
        args += ["--grad-tensor", draw(st.sampled_from(["1", "ones(2)", "2.5", "[1, 2]", "[[1, 2], [3, 4]]"]))]
    return args


class Fuzz:
    """What the tests receive as the `fz` fixture."""

    run = staticmethod(run)
    outcome = Outcome
    check = staticmethod(check)
    check_error_body = staticmethod(check_error_body)
    strict_json = staticmethod(strict_json)
    programs = staticmethod(programs)
    expressions = staticmethod(_EXPRESSIONS.expressions)
    value_texts = staticmethod(value_texts)
    eval_options = staticmethod(eval_options)
    well_typed = staticmethod(well_typed)
    good_options = staticmethod(good_options)
    token_soup = staticmethod(token_soup)
    lenient_bytes = staticmethod(lenient_bytes)
    any_text = staticmethod(any_text)
    shapes = staticmethod(_shapes)
    variables = VARIABLES
    exit_codes = EXIT_CODES

    @staticmethod
    def check_run(args: list[str], input: str | bytes | None = None, batch: bool = False,
                  keys: frozenset = EVAL_KEYS, session: bool = False) -> Outcome:
        """Run and check the invariants; JSON mode is read from the arguments."""
        outcome = run(args, input=input)
        json_mode = json_requested(args) and not _helped(args, outcome)
        check(outcome, json_mode=json_mode, batch=batch, keys=keys, session=session)
        return outcome


@pytest.fixture(scope="session")
def fz() -> Fuzz:
    return Fuzz()


@pytest.fixture(autouse=True)
def _engine_defaults():
    """Each command configures the engine (dtype, element limit); restore the defaults afterwards."""
    yield
    engine.set_default_dtype("float32")
    engine.set_max_elements(None)
