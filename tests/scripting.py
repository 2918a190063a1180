"""Running a script as `autodiff run -` does, in this process, for the tests that run many generated scripts
(`from scripting import run_script`); registered as the module `scripting` by tests/conftest.py."""

from __future__ import annotations

import contextlib
import io

from autodiff import engine
from autodiff.app.script import run_source


def run_script(source: str) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of the script, with the engine's default settings."""
    engine.set_default_dtype("float32")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = run_source(source, "<stdin>", [])
    return code, out.getvalue(), err.getvalue()
