"""`autodiff plot`: a program and its derivatives over a grid, drawn in the terminal by uniplot (or, with
--out, as a PNG or SVG file by matplotlib, the optional `plot` extra). The numbers are autodiff.app.calculus.table's."""

from __future__ import annotations

import re
import sys
from typing import Any

import click

from autodiff.cli.commandline import binding_texts, binding_value, output_format
from autodiff.cli.options import (
    SETTINGS,
    ProgramCommand,
    dtype_option,
    engine_options,
    format_option,
    option,
    order_option,
    program_options,
)
from autodiff.cli.reading import read_formula

EPILOG = """\b
Examples:
  autodiff plot 'sin(x)' 'x=0:2*pi' --order 2
  autodiff plot 'x**3 - 2*x' x=-2:2 --out cubic.png
  autodiff plot 'sqrt(x)' x=0:9 --tangent x=4
"""


@click.command("plot", cls=ProgramCommand, epilog=EPILOG, context_settings=SETTINGS,
               short_help="Draw a function and its derivatives over a grid.")
@program_options
@order_option("The derivatives up to order N.")
@option("--tangent", "tangent", metavar="NAME=VALUE",
        help="Also draw the tangent line at this point (autodiff tangent gives its formula).")
@option("--out", "out", metavar="FILE.png|FILE.svg", help="Write an image instead (needs the 'plot' extra).")
@option("--width", type=click.IntRange(20, 400), help="Characters wide (default: the terminal's width, COLUMNS).")
@option("--height", type=click.IntRange(5, 200), default=15, show_default=True,
        help="Lines high (split between the panels when f and its derivatives need their own scales).")
@format_option(json=False)
@dtype_option("float64")
@engine_options(dtype=False)
def plot_command(program: str | None, assignments: tuple[str, ...], file: str | None, **options: Any) -> int:
    """Draw PROGRAM and its derivatives over NAME=START:STOP[:STEP] (200 points by default).

    In colour on a terminal (NO_COLOR, FORCE_COLOR and TERM=dumb are honoured, as everywhere); without colour,
    each curve is drawn with its own character (+, x, o, ...). When a derivative's values span far more than
    f's (more than 10 times), each curve gets its own panel and scale, so f stays readable."""
    import numpy as np

    from autodiff.app.calculus.table import grid, table
    from autodiff.app.session import Binding, constant
    from autodiff.engine.errors import UsageError

    text, assignments = read_formula(program, file, assignments, options, "plot")
    wrt, points, constants = None, None, []
    for name, value, _, _ in binding_texts(assignments, options["variables"], options["constants"]):
        if ":" in value and not value.startswith("@"):
            parts = value.split(":")
            if wrt is not None or len(parts) not in (2, 3) or not all(p.strip() for p in parts):
                raise UsageError(f"{name}={value}: give one grid, START:STOP or START:STOP:STEP, e.g. {name}=0:1")
            numbers = [_number(constant(p, f"the grid of {name}"), name) for p in parts]
            step = numbers[2] if len(numbers) == 3 else (numbers[1] - numbers[0]) / 199 or 1.0
            wrt, points = name, grid(numbers[0], numbers[1], step)
        else:
            constants.append(Binding(name, binding_value(name, value, options["config"].max_elements), False))
    if wrt is None:
        raise UsageError("give the range as NAME=START:STOP[:STEP], e.g. 'x=0:2*pi'")
    out = options["out"]
    if out is not None and not out.lower().endswith((".png", ".svg")):
        raise UsageError(f"--out {out}: the image must be a .png or .svg file")
    with np.errstate(all="ignore"):
        result = table(text, wrt, points, constants, options["order"])
    labels = [text] + [f"d{k} (d{'' if k == 1 else k}/d{wrt}{'' if k == 1 else k})" for k in range(1, result.order + 1)]
    series = [result.values, *result.derivatives]
    if options["tangent"] is not None:
        label, line = tangent_line(text, wrt, points, constants, options["tangent"])
        labels.append(label)
        series.append(line)
    if out is not None:
        write_image(out, points, series, labels, wrt)
        sys.stdout.write(f"wrote {out}\n")
        return 0
    from autodiff.cli.output.text import colour

    color = output_format(options["output_format"]) == "pretty" and colour(sys.stdout)
    with np.errstate(all="ignore"):
        panels = _panels(series, 1 if options["tangent"] is None else 2)
    height = options["height"] if len(panels) == 1 else max(5, options["height"] * 2 // (len(panels) + 1))
    sys.stdout.write("".join(draw(points, [series[i] for i in panel], [labels[i] for i in panel], wrt,
                                  options["width"], height, color) for panel in panels))
    return 0


SEPARATE = 10.0  # a curve whose values span more than this many times f's gets a panel of its own


def _panels(series: list, first: int) -> list[list[int]]:
    """Which curves share a panel: all of them, unless a derivative spans more than SEPARATE times f's range
    (f itself, with its tangent line: `first` curves); then f and each derivative are drawn on their own."""
    import numpy as np

    def span(values: Any) -> float:
        finite = np.asarray(values, dtype=np.float64)
        finite = finite[np.isfinite(finite)]
        return float(finite.max() - finite.min()) if finite.size else 0.0

    own = span(series[0])
    derivatives = list(range(1, len(series) - (first - 1)))
    if not derivatives or not any(span(series[i]) > SEPARATE * max(own, 1e-300) for i in derivatives):
        return [list(range(len(series)))]
    return [[0, *range(len(series) - (first - 1), len(series))], *([i] for i in derivatives)]


def write_image(out: str, points: Any, series: list, labels: list[str], wrt: str) -> None:
    """--out: the image by matplotlib, written to a temporary file beside `out` and renamed over it, so that a
    failed write leaves an existing file as it was; matplotlib's own warnings and log messages stay quiet."""
    import contextlib
    import logging
    import os
    import tempfile
    import warnings

    import numpy as np

    from autodiff.engine.errors import InputError

    logging.getLogger("matplotlib").setLevel(logging.ERROR)  # before its import, which may already complain
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InputError("--out needs matplotlib (the optional 'plot' extra) in autodiff's environment: pipx inject "
                         "autodiff-cli matplotlib, uv tool install --with matplotlib ., or pip install '.[plot]' in "
                         "the source folder",
                         reason="extra") from None
    (xs, x_power), (ys, y_power) = scaled([points]), scaled(series)
    temporary = None
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        figure, axes = plt.subplots(figsize=(7, 4.5))
        try:
            for label, values in zip(labels, ys):
                axes.plot(xs[0], values, label=label)
            axes.set_xlabel(wrt + (f" (x 1e{x_power})" if x_power else ""))
            if y_power:
                axes.set_ylabel(f"x 1e{y_power}")
            axes.axhline(0, color="0.8", linewidth=0.8)
            axes.legend()
            target = os.path.realpath(out)  # through a symbolic link, as writing to it would go
            _check_replaceable(out, target)
            handle, temporary = tempfile.mkstemp(prefix=".autodiff-", suffix=os.path.splitext(out)[1],
                                                 dir=os.path.dirname(target))
            os.close(handle)
            os.chmod(temporary, _file_mode(target))
            figure.savefig(temporary, format=os.path.splitext(out)[1][1:].lower())
            _check_replaceable(out, target)  # again: it may have changed while the image was drawn
            os.replace(temporary, target)
            temporary = None
        except OSError as error:
            raise InputError(f"--out {out}: cannot write the image ({error.strerror or error})") from None
        finally:
            plt.close(figure)
            if temporary is not None:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)


def _check_replaceable(out: str, target: str) -> None:
    """--out replaces only a regular file it may write (or makes a new one): never a read-only file (root may
    write anything, so a file without any write permission counts as read-only), a FIFO, a device or a folder."""
    import os
    import stat

    from autodiff.engine.errors import InputError

    try:
        st = os.stat(target)
    except FileNotFoundError:
        return
    except OSError as error:
        raise InputError(f"--out {out}: cannot write the image ({error.strerror or error})") from None
    if not stat.S_ISREG(st.st_mode):
        what = ("a folder" if stat.S_ISDIR(st.st_mode) else "a FIFO" if stat.S_ISFIFO(st.st_mode)
                else "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode) else "not a regular file")
        raise InputError(f"--out {out}: it is {what}, not a regular file; the image is written only to a new or "
                         "regular file", reason="out")
    if not st.st_mode & 0o222 or not os.access(target, os.W_OK):
        raise InputError(f"--out {out}: the file is read-only; it is not replaced (make it writable, or choose "
                         "another name)", reason="out")


def _file_mode(path: str) -> int:
    """The mode the image gets: the replaced file's, or what a new file gets under the umask."""
    import os
    import stat

    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


LARGE = 1e15  # past this magnitude, values are drawn in units of a power of ten (sinh(x) near 710 is 1e308)


def scaled(arrays: list) -> tuple[list, int]:
    """The arrays in units of 10**k, and k, when their largest finite magnitude is past LARGE (else k = 0): the
    plotting libraries subtract and square the extremes, which overflows near 1e308."""
    import math

    import numpy as np

    largest = 0.0
    for values in arrays:
        values = np.asarray(values, dtype=np.float64)
        finite = np.abs(values[np.isfinite(values)])
        if finite.size:
            largest = max(largest, float(finite.max()))
    if largest <= LARGE:
        return [np.asarray(a, dtype=np.float64) for a in arrays], 0
    power = math.floor(math.log10(largest))
    return [np.asarray(a, dtype=np.float64) / 10.0**power for a in arrays], power


COMMANDS = [plot_command]


def tangent_line(text: str, wrt: str, points: Any, constants: list, option: str) -> tuple[str, Any]:
    """--tangent NAME=VALUE: the tangent line's label (its formula) and its values on the grid."""
    import numpy as np

    from autodiff.app.calculus.pointwise import Function
    from autodiff.app.calculus.tangent import taylor
    from autodiff.app.session import constant
    from autodiff.cli.commandline import split_binding
    from autodiff.engine.errors import UsageError

    name, value = split_binding(option, "--tangent")
    if name != wrt:
        raise UsageError(f"--tangent {option}: the tangent is taken in the plotted variable: --tangent {wrt}=VALUE")
    at = _number(constant(value, "--tangent"), name)
    line = taylor(Function(text, [wrt], constants), {wrt: at}, 1, text, {}, exact=False)
    c0, c1 = line.coefficients.get((0,), 0.0), line.coefficients.get((1,), 0.0)
    return f"tangent at {wrt} = {value}: {line.formula}", c0 + c1 * np.asarray(points)


def draw(points: Any, series: list, labels: list[str], wrt: str, width: int | None, height: int, color: bool) -> str:
    """The plot as text (uniplot), each series without the points where it is not defined; `width` None: the
    terminal's (COLUMNS); without colour, several curves are told apart by their characters."""
    import warnings

    import numpy as np
    from uniplot import plot_to_string

    from autodiff.cli.output.text import columns, unicode_ok

    unicode = unicode_ok()

    (points,), x_power = scaled([points])
    series, y_power = scaled(series)
    xs, ys, shown = [], [], []
    for label, values in zip(labels, series):
        finite = np.isfinite(values)
        if finite.any():
            xs.append(points[finite])
            ys.append(values[finite])
            shown.append(label)
    if not ys:
        return "nothing to draw: the program is not defined anywhere on this range\n"
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        fit = {"width": width} if width is not None else {"width": columns(), "line_length_hard_cap": columns()}
        markers = not unicode or (not color and len(ys) > 1)  # +, x, o, ... one per curve
        text = plot_to_string(ys, xs, legend_labels=shown, lines=True, height=height, color=color,
                              x_unit=(f"e{x_power}" if x_power else "") + f" {wrt}",  # 1.5e300 x
                              y_unit=f"e{y_power}" if y_power else "",
                              **fit, **({"character_set": "ascii"} if markers else {}))
    if not unicode:  # the frame too (PYTHONIOENCODING=ascii)
        text = text.translate(_ASCII_FRAME)
    text = re.sub(r"(?m)(?<= )-(0(\.0+)?)$", r" \1", text)  # an axis label -0.0 is 0
    return text if text.endswith("\n") else text + "\n"


_CORNERS = "\u250c\u2510\u2514\u2518\u251c\u2524\u252c\u2534\u253c\u256d\u256e\u256f\u2570"
_ASCII_FRAME = str.maketrans({"\u2500": "-", "\u2502": "|", **dict.fromkeys(_CORNERS, "+")})


def _number(value: Any, name: str) -> float:
    from autodiff.engine import Tensor
    from autodiff.engine.errors import UsageError

    if isinstance(value, Tensor) and value.numpy(force=True).size == 1:
        value = float(value.numpy(force=True).reshape(-1)[0])
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise UsageError(f"the range of {name}: START, STOP and STEP must be numbers")
    return float(value)
