"""`autodiff jacobian` and `autodiff hessian`: the matrices of torch.autograd.functional, labelled (rows:
outputs, columns: inputs), or as JSON. The numbers come from autodiff.app.derivatives."""

from __future__ import annotations

import sys
from typing import Any

import click

from autodiff.cli.options import (
    SETTINGS,
    ProgramCommand,
    bindings_from,
    engine_options,
    format_option,
    output_format,
    program_options,
    wrt_option,
)
from autodiff.cli.reading import read_formula

EPILOG_JACOBIAN = """\b
Examples:
  autodiff jacobian 'stack([x**2 * y, 5*x + sin(y)])' x=1 y=2
  autodiff jacobian 'A @ x' --var 'A=[[1, 2], [3, 4]]' --var 'x=[1, -1]' --wrt x --format json
"""
EPILOG_HESSIAN = """\b
Examples:
  autodiff hessian 'x**2 * y + y**3' x=1 y=2
  autodiff hessian '(x**3).sum()' --var 'x=[1, 2]' --format json
"""


def _request(program: str | None, assignments: tuple[str, ...], file: str | None, options: dict[str, Any]) -> Any:
    from autodiff.app.session import EvalRequest

    text, assignments = read_formula(program, file, assignments, options, "this command")
    bindings = bindings_from(assignments, options["variables"], options["constants"],
                               options["config"].max_elements)
    return EvalRequest(text, bindings)


@click.command("jacobian", cls=ProgramCommand, epilog=EPILOG_JACOBIAN, context_settings=SETTINGS,
               short_help="The Jacobian of the root with respect to each variable.")
@program_options
@wrt_option("Only these variables (repeatable).")
@format_option()
@engine_options()
def jacobian_command(program: str | None, assignments: tuple[str, ...], file: str | None, **options: Any) -> int:
    """The Jacobian of PROGRAM's root with respect to each variable, with shape root.shape + variable.shape
    (as torch.autograd.functional.jacobian gives it)."""
    import numpy as np

    from autodiff.app.derivatives import jacobian

    with np.errstate(all="ignore"):
        matrices = jacobian(_request(program, assignments, file, options), list(options["wrt"]))
    output = output_format(options["output_format"])
    if output == "json":
        from autodiff.cli import jsonout

        sys.stdout.write(jsonout.dumps({"jacobian": {n: jsonout.values(b) for n, b in matrices.blocks.items()}})
                         + "\n")
        return 0
    root = matrices.root_name or "root"
    lines = []
    for name, block in matrices.blocks.items():
        lines.append(f"jacobian d{root}/d{name}: shape {tuple(block.shape)} "
                     f"(root {matrices.root_shape} + {name} {matrices.variables[name]})")
        rows = _labels(root, matrices.root_shape)
        columns = _labels(name, matrices.variables[name])
        lines += _table(rows, columns, block.reshape(len(rows), len(columns)))
        lines.append("")
    sys.stdout.write("\n".join(lines))
    return 0


@click.command("hessian", cls=ProgramCommand, epilog=EPILOG_HESSIAN, context_settings=SETTINGS,
               short_help="The Hessian of a scalar root over all its variables.")
@program_options
@wrt_option("Only these variables (repeatable).")
@format_option()
@engine_options()
def hessian_command(program: str | None, assignments: tuple[str, ...], file: str | None, **options: Any) -> int:
    """The Hessian of PROGRAM's scalar root: every block (a, b) of second derivatives with shape
    a.shape + b.shape (as torch.autograd.functional.hessian gives it), shown as one symmetric matrix."""
    import numpy as np

    from autodiff.app.derivatives import hessian

    with np.errstate(all="ignore"):
        matrices = hessian(_request(program, assignments, file, options), list(options["wrt"]))
    output = output_format(options["output_format"])
    if output == "json":
        from autodiff.cli import jsonout

        document = {a: {b: jsonout.values(block) for b, block in row.items()} for a, row in matrices.blocks.items()}
        sys.stdout.write(jsonout.dumps({"hessian": document}) + "\n")
        return 0
    names = list(matrices.variables)
    labels = [label for n in names for label in _labels(n, matrices.variables[n])]
    sizes = [int(np.prod(matrices.variables[n], dtype=np.int64)) for n in names]
    full = np.block([[matrices.blocks[a][b].reshape(sa, sb) for b, sb in zip(names, sizes)]
                     for a, sa in zip(names, sizes)])
    root = matrices.root_name or "root"
    lines = [f"hessian of {root} over {', '.join(names)}: {len(labels)} x {len(labels)} (symmetric)"]
    lines += _table(labels, labels, full)
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


COMMANDS = [jacobian_command, hessian_command]


def _labels(name: str, shape: tuple[int, ...]) -> list[str]:
    import numpy as np

    if not shape:
        return [name]
    return [f"{name}[{', '.join(map(str, index))}]" for index in np.ndindex(*shape)]


def _table(rows: list[str], columns: list[str], values: Any) -> list[str]:
    cells = [[f"{float(v):.6g}" for v in row] for row in values]
    width = max([len(c) for c in columns] + [len(c) for row in cells for c in row] + [1])
    first = max(len(r) for r in rows)
    out = ["  " + " " * first + "  " + "  ".join(c.rjust(width) for c in columns)]
    for label, row in zip(rows, cells):
        out.append("  " + label.ljust(first) + "  " + "  ".join(c.rjust(width) for c in row))
    return out
