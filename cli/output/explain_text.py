"""--explain as text: plain lines, or a Rich table when pretty."""

from __future__ import annotations

import sys
from typing import Any

from autodiff.app.explain import Step, short
from autodiff.cli.commandline import spelled
from autodiff.cli.output.text import Doc

# Rich lays a table out as a whole: past this many steps the pretty output is the plain listing, which
# streams (a 100,000-step table takes most of a minute to lay out).
MAX_TABLE_STEPS = 500
MAX_CONTRIBUTIONS = 8  # a value used more often than this lists its first three and last contributions


def _node_label(step: Step) -> str:
    if step.name == "AccumulateGrad":
        return f"AccumulateGrad {step.tensor or '(unnamed leaf)'}"
    return step.name + (f" -> {step.tensor}" if step.tensor else "")


def _received(step: Step, steps: list[Step], starting: str) -> str:
    if not step.received:
        return f"{short(step.grad_in)} ({starting})"
    shown = step.received if len(step.received) <= MAX_CONTRIBUTIONS else \
        [*step.received[:3], None, step.received[-1]]
    parts = [f"... {len(step.received) - 4} more" if c is None else
             f"{short(c.values)} from [{c.from_step + 1}] {steps[c.from_step].name} ({c.via})" for c in shown]
    if len(parts) == 1:
        return parts[0]
    return " + ".join(parts) + f" = {short(step.grad_in)}"


def _outcomes(step: Step) -> list[str]:
    if step.name == "AccumulateGrad":
        name = step.tensor or "leaf"
        before = "None" if step.leaf_before is None else short(step.leaf_before)
        return [f"{name}.grad = {before} + {short(step.grad_in)} = {short(step.leaf_after)}"]
    lines = []
    for rule in step.rules:
        if rule.worked:
            lines.append(f"to {rule.input}: {rule.worked}")
        else:
            reduced = f", summed from shape {rule.reduced_from}" if rule.reduced_from else ""
            lines.append(f"to {rule.input}: {rule.rule}{reduced} -> {short(rule.result)}")
    return lines


def _pass_title(step: Step, result: Any, options: dict[str, Any]) -> str:
    targets = result.passes
    who = targets[step.pass_number - 1].root if step.pass_number - 1 < len(targets) else None
    gradient = f"gradient={options['grad_tensor']}" if options.get("grad_tensor") else ""
    return f"backward {step.pass_number}: {who or 'root'}.backward({gradient})"


def write_steps(steps: list[Step], result: Any, options: dict[str, Any], pretty: bool) -> None:
    starting = spelled("grad_tensor") if options.get("grad_tensor") else "the starting gradient, d root/d root = 1"
    if pretty and len(steps) <= MAX_TABLE_STEPS:
        _write_table(steps, result, options, starting)
        return
    doc = Doc()
    doc.line()
    doc.line(("explain", "title"))
    current = 0
    for step in steps:
        if step.pass_number != current:
            current = step.pass_number
            doc.line(("  ", ""), (_pass_title(step, result, options), "title"))
        _step_lines(doc, step, steps, starting)
    sys.stdout.write(doc.plain())


def _step_lines(doc: Doc, step: Step, steps: list[Step], starting: str) -> None:
    where = f"  (node {step.node_id})" if step.node_id is not None else ""
    doc.line((f"  [{step.index + 1}] ", ""), (_node_label(step), "node"), (where, "muted"))
    doc.line(("      received ", "muted"), (_received(step, steps, starting), ""))
    for line in _outcomes(step):
        doc.line(("      ", ""), (line, ""))


def step_lines(doc: Doc, steps: list[Step]) -> None:
    """The steps of one backward pass, as plain lines (a script's pass under `autodiff run --explain`)."""
    for step in steps:
        _step_lines(doc, step, steps, "the starting gradient")


def _write_table(steps: list[Step], result: Any, options: dict[str, Any], starting: str) -> None:
    from rich.table import Table
    from rich.text import Text

    from autodiff.cli.output.text import colour
    from autodiff.cli.output.text import console as make_console

    styled = colour()
    console = make_console(no_color=not styled, force_terminal=styled or None)
    current = 0
    table = None
    for step in steps:
        if step.pass_number != current:
            if table is not None:
                console.print(table)
            current = step.pass_number
            table = Table(title=Text(_pass_title(step, result, options), style="bold"), show_lines=True,
                          title_justify="left")
            for column in ("step", "node", "received", "what it passed on"):
                table.add_column(column, overflow="fold")
        table.add_row(Text(str(step.index + 1)), Text(_node_label(step), style="magenta"),
                      Text(_received(step, steps, starting)), Text("\n".join(_outcomes(step))))
    if table is not None:
        console.print(table)
