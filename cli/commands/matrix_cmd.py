"""`autodiff jacobian` and `autodiff hessian`: the matrices of torch.autograd.functional, labelled (rows:
outputs, columns: inputs), or as JSON. The numbers come from autodiff.app.derivatives."""

from __future__ import annotations

import sys
from typing import Any

import click

from autodiff.cli.commandline import bindings_from, output_format
from autodiff.cli.options import (
    SETTINGS,
    ProgramCommand,
    engine_options,
    format_option,
    program_options,
    symbolic_option,
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
  autodiff hessian 'x**2 * y**3' --symbolic            the formulas (add x=1 y=2 for the values too)
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
@wrt_option()
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
        from autodiff.cli.output import jsonout

        sys.stdout.write(jsonout.dumps({"jacobian": {n: jsonout.values(b) for n, b in matrices.blocks.items()}})
                         + "\n")
        return 0
    from autodiff.cli.output.text import Doc, write

    doc = Doc()
    for line in _jacobian_lines(matrices):
        doc.line(line) if isinstance(line, str) else doc.lines.append(line)
    write(doc, output == "pretty")
    return 0


def _jacobian_lines(matrices: Any) -> list:
    """Each variable's block as a title line, a table (rows: the root's elements) and a blank line; the entries
    as printed (app.residue: the row's scale, over all the variables)."""
    import numpy as np

    from autodiff.app.residue import printed_all, row_scales

    root = matrices.root_name or "root"
    rows = _labels(root, matrices.root_shape)
    flat = {n: b.reshape(len(rows), -1) for n, b in matrices.blocks.items()}
    scales = row_scales(np.concatenate(list(flat.values()), axis=1), matrices.largest_input)
    out: list = []
    start = 0
    for name, block in flat.items():
        out.append(f"jacobian d{root}/d{name}: shape {tuple(matrices.blocks[name].shape)} "
                   f"(root {matrices.root_shape} + {name} {matrices.variables[name]})")
        shown = printed_all(block, scales[:, start:start + block.shape[1]])
        start += block.shape[1]
        out += [_table(rows, _labels(name, matrices.variables[name]), shown), []]
    return out[:-1]


@click.command("hessian", cls=ProgramCommand, epilog=EPILOG_HESSIAN, context_settings=SETTINGS,
               short_help="The Hessian of a scalar root over all its variables.")
@program_options
@wrt_option()
@symbolic_option()
@format_option()
@engine_options()
def hessian_command(program: str | None, assignments: tuple[str, ...], file: str | None, **options: Any) -> int:
    """The Hessian of PROGRAM's scalar root: every block (a, b) of second derivatives with shape
    a.shape + b.shape (as torch.autograd.functional.hessian gives it), shown as one symmetric matrix.

    With --symbolic, the second derivatives' formulas too (SymPy; scalar variables; a point is then
    optional)."""
    import numpy as np

    from autodiff.app.derivatives import hessian

    request = _request(program, assignments, file, options)
    matrices = formulas = None
    if request.bindings or not options["symbolic"]:
        with np.errstate(all="ignore"):
            matrices = hessian(request, list(options["wrt"]))
    if options["symbolic"]:
        formulas = _hessian_formulas(request, matrices, list(options["wrt"]))
    if output_format(options["output_format"]) == "json":
        _hessian_json(matrices, formulas)
        return 0
    from autodiff.cli.output.text import Doc, write

    doc = Doc()
    if formulas is not None:
        for line in _formula_lines(request.program, formulas):
            doc.line(line)
    if matrices is not None:
        doc.lines += [[]] * bool(doc.lines)
        doc.line(_hessian_title(matrices))
        doc.table(_hessian_table(matrices))
    write(doc, output_format(options["output_format"]) == "pretty")
    return 0


def _hessian_formulas(request: Any, matrices: Any, wrt: list[str]) -> Any:
    """The formulas of the Hessian, over the variables of the matrix (or, with no point, the program's own)."""
    from autodiff.app.symbolic.diff import hessian_formulas
    from autodiff.engine.errors import UsageError

    if matrices is not None:
        shaped = [f"{n} has shape {s}" for n, s in matrices.variables.items() if s]
        if shaped:
            raise UsageError(f"{{symbolic}} writes the Hessian of scalar variables: {', '.join(shaped)}",
                             hint="bind each variable to a number, or leave out {symbolic} for the matrix",
                             fields=("symbolic",))
        wrt = list(matrices.variables)
    return hessian_formulas(request.program, wrt or None, [b.name for b in request.bindings])


def _formula_lines(program: str, formulas: Any) -> list[str]:
    from autodiff.cli.output.diff_text import label

    rows = []
    for i, a in enumerate(formulas.names):
        for j in range(i, len(formulas.names)):
            rows.append((label(a, 2) if i == j else label(f"{a},{formulas.names[j]}", 2),
                         formulas.entries[i][j].text))
    width = max(len(name) for name, _ in rows)
    return ([f"hessian of {program} over {', '.join(formulas.names)}: formulas"]
            + [f"  {name.ljust(width)}  = {text}" for name, text in rows])


def _hessian_title(matrices: Any) -> str:
    count = sum(len(_labels(n, s)) for n, s in matrices.variables.items())
    return (f"hessian of {matrices.root_name or 'root'} over {', '.join(matrices.variables)}: {count} x {count} "
            "(symmetric)")


def _hessian_table(matrices: Any) -> Any:
    import numpy as np

    from autodiff.app.residue import printed_all, row_scales

    names = list(matrices.variables)
    labels = [label for n in names for label in _labels(n, matrices.variables[n])]
    sizes = [int(np.prod(matrices.variables[n], dtype=np.int64)) for n in names]
    full = np.block([[matrices.blocks[a][b].reshape(sa, sb) for b, sb in zip(names, sizes)]
                     for a, sa in zip(names, sizes)])
    return _table(labels, labels, printed_all(full, row_scales(full, matrices.largest_input)))


def _hessian_json(matrices: Any, formulas: Any) -> None:
    from autodiff.cli.output import jsonout

    document: dict[str, Any] = {}
    if matrices is not None:
        document["hessian"] = {a: {b: jsonout.values(block) for b, block in row.items()}
                               for a, row in matrices.blocks.items()}
    if formulas is not None:
        document["formulas"] = {a: {b: formulas.entries[i][j].text for j, b in enumerate(formulas.names)}
                                for i, a in enumerate(formulas.names)}
    sys.stdout.write(jsonout.dumps(document) + "\n")


COMMANDS = [jacobian_command, hessian_command]


def _labels(name: str, shape: tuple[int, ...]) -> list[str]:
    import numpy as np

    if not shape:
        return [name]
    return [f"{name}[{', '.join(map(str, index))}]" for index in np.ndindex(*shape)]


def _table(rows: list[str], columns: list[str], values: Any) -> Any:
    """A labelled matrix: pretty, a Rich table; plain, every column as wide as the widest entry, as before."""
    from autodiff.cli.output.text import Grid

    cells = [[f"{float(v):.6g}" for v in row] for row in values]
    width = max([len(c) for c in columns] + [len(c) for row in cells for c in row] + [1])
    first = max(len(r) for r in rows)
    plain = ["  " + " " * first + "  " + "  ".join(c.rjust(width) for c in columns)]
    for label, row in zip(rows, cells):
        plain.append("  " + label.ljust(first) + "  " + "  ".join(c.rjust(width) for c in row))
    return Grid(["", *columns], [[label, *row] for label, row in zip(rows, cells)],
                ["left", *["right"] * len(columns)], plain, styles=["name"])
