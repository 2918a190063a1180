"""tests/tolerance.py, the suite's one numeric tolerance and its comparisons, is registered as the module
`tolerance` (the tests folders are not packages), so any test can `from tolerance import assert_close`; likewise
tests/scripting.py as `scripting` (`from scripting import run_script`).

The suite imports every room of the engine first (`import_all`): tests that read the op table (OPS) whole, often to
parametrize themselves, see every op, whichever test ran first. What a process that has not imported them sees (a
one-shot command) is tested in subprocesses (tests/engine/core/test_rooms.py)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path


def _register(name: str) -> None:
    if name in sys.modules:
        return
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)


_register("tolerance")
_register("scripting")

from autodiff import engine  # noqa: E402

engine.import_all()
