"""`autodiff eval` once click has read its options (cli/commands/eval_cmd.py declares them): --batch goes to
cli/batch.py, one program to cli/commands/eval_run.py (each imported when used)."""

from __future__ import annotations

from typing import Any

from autodiff.cli.commandline import backward_names, batch_program, program_text


def eval_body(program: str | None, assignments: tuple[str, ...], file: str | None,
              options: dict[str, Any]) -> int | None:
    """`autodiff eval` once click has read its options (cli/commands/eval_cmd.py)."""
    if file is not None and program is not None:
        assignments = (program, *assignments)
        program = None
    options["backward"], assignments = backward_names(options["backward"], assignments)
    if options["batch"] is not None:
        from autodiff.cli.batch import eval_answering, run_batch

        text = batch_program(program, file, options["batch"])
        return run_batch(options, lambda: eval_answering(text, assignments, options),
                         stdin_text=text if "-" in (program, file) else None)
    text = program_text(program, file)
    from autodiff.cli.commands.eval_run import run_eval_command

    run_eval_command(text, assignments, options)
    return None
