"""Running the real `autodiff` entry point in-process, with its output captured."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from typing import Any

import pytest
from click.testing import CliRunner

from autodiff import engine
from autodiff.cli.main import main

from .schemas import check_output


@dataclass
class Outcome:
    code: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        return json.loads(self.stdout)


def run_cli(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> Outcome:
    """Run `autodiff ARGS` through main() (error mapping and exit codes included), capturing its streams."""
    runner = CliRunner()
    with runner.isolation(input=input, env=env) as (out, err, _):
        try:
            main(list(args))
            code = 0
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else 1
        sys.stdout.flush()
        sys.stderr.flush()
        outcome = Outcome(code, out.getvalue().decode(), err.getvalue().decode())
    check_output(args, outcome.stdout)  # every JSON document the suite produces, against its schema
    return outcome


@pytest.fixture
def cli():
    """The function that runs `autodiff ARGS` in-process: cli("eval", "x*2", "x=1") -> Outcome."""
    return run_cli


@pytest.fixture(autouse=True)
def _engine_defaults():
    """Each command configures the engine (dtype, element limit); restore the defaults afterwards."""
    yield
    engine.set_default_dtype("float32")
    engine.set_max_elements(None)
