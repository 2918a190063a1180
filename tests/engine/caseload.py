"""The case modules of tests/engine's rooms (ops/cases.py, ops/cases_peers.py, random/random_cases.py,
core/dtype_cases.py), each loaded once under one name, so that every test module shares the same module object
(the cases are files beside the tests, not an importable package). Tests in any room import them from here:
`from ..caseload import load_cases`."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).parent


def load(relative: str, name: str) -> ModuleType:
    """The module of tests/engine/RELATIVE, registered as NAME (the name the generator in tests/ gives it too)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, HERE / relative)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load_cases() -> ModuleType:
    """tests/engine/ops/cases.py (the name tests/make_golden.py gives it too)."""
    return load("ops/cases.py", "autodiff_engine_cases")


def load_random_cases() -> ModuleType:
    """tests/engine/random/random_cases.py."""
    return load("random/random_cases.py", "autodiff_random_cases")


def load_peer_cases() -> ModuleType:
    """tests/engine/ops/cases_peers.py (the peers' op tests; its tables are loaded by its `load_tables`)."""
    return load("ops/cases_peers.py", "autodiff_peer_cases")


def load_dtype_cases() -> ModuleType:
    """tests/engine/core/dtype_cases.py."""
    return load("core/dtype_cases.py", "autodiff_dtype_cases")
