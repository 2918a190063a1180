"""`autodiff check` (your derivative against autograd) and `autodiff gradcheck` (autograd against finite
differences): their options, and gradcheck's body. Check's body is cli/commands/check_run.py."""

from __future__ import annotations

from typing import Any

import click

from autodiff.cli.commands.check_run import check_body, setup
from autodiff.cli.options import (
    SETTINGS,
    ProgramCommand,
    antiderivative_option,
    batch_options,
    dtype_option,
    engine_options,
    format_option,
    option,
    order_option,
    program_options,
    tolerance_options,
)
from autodiff.cli.output.check_text import gradcheck_doc

EPILOG_CHECK = """\b
Examples:
  autodiff check 'x**3 * sin(x)' x=1.2 --expect 'x=3*x**2*sin(x) + x**3*cos(x)'
  autodiff check 'x**2' x='randn()' --expect 'x=2*x' --samples 20 --seed 0
  autodiff check 'x * y**2' x=2 y=3 --expect 'x=y**2' --expect 'y=2*x*y'
  autodiff check '(x**2).sum()' x='rand(3)*4-2' --expect 'x=2*x' --samples 5 --format json
  autodiff check 'x^2 e^x' --antiderivative '(x^2 - 2x + 2)e^x + C'   is F' = f?
"""

EPILOG_GRADCHECK = """\b
Examples:
  autodiff gradcheck 'sin(x) * y' x=0.5 y='[1, 2]'
  autodiff gradcheck '(x @ w).tanh().sum()' x='randn(2, 3)' w='randn(3, 4)' --seed 0
  autodiff gradcheck 'softmax(x, dim=0)' x='randn(5)' --seed 1 --format json
"""






# ---------------------------------------------------------------------------- check
@click.command("check", cls=ProgramCommand, epilog=EPILOG_CHECK, context_settings=SETTINGS,
               short_help="Check your own derivatives against autograd.")
@program_options
@option("--expect", "expectations", multiple=True, metavar="[NAME=]EXPR",
        help="Your derivative of the program with respect to NAME, in the language (repeatable; NAME= may be "
             "left out when the program has one variable).")
@antiderivative_option()
@option("--samples", type=int, metavar="N",
        help="Check at N points (default 5): the bound values, then points drawn around them, or each VALUE "
             "evaluated again (e.g. x='randn()').")
@order_option("The N-th derivative: 2 when the expectations are second derivatives.", high=2)
@tolerance_options("1e-5 in float64, 1e-4 in float32", "1e-8 in float64, 1e-5 in float32")
@format_option()
@dtype_option("float64")
@engine_options(dtype=False)
@batch_options("Check")
def check_command(program: str | None, assignments: tuple[str, ...], file: str | None, **options: Any) -> int:
    """Check your derivatives of PROGRAM against autograd.

    Each --expect NAME=EXPR is your derivative of the program's result with respect to the variable
    NAME (with one variable, --expect EXPR is enough; a variable left unbound gets random points in
    [-2, 2)), written in the language and evaluated (in float64) with the same bindings. It is
    compared elementwise with autograd's gradient, like torch.allclose: |yours - autograd| <= atol +
    rtol * |autograd|. --dtype is the precision of autograd's side; yours is always evaluated in float64.
    Exit status 0 when every derivative matches, 1 when one does not.
    """
    return check_body(program, assignments, file, options)
















# ---------------------------------------------------------------------------- gradcheck
@click.command("gradcheck", cls=ProgramCommand, epilog=EPILOG_GRADCHECK, context_settings=SETTINGS,
               short_help="Compare autograd with central finite differences, in float64.")
@program_options
@option("--eps", type=float, default=1e-6, show_default=True, help="The finite-difference step.")
@tolerance_options(rtol=1e-3, atol=1e-5)
@option("--max-perturbations", type=int, default=10_000, show_default=True,
        help="Refuse to perturb more leaf elements than this (each costs two evaluations).")
@format_option()
@engine_options("float64")
def gradcheck_command(program: str | None, assignments: tuple[str, ...], file: str | None, **options: Any) -> int:
    """Compare autograd's gradient of PROGRAM with central finite differences, in float64.

    Every element of every bound variable is moved by +eps and -eps and the program evaluated again
    (PyTorch's gradcheck idea). A scalar result compares the gradient; a result of up to 32 elements
    compares the full Jacobian; a larger one compares the product with a fixed random vector.
    Passes when |autograd - numerical| <= atol + rtol * |numerical| everywhere; exit status 1 otherwise.
    """
    import numpy as np

    from autodiff.app.gradcheck import GradcheckRequest, gradcheck

    text, variables, output = setup(program, assignments, file, options)
    with np.errstate(all="ignore"):
        report = gradcheck(GradcheckRequest(
            program=text, variables=variables, eps=options["eps"], atol=options["atol"], rtol=options["rtol"],
            max_perturbations=options["max_perturbations"], seed=options["config"].seed))
    if output == "json":
        import sys

        sys.stdout.write(gradcheck_json(report) + "\n")
    else:
        from autodiff.cli.output.text import write

        write(gradcheck_doc(report), pretty=output == "pretty")
    return 0 if report.ok else 1


def gradcheck_json(report: Any) -> str:
    from autodiff.cli.output import jsonout

    leaves = [{
        "name": leaf.name,
        "ok": leaf.ok,
        "shape": list(leaf.shape),
        "max_abs_error": jsonout.number(leaf.max_abs_error),
        "max_rel_error": jsonout.number(leaf.max_rel_error),
        "worst": {"index": list(leaf.index), "output": None if leaf.output is None else list(leaf.output),
                  "autograd": jsonout.number(leaf.autograd), "numerical": jsonout.number(leaf.numerical)},
    } for leaf in report.leaves]
    document = {"ok": report.ok, "dtype": "float64", "method": report.method, "root_shape": list(report.root_shape),
                "eps": report.eps, "atol": report.atol, "rtol": report.rtol, "evaluations": report.evaluations,
                "leaves": leaves, "notes": report.notes}
    return jsonout.dumps(document)


COMMANDS: list = [check_command, gradcheck_command]
