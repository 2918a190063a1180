"""`autodiff diff`'s output: the derivatives (plain text, LaTeX or JSON), how the program was read, and the
steps, by the textbook's rules (outside in, nested) or as the backward pass runs them."""

from __future__ import annotations

import math
import sys
from typing import Any

from autodiff.cli.calculus import write_json
from autodiff.cli.commandline import output_format


def number(x: float | None) -> Any:
    if x is None:
        return None
    if math.isnan(x) or math.isinf(x):
        return str(x)
    return x


def label(wrt: str, order: int) -> str:
    """d/dx, d2/dx2, or d/dy d/dx for the mixed derivative x,y (differentiate by x, then by y)."""
    names = wrt.split(",")
    if len(names) > 1:
        return " ".join(f"d/d{n}" for n in reversed(names))
    power = "" if order == 1 else str(order)
    return f"d{power}/d{wrt}{power}"


def write_result(reading: Any, result: Any, rows: list, options: dict[str, Any], warnings: list[str]) -> None:
    output = output_format(options["output_format"])
    steps = options["steps"]
    if output == "json":
        write_json(diff_document(reading, result, rows, steps, warnings))
    elif output == "latex":
        for d, *_ in rows:
            names = d.wrt.split(",")
            if len(names) > 1:
                top = f"\\partial^{{{len(names)}}}"
                bottom = " ".join(f"\\partial {n}" for n in reversed(names))
            else:
                power = "" if d.order == 1 else f"^{{{d.order}}}"
                top, bottom = f"d{power}", f"d{d.wrt}{power}"
            sys.stdout.write(f"\\frac{{{top}}}{{{bottom}}} \\left({result.root_latex}\\right) = {d.latex}\n")
    else:
        sys.stdout.write(_text(reading, rows, result, steps))


def diff_document(reading: Any, result: Any, rows: list, steps: str | None, warnings: list[str]) -> dict[str, Any]:
    """`diff --format json`'s document (and each `diff --batch` line's)."""
    document: dict[str, Any] = {}
    if reading.read_as is not None:
        document["read_as"] = reading.read_as
    entries = []
    for d, value, autograd, exact in rows:
        entry = {"wrt": d.wrt, "order": d.order, "expr": d.text, "latex": d.latex, "value": number(value),
                 "autograd": number(autograd)}
        if exact is not None:
            entry["exact"] = exact
        if steps == "rules":
            entry["steps"] = [step_json(s, stage.wrt) for stage in d.stages for s in stage.steps]
        entries.append(entry)
    # The asked order's derivatives are `derivatives` (README: diff's JSON); with --order N the lower orders a
    # book asks for too (f' ... f^(N-1)) are `lower_orders`, in order
    highest = max((e["order"] for e in entries), default=1)
    document["derivatives"] = [e for e in entries if e["order"] == highest]
    if highest > 1:
        document["lower_orders"] = [e for e in entries if e["order"] < highest]
    if steps == "rules":
        document["steps"] = [s for entry in document["derivatives"] for s in entry["steps"]]
    elif steps == "backward":
        from autodiff.app.symbolic.printing import to_book as to_language

        document["steps"] = [{"node": step.node, "rule": "; ".join(step.rules), "grad_in": to_language(step.grad_in),
                              "grads_out": [None if g is None else to_language(g) for g in step.grads_out]}
                             for step in result.steps]
    if warnings:
        document["warnings"] = warnings
    return document


def step_json(step: Any, wrt: str) -> dict[str, Any]:
    """A rule step and its parts as JSON: {"rule", "expr", "result", "formula", ["let",] "children"}, built
    with a stack (a long formula's steps nest deeply)."""
    from autodiff.app.symbolic.printing import to_book as to_language

    top: dict[str, Any] = {}
    stack = [(step, top)]
    while stack:
        item, out = stack.pop()
        out.update({"rule": item.rule, "expr": to_language(item.expr), "result": to_language(item.result),
                    "formula": item.formula})
        if item.let:
            out["let"] = item.let
        out["children"] = [{} for _ in item.children]
        stack.extend(zip(item.children, out["children"]))
    return top


def step_lines(steps: list, wrt: str, indent: str = "  ") -> list[str]:
    """The steps as nested lines: `- RULE rule: d/dx EXPR = RESULT`, the rule's statement under it."""
    from autodiff.app.symbolic.printing import operand
    from autodiff.app.symbolic.printing import to_book as to_language

    lines: list[str] = []
    stack = [(s, 0) for s in reversed(steps)]
    while stack:
        step, depth = stack.pop()
        pad = indent + "  " * depth
        rule = step.rule if step.rule.startswith("solve") else f"{step.rule} rule"
        if step.rule.startswith("solve"):
            lines.append(f"{pad}- {rule}: {step.formula} = {to_language(step.result)}")
        elif step.formula.startswith("d/d"):
            lines.append(f"{pad}- {rule}: {step.formula}")
        else:
            let = f", with {step.let}" if step.let else ""
            lines.append(f"{pad}- {rule}{let}: d/d{wrt} {operand(step.expr)} = {to_language(step.result)}")
            if step.formula:
                lines.append(f"{pad}    {step.formula}")
        stack.extend((c, depth + 1) for c in reversed(step.children))
    return lines


def _text(reading: Any, rows: list, result: Any, steps: str | None) -> str:
    from autodiff.app.symbolic.printing import to_book as to_language

    lines = [] if reading.read_as is None else [f"read as: {reading.read_as}"]
    program = reading.read_as or reading.program
    for d, value, autograd, exact in rows:
        lines.append(f"{label(d.wrt, d.order)} {program} = {d.text}")
        if value is not None:
            shown = f"{value:.10g}" if exact is None else f"{exact} = {value:.10g}"
            lines.append(f"  at the point: {shown}  (autograd: {autograd:.10g})" if autograd is not None else
                         f"  at the point: {shown}")
        if steps == "rules":
            for stage in d.stages:
                lines.append("")
                of = f" of {to_language(stage.of)}" if len(d.stages) > 1 else ""
                lines.append(f"steps: d/d{stage.wrt}{of}, by the rules (outside in)")
                lines.extend(step_lines(stage.steps, stage.wrt) or ["  (no step: it does not depend on it)"])
            if d.stages:
                lines.append(f"  then simplified: {d.text}")
    if steps == "backward":
        lines.append("")
        lines.append("steps (how backpropagation computes the same derivative, node by node)")
        for i, step in enumerate(result.steps, 1):
            lines.append(f"  {i}. {step.node}: {'; '.join(step.rules)}")
            lines.append(f"     grad in: {to_language(step.grad_in)}")
            passed = ", ".join("-" if g is None else to_language(g) for g in step.grads_out)
            lines.append(f"     passes on: {passed}")
        lines.append("  then the simplified result above")
    return "\n".join(lines) + "\n"


def implicit_document(reading: Any, result: Any, value: float | None, exact: str | None,
                      options: dict[str, Any]) -> dict[str, Any]:
    """`diff --implicit --format json`'s document."""
    entry = {"wrt": result.wrt, "implicit": result.implicit, "order": result.order, "expr": result.text,
             "latex": result.latex, "value": number(value)}
    if exact is not None:
        entry["exact"] = exact
    if result.residual is not None:
        entry["on_curve"] = abs(result.residual) <= 1e-9
    document: dict[str, Any] = {"read_as": reading.read_as} if reading.read_as is not None else {}
    document["equation"] = result.equation
    document["derivatives"] = [entry]
    if options["steps"]:
        document["steps"] = [step_json(s, result.wrt) for s in result.steps]
    return document


def write_implicit(reading: Any, result: Any, value: float | None, exact: str | None, options: dict[str, Any]) -> None:
    """dy/dx on the curve: formula, value at the point (with F there when the point is off the curve), steps."""
    y, x, order = result.implicit, result.wrt, result.order
    name = f"d{y}/d{x}" if order == 1 else f"d{order}{y}/d{x}{order}"
    output = output_format(options["output_format"])
    if output == "json":
        write_json(implicit_document(reading, result, value, exact, options))
        return
    if output == "latex":
        power = "" if order == 1 else f"^{{{order}}}"
        sys.stdout.write(f"\\frac{{d{power} {y}}}{{d{x}{power}}} = {result.latex}\n")
        return
    lines = [] if reading.read_as is None else [f"read as: {reading.read_as}"]
    lines.append(f"{name} = {result.text}  (implicitly, from {result.equation}, {y} a function of {x})")
    if value is not None:
        lines.append(f"  at the point: {value:.10g}" if exact is None else f"  at the point: {exact} = {value:.10g}")
        if result.residual is not None and abs(result.residual) > 1e-9:
            lines.append(f"  note: the point is not on the curve (left side - right side = {result.residual:.6g})")
    if options["steps"]:
        lines += ["", f"steps: d/d{x} of both sides, with {y} = {y}({x}) (so d/d{x} {y} = {y}'), then solve for {y}'"]
        lines.extend(step_lines(result.steps, x))
        if order > 1:
            lines.append(f"  then d/d{x} again, {order - 1} time{'s' if order > 2 else ''}, replacing {y}' by the "
                         "first derivative")
    sys.stdout.write("\n".join(lines) + "\n")
