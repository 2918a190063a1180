"""The case modules of tests/engine (cases.py, random_cases.py), each loaded once under one name, so that every
test module shares the same module object (the cases are files beside the tests, not an importable package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def _load(filename: str, name: str) -> ModuleType:
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(filename))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load_cases() -> ModuleType:
    """tests/engine/cases.py (the name tests/make_golden.py gives it too)."""
    return _load("cases.py", "autodiff_engine_cases")


def load_random_cases() -> ModuleType:
    """tests/engine/random_cases.py."""
    return _load("random_cases.py", "autodiff_random_cases")


def load_peer_cases() -> ModuleType:
    """tests/engine/cases_peers.py (the peers' op tests; its tables are loaded by its `load_tables`)."""
    return _load("cases_peers.py", "autodiff_peer_cases")
