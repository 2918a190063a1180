"""Scripts of PyTorch's API (tests/facade/scripts/) under `autodiff run`: each prints what PyTorch 2.13 printed
(tests/facade/golden/, made by tests/make_facade_golden.py), numbers within the suite's tolerance; and, where torch
is installed, the recorded outputs are checked against torch now."""

from __future__ import annotations

import importlib.util
import re
import warnings
from pathlib import Path

import pytest
from scripting import run_script
from tolerance import numbers_differ

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
SCRIPTS = sorted((HERE / "scripts").rglob("*.py"), key=lambda p: p.stem)  # in rooms (nn/, optim/); stems unique
ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
STOP = re.compile(r"^(\w+): (.*)$")


def expected(path: Path) -> str:
    return (HERE / "golden" / f"{path.stem}.expected").read_text(encoding="utf-8")


def autodiff_output(path: Path) -> str:
    """What the script prints under autodiff, with a stop recorded as the golden files record it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code, out, err = run_script(path.read_text(encoding="utf-8"))
    out = ADDRESS.sub("0x...", out)
    if code:
        last = err.strip().splitlines()[-1] if err.strip() else ""
        match = STOP.match(last)
        out += f"!! {match.group(1)}: {match.group(2)}\n" if match else f"!! {last}\n"
    return out


def test_every_script_has_its_pytorch_output():
    assert len(SCRIPTS) >= 1
    for path in SCRIPTS:
        assert (HERE / "golden" / f"{path.stem}.expected").is_file(), f"{path.name}: run tests/make_facade_golden.py"


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_script_prints_what_pytorch_printed(path):
    difference = numbers_differ(autodiff_output(path), expected(path))
    assert difference is None, f"{path.name}: {difference}"


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_recorded_output_is_current_with_pytorch(path):
    pytest.importorskip("torch")
    spec = importlib.util.spec_from_file_location("make_facade_golden", ROOT / "tests" / "make_facade_golden.py")
    maker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(maker)
    difference = numbers_differ(maker.record(path), expected(path))
    assert difference is None, f"{path.name}: {difference} (run tests/make_facade_golden.py)"
