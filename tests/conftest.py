"""tests/tolerance.py, the suite's one numeric tolerance and its comparisons, is registered as the module
`tolerance` (the tests folders are not packages), so any test can `from tolerance import assert_close`; likewise
tests/scripting.py as `scripting` (`from scripting import run_script`).

The suite imports every room of the engine first (`import_all`): tests that read the op table (OPS) whole, often to
parametrize themselves, see every op, whichever test ran first. What a process that has not imported them sees (a
one-shot command) is tested in subprocesses (tests/engine/core/test_rooms.py).

The test processes compute on one BLAS thread and one PyTorch thread: the suite's workers (-n auto) already fill
the cores, and a BLAS or torch thread pool on a busy machine spends its time waiting for its threads (the numpy
tutorial 53_two_layer_net_numpy: 2.0 s on one OpenBLAS thread, 19.9 s on two, with other work on the machine).
The `autodiff` processes the tests start get the environment as it was, and so their usual threads."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest


def _register(name: str) -> None:
    if name in sys.modules:
        return
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)


def _one_blas_thread() -> None:
    """Load numpy (and its OpenBLAS, which reads the variable once, when it loads) with one BLAS thread, without
    changing the environment the tests' subprocesses inherit."""
    if "numpy" in sys.modules or "OPENBLAS_NUM_THREADS" in os.environ:
        return
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    try:
        import numpy  # noqa: F401
    finally:
        del os.environ["OPENBLAS_NUM_THREADS"]


_one_blas_thread()
_register("tolerance")
_register("scripting")

from autodiff import engine  # noqa: E402

engine.import_all()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """PyTorch (the oracle) computes on one thread: the suite's workers already fill the cores, and torch's
    threads waiting on each other on a loaded machine made its small ops ~10 times slower (the examples' recorded
    outputs: 92 s -> 30 s). Set once torch is imported (by a test module, or by the test before)."""
    torch = sys.modules.get("torch")
    if torch is not None and torch.get_num_threads() != 1:
        torch.set_num_threads(1)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "long: a test of 15 s or more (on a busy 2-core machine); run first, so that "
                            "it does not end a parallel run (-n auto) alone")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked long first, each group in its order (the same order in every xdist worker)."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)
